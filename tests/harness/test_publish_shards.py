"""The published full mode as the sharded CI workflow runs it: ``certify_engine.py
--shards N`` certifies each shard and merges their reports into the one ``full/`` report."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

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
