"""Full mode on many machines: ``certify --shard K/N`` on each, ``certify --merge`` of their
reports into one — the same report an unsharded run writes, but for its clock."""

from __future__ import annotations

import json
from pathlib import Path

from toolconform.harness.cli import main
from toolconform.harness.commands.certify import in_shard

SELECTION = [
    "--adapter", "tests.planted_bugs:drops_text_after_block",
    "--case", "qwen3/valid/*", "--case", "qwen3/invalid/*", "--generated", "2",
    "--no-robustness", "--jobs", "2",
]  # fmt: skip
#: What differs between any two runs: when they ran and how long they took.
CLOCK = {"started_at", "finished_at", "seconds", "machine"}


def _comparable(path: Path) -> dict:
    data = json.loads((path / "report.json").read_text())
    for key in CLOCK:
        data.pop(key)
    for case in data["cases"]:
        case.pop("seconds")
    return data


def test_shards_merged_are_the_unsharded_run(capsys, tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    assert main(["certify", *SELECTION, "--report", str(whole)]) == 1
    shards = []
    for number in (1, 2, 3):
        shard = tmp_path / f"shard{number}"
        main(["certify", *SELECTION, "--shard", f"{number}/3", "--report", str(shard)])
        shards.append(str(shard))
        data = json.loads((shard / "report.json").read_text())
        assert data["shard"] == f"{number}/3"
        assert all(in_shard(case["id"], (number, 3)) for case in data["cases"])
    merged = tmp_path / "merged"
    assert main(["certify", "--merge", *shards, "--report", str(merged)]) == 1
    capsys.readouterr()
    expected, got = _comparable(whole), _comparable(merged)
    assert got["cases"] == expected["cases"]
    assert got == expected


def test_a_merge_needs_every_shard_of_one_run(capsys, tmp_path: Path) -> None:
    shard = tmp_path / "shard1"
    main(["certify", *SELECTION, "--shard", "1/2", "--report", str(shard)])
    capsys.readouterr()
    assert main(["certify", "--merge", str(shard), "--report", str(tmp_path / "m")]) == 2
    assert "needs shards 1…2 of one run" in capsys.readouterr().err
