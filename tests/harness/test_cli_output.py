"""What the listing commands print: the version, JSON for programs, tables never cut."""

from __future__ import annotations

import json

import pytest

from toolconform import __version__
from toolconform.harness.cli import main
from toolconform.reference import dialect_names, get_dialect


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"toolconform {__version__}"


def test_dialects_as_json(capsys) -> None:
    assert main(["dialects", "--format", "json"]) == 0
    rows = {row["dialect"]: row for row in json.loads(capsys.readouterr().out)}
    assert sorted(rows) == sorted(dialect_names())
    assert "<｜tool▁calls▁begin｜>" in rows["deepseek_v3"]["tags"]
    assert rows["qwen3"]["tokenizer_families"] == list(get_dialect("qwen3").tokenizer_families)


def test_the_dialects_table_keeps_every_tag_whole_when_piped(capsys) -> None:
    assert main(["dialects"]) == 0
    out = capsys.readouterr().out
    for name in dialect_names():
        for tag in get_dialect(name).protocol_tags():
            assert repr(tag) in out, (name, tag)


def test_corpus_stats_as_json(capsys) -> None:
    assert main(["corpus", "stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    counts = stats["dialects"].values()
    assert (
        sum(row["valid"] + row["invalid"] + row["impl"] + row["pathological"] for row in counts)
        == stats["cases"]
    )
    assert sum(row["must"] + row["should"] + row["may"] for row in counts) == stats["cases"]
