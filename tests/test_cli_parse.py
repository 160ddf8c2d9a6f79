"""``toolconform parse``: the debugging command, its output and its errors."""

from __future__ import annotations

import json
import sys
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


AFTER = OUTPUT + "Bye"
PROGRAM = f"cmd:{sys.executable} {Path(__file__).with_name('protocol_program.py')}"


def test_an_adapter_replays_the_chunks_and_is_diffed_against_the_reference(
    capsys, tmp_path: Path
) -> None:
    path = tmp_path / "after.txt"
    path.write_text(AFTER, encoding="utf-8")
    spec = "tests.planted_bugs:drops_text_after_block"
    status, out, err = run(
        capsys,
        "parse",
        "--dialect",
        "qwen3",
        "--adapter",
        spec,
        "--chunking",
        "aligned:4",
        str(path),
    )
    assert status == 1
    assert json.loads(out)["content"] == "Hi "  # the adapter's result, not the reference's
    assert "--- reference" in err and f"+++ {spec}" in err
    assert '-  "content": "Hi Bye",' in err and '+  "content": "Hi ",' in err


def test_an_adapters_events_are_shown_per_chunk(capsys, tmp_path: Path) -> None:
    chunks = tmp_path / "chunks.json"
    chunks.write_text(json.dumps(["<think>h", "m</think>x"]), encoding="utf-8")
    status, out, err = run(
        capsys, "parse", "--dialect", "qwen3", "--adapter", "reference", "--chunks", str(chunks),
        "--events",
    )  # fmt: skip
    assert status == 0 and "the same result as the reference parser" in err
    assert json.loads(out)["events"] == [
        {"chunk": "<think>h", "events": [{"kind": "reasoning", "text": "h"}]},
        {
            "chunk": "m</think>x",
            "events": [{"kind": "reasoning", "text": "m"}, {"kind": "content", "text": "x"}],
        },
        {"finish": True, "events": [{"kind": "finish", "text": "stop"}]},
    ]


def test_a_protocol_program_replays_too(capsys, output_file: Path) -> None:
    status, out, err = run(
        capsys, "parse", "--dialect", "qwen3", "--adapter", PROGRAM, "--chunking", "aligned:3",
        str(output_file),
    )  # fmt: skip
    assert status == 0, err
    assert json.loads(out)["tool_calls"][0]["name"] == "get_weather"


def test_an_adapter_that_raises_is_reported_with_the_chunk(capsys, tmp_path: Path) -> None:
    chunks = tmp_path / "chunks.json"
    chunks.write_text(json.dumps(["Hello", " Bei", " you"]), encoding="utf-8")
    status, _, err = run(
        capsys,
        "parse",
        "--dialect",
        "qwen3",
        "--adapter",
        f"{PROGRAM} error",
        "--chunks",
        str(chunks),
    )
    assert status == 1 and "raised ImplementationError at chunk 1: parser exploded" in err


def test_an_adapter_without_the_dialect_is_a_usage_error(capsys, output_file: Path) -> None:
    spec = "tests.planted_bugs:drops_text_after_block_by_design"
    status, _, err = run(
        capsys, "parse", "--dialect", "qwen25", "--adapter", spec, str(output_file)
    )
    assert status == 2 and "does not support dialect 'qwen25'" in err


def test_character_chunks_that_cut_a_tag_say_what_the_reference_does(
    capsys, output_file: Path
) -> None:
    status, out, err = run(
        capsys, "parse", "--dialect", "qwen3", "--chunking", "chars:3", str(output_file)
    )
    assert status == 0 and json.loads(out)["tool_calls"] == []  # the tags were read as text
    assert "'<tool_call>'" in err and "seed 000" in err
    assert "--chunking aligned:3" in err and "toolconform tokenizers split" in err
    status, _, err = run(
        capsys, "parse", "--dialect", "qwen3", "--chunking", "aligned:3", str(output_file)
    )
    assert status == 0 and err == ""


def test_character_chunks_that_cut_no_tag_say_nothing(capsys, tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("just some prose", encoding="utf-8")
    status, _, err = run(capsys, "parse", "--dialect", "qwen3", "--chunking", "chars:2", str(path))
    assert status == 0 and err == ""
