"""``toolconform parse``: the debugging command, its output and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolconform.harness.cli import main

OUTPUT = (
    "<think>hmm</think>Hi <tool_call>\n"
    '{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'
)


@pytest.fixture
def output_file(tmp_path: Path) -> Path:
    path = tmp_path / "output.txt"
    path.write_text(OUTPUT, encoding="utf-8")
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("chunking", ["whole", "aligned:1", "aligned:3"])
def test_parse_prints_the_result(capsys, output_file: Path, chunking: str) -> None:
    status, out, _ = run(
        capsys, "parse", "--dialect", "qwen3", "--chunking", chunking, str(output_file)
    )
    assert status == 0
    result = json.loads(out)
    assert result == {
        "content": "Hi ",
        "reasoning_content": "hmm",
        "tool_calls": [
            {"index": 0, "id": "call_0", "name": "get_weather", "arguments": '{"city": "Oslo"}'}
        ],
        "finish_reason": "tool_calls",
    }


def test_events_show_each_chunk(capsys, tmp_path: Path) -> None:
    chunks = tmp_path / "chunks.json"
    chunks.write_text(json.dumps(["<think>h", "m</think>x"]), encoding="utf-8")
    status, out, _ = run(capsys, "parse", "--dialect", "qwen3", "--chunks", str(chunks), "--events")
    assert status == 0
    events = json.loads(out)["events"]
    assert events == [
        {"chunk": "<think>h", "deltas": [{"reasoning_content": "h"}]},
        {"chunk": "m</think>x", "deltas": [{"reasoning_content": "m"}, {"content": "x"}]},
    ]


def test_a_lone_surrogate_is_printed_escaped(capsys, tmp_path: Path) -> None:
    """A name spelt with a lone surrogate escape has no UTF-8 form: escaped, not a crash."""
    path = tmp_path / "output.txt"
    path.write_text('<tool_call>{"name": "\\ud83d", "arguments": {}}</tool_call>')
    status, out, _ = run(capsys, "parse", "--dialect", "qwen25", str(path))
    assert status == 0
    assert "\\ud83d" in out
    assert json.loads(out)["tool_calls"][0]["name"] == "\ud83d"


def test_chars_chunking_cuts_anywhere(capsys, output_file: Path) -> None:
    status, out, _ = run(
        capsys, "parse", "--dialect", "qwen3", "--chunking", "chars:5", "--events", str(output_file)
    )
    chunks = [event["chunk"] for event in json.loads(out)["events"]]
    assert status == 0 and "".join(chunks) == OUTPUT
    assert [len(c) for c in chunks[:-1]] == [5] * (len(chunks) - 1)


def test_tools_filter_unknown_names(capsys, output_file: Path, tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"type": "function", "function": {"name": "other"}}]))
    status, out, _ = run(
        capsys, "parse", "--dialect", "qwen3", "--tools", str(tools), str(output_file)
    )
    assert status == 0 and json.loads(out)["tool_calls"] == []
    assert json.loads(out)["finish_reason"] == "stop"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dialect", "nope"], "unknown dialect 'nope'; known dialects: "),
        (["--dialect", "qwen3", "--tools", "MISSING"], "cannot read MISSING"),
        (["--dialect", "qwen3", "--tools", "BAD"], "tools file BAD is not valid JSON"),
        (["--dialect", "qwen3", "--tools", "NOTLIST"], "must hold a JSON list of tool objects"),
        (["--dialect", "qwen3", "--chunks", "BAD"], "chunks file BAD is not valid JSON"),
        (["--dialect", "qwen3", "--chunking", "chars:0"], "--chunking 'chars:0' is not understood"),
    ],
)
def test_errors_are_one_clear_line_with_status_2(
    capsys, monkeypatch, tmp_path: Path, output_file: Path, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "BAD").write_text("[1,")
    (tmp_path / "NOTLIST").write_text("{}")
    status, _, err = run(capsys, "parse", *args, str(output_file))
    assert status == 2
    assert err.startswith("toolconform: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
