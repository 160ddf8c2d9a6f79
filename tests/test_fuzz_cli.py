"""``toolconform fuzz``: targets, engines, artifacts and triage from the command line."""

from __future__ import annotations

import sys
import zipfile

from toolconform.harness.cli import main
from toolconform.harness.fuzzing.families import target_names


def test_list_shows_every_target(capsys):
    assert main(["fuzz", "list"]) == 0
    shown = capsys.readouterr().out
    assert all(name in shown for name in target_names())


def test_an_unknown_target_is_one_usage_line(capsys):
    assert main(["fuzz", "nosuch", "--seconds", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("toolconform: error: unknown fuzz target 'nosuch'")
    assert len(error.splitlines()) == 1


def test_without_atheris_it_says_how_to_install_it_and_runs_hypothesis(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setitem(sys.modules, "atheris", None)  # import atheris → ImportError
    code = main(["fuzz", "mistral", "--seconds", "1", "--workdir", str(tmp_path)])
    captured = capsys.readouterr().err
    assert code == 0
    assert "pip install 'toolconform[fuzz]'" in captured
    assert "hypothesis" in captured


def test_asking_for_atheris_without_it_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "atheris", None)
    assert main(["fuzz", "json", "--engine", "atheris", "--workdir", str(tmp_path)]) == 2
    assert "pip install 'toolconform[fuzz]'" in capsys.readouterr().err


def test_artifacts_are_a_dictionary_and_a_seed_corpus_per_target(tmp_path):
    assert main(["fuzz", "artifacts", str(tmp_path)]) == 0
    for name in target_names():
        assert (tmp_path / f"fuzz_{name}.dict").read_text().count("\n") > 10
        with zipfile.ZipFile(tmp_path / f"fuzz_{name}_seed_corpus.zip") as seeds:
            assert seeds.namelist()


def test_triage_of_a_missing_file_or_an_unknown_target(tmp_path, capsys):
    assert main(["fuzz", "triage", str(tmp_path / "crash-0")]) == 2
    finding = tmp_path / "crash-1"
    finding.write_bytes(b"\x00")
    assert main(["fuzz", "triage", str(finding)]) == 2
    assert "--target" in capsys.readouterr().err


def test_triage_of_an_input_that_passes_writes_nothing(tmp_path, capsys):
    finding = tmp_path / "crash-2"
    finding.write_bytes(b"Hello")
    root = tmp_path / "corpus"
    assert main(["fuzz", "triage", str(finding), "--target", "json", "--root", str(root)]) == 0
    assert "passes every oracle now" in capsys.readouterr().err
    assert not root.exists()
