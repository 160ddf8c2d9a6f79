"""The published full mode as the sharded CI workflow runs it: ``certify_engine.py
--shards N`` certifies each shard and merges their reports into the one ``full/`` report."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from toolconform.harness.cli import main
from toolconform.harness.commands.certify import in_shard

SCRIPT = Path(__file__).resolve().parents[2] / "reports" / "certification" / "certify_engine.py"
OPTIONS = ("--jobs", "1", "--case", "qwen3/invalid/*", "--generated", "0", "--no-robustness")


def _certify_engine():
    spec = importlib.util.spec_from_file_location("certify_engine", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_published_full_mode_is_its_shards_merged(capsys, tmp_path: Path) -> None:
    certify_engine = _certify_engine()
    report = tmp_path / "full"
    status, seconds = certify_engine.certify_full(
        "tests.planted_bugs:drops_text_after_block", ["qwen3"], 2, report, OPTIONS, ()
    )
    printed = capsys.readouterr().out
    assert "shard 1/2" in printed and "shard 2/2" in printed
    assert status == 1  # the planted bug fails, and the merge says so
    assert seconds > 0
    data = json.loads((report / "report.json").read_text())
    assert data["mode"] == "full" and data["shard"] is None
    ids = [case["id"] for case in data["cases"]]
    assert ids == sorted(ids) and ids
    assert all(case_id.startswith("qwen3/invalid/") for case_id in ids)
    # Both shards ran something, and together every selected case.
    assert {in_shard(case_id, (1, 2)) for case_id in ids} == {True, False}
    assert data["verdict"] == "fail"
    assert not list(SCRIPT.parent.glob("tmp*")), "the shards' staging folder is left behind"


def test_the_merge_of_the_shards_writes_the_expectations(tmp_path: Path) -> None:
    """``certify --merge … --update-expectations`` rewrites the file from the merged failures,
    as the sharded workflow's merge job needs (its shards ran on other machines, each with
    half the cases). Before, the merge ignored the option and wrote nothing."""
    adapter = "tests.planted_bugs:drops_text_after_block"
    shards = [tmp_path / f"shard-{number}" for number in (1, 2)]
    for number, shard in enumerate(shards, start=1):
        run = ["certify", "--adapter", adapter, "--full", "--dialect", "qwen3", *OPTIONS]
        assert main([*run, "--shard", f"{number}/2", "--report", str(shard)]) in (0, 1)
    expectations = tmp_path / "expectations.toml"
    merge = ["certify", "--merge", *map(str, shards), "--expectations", str(expectations)]
    assert main([*merge, "--update-expectations", "--report", str(tmp_path / "full")]) == 0
    data = json.loads((tmp_path / "full" / "report.json").read_text())
    gating = [f for f in data["failures"] if f["level"] != "may"]
    assert gating and all(f["expected_failure"] for f in gating)
    written = expectations.read_text()
    assert all(f'case = "{f["case"]}"' in written for f in gating)
    assert f'adapter = "{adapter}"' in written  # the shards' adapter, not --adapter's default
    # Judged against the file as written, the same shards pass and the file stays.
    assert main([*merge, "--report", str(tmp_path / "again")]) == 0
    assert expectations.read_text() == written
