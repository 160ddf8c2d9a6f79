"""``toolconform fuzz``: targets, fuzzers, artifacts and triage from the command line."""

from __future__ import annotations

import json
import re
import sys
import zipfile

import pytest

from toolconform.harness.cli import main
from toolconform.harness.fuzzing.fuzzers import findings_in
from toolconform.harness.fuzzing.grammars import target_names

from .. import fuzz_planted


def test_list_shows_every_target(capsys):
    assert main(["fuzz", "list"]) == 0
    shown = capsys.readouterr().out
    assert all(name in shown for name in target_names())


def test_an_unknown_target_is_one_usage_line(capsys):
    assert main(["fuzz", "run", "nosuch", "--seconds", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("toolconform: error: unknown fuzz target 'nosuch'")
    assert len(error.splitlines()) == 1


def test_without_atheris_it_says_how_to_install_it_and_runs_hypothesis(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setitem(sys.modules, "atheris", None)  # import atheris → ImportError
    code = main(["fuzz", "run", "mistral", "--seconds", "1", "--workdir", str(tmp_path)])
    captured = capsys.readouterr().err
    assert code == 0
    assert "pip install 'toolconform[fuzz]'" in captured
    assert "hypothesis" in captured


def test_asking_for_atheris_without_it_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "atheris", None)
    assert main(["fuzz", "run", "json", "--fuzzer", "atheris", "--workdir", str(tmp_path)]) == 2
    assert "pip install 'toolconform[fuzz]'" in capsys.readouterr().err


def test_runs_is_a_positive_count(tmp_path, capsys):
    assert main(["fuzz", "run", "json", "--workdir", str(tmp_path), "--runs", "0"]) == 2
    assert "--runs must be at least 1" in capsys.readouterr().err


def test_runs_counts_the_hypothesis_fuzzers_executions_too(tmp_path, capsys):
    """``--runs`` bounds either fuzzer by executions (the seeds first, as libFuzzer counts
    them): the same inputs on any machine, however loaded, where a time budget tried as
    many as the load allowed (before, Hypothesis refused the count)."""
    argv = ["fuzz", "run", "json", "--fuzzer", "hypothesis", "--seed", "1"]
    assert main([*argv, "--workdir", str(tmp_path / "a"), "--runs", "1000"]) == 0
    assert re.search(r"executions\s*│\s*1000 ", capsys.readouterr().err)


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


def test_triage_takes_its_options_anywhere(tmp_path, capsys):
    first, second = tmp_path / "crash-3", tmp_path / "crash-4"
    first.write_bytes(b"Hello")
    second.write_bytes(b"World")
    root = str(tmp_path / "corpus")
    assert main(["fuzz", "triage", "--root", root, "--target", "json", str(first)]) == 0
    assert (
        main(["fuzz", "triage", str(first), "--target", "json", str(second), "--root", root]) == 0
    )
    err = capsys.readouterr().err
    assert err.count("crash-3: passes every oracle now") == 2 and "crash-4: passes" in err
    with pytest.raises(SystemExit, match="2"):
        main(["fuzz", "triage", str(first), "--no-such-option"])


def test_list_as_json(capsys):
    assert main(["fuzz", "list", "--format", "json"]) == 0
    rows = {row["target"]: row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(target_names()) and "qwen3" in rows["json"]["dialects"]


@pytest.fixture
def planted_adapter(monkeypatch):
    """The generic target pointed at a parser with one planted bug (found in seconds)."""
    monkeypatch.setitem(sys.modules, "atheris", None)  # the Hypothesis fuzzer, in this process
    monkeypatch.setenv("TOOLCONFORM_FUZZ_ADAPTER", "tests.fuzz_planted:factory")
    monkeypatch.setenv("TOOLCONFORM_FUZZ_DIALECTS", fuzz_planted.PLANTED)


def test_a_run_stops_at_its_first_failure(tmp_path, capsys, planted_adapter):
    workdir = tmp_path / "work"
    args = ["fuzz", "run", "adapter", "--seconds", "60", "--workdir", str(workdir)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "until the first failure" in err
    assert re.search(r"distinct failures\s*│ 1\s", err)
    assert len(findings_in(workdir / "artifacts")) == 1
    assert err.count("→ toolconform fuzz triage ") == 1


def test_keep_going_reports_each_distinct_failure_once(tmp_path, capsys, planted_adapter):
    workdir = tmp_path / "work"
    args = ["fuzz", "run", "adapter", "--seconds", "10", "--keep-going", "--workdir", str(workdir)]
    assert main(args) == 1
    err = capsys.readouterr().err
    distinct = findings_in(workdir / "artifacts")
    duplicates = list((workdir / "artifacts" / "duplicates").iterdir())
    assert distinct and duplicates  # the planted bug fails on many inputs, a few ways
    assert err.count("→ toolconform fuzz triage ") == len(distinct)
    minimal = re.findall(r"minimal chunks: (.*)", err)
    assert len(minimal) == len(set(minimal)) == len(distinct)
    assert f"{len(duplicates)} duplicates in artifacts/duplicates" in err
