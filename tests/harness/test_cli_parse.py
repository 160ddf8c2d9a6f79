"""``toolconform parse``: the debugging command, its output and its errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from toolconform.harness.cli import main
from toolconform.reference import get_dialect

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
PROGRAM = f"cmd:{sys.executable} {Path(__file__).parents[1] / 'protocol_program.py'}"


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


# ------------------------------------------------------------------------------------------
# ``toolconform parse --dialect ds2api``: the reference's view of one ds2api output.

DS2API_OUTPUT = (
    "Let me look.\n"
    "<|DSML|tool_calls>\n"
    '  <|DSML|invoke name="read_file">\n'
    '    <|DSML|parameter name="path"><![CDATA[README.MD]]></|DSML|parameter>\n'
    "  </|DSML|invoke>\n"
    "</|DSML|tool_calls>\n"
    "Done."
)


@pytest.mark.parametrize("chunking", ["whole", "chars:1", "aligned:5"])
def test_parse_prints_content_calls_and_finish_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chunking: str
) -> None:
    source = tmp_path / "output.txt"
    source.write_text(DS2API_OUTPUT, encoding="utf-8")
    assert main(["parse", "--dialect", "ds2api", "--chunking", chunking, str(source)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["content"] == "Let me look.\n\nDone."
    assert [(c["name"], json.loads(c["arguments"])) for c in result["tool_calls"]] == [
        ("read_file", {"path": "README.MD"})
    ]
    assert result["finish_reason"] == "tool_calls"


def test_dialects_lists_ds2api(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects"]) == 0
    assert "ds2api" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------
# ``toolconform parse --dialect NAME`` for the XML-like and DSML dialects.

D = "｜DSML｜"
OUTPUTS = {
    "qwen3_coder": "Hi\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
    "</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    "qwen35": "plan</think>Hi\n<tool_call>\n<function=get_weather>\n<parameter=city>\n"
    "Paris\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    "glm45": "<think>plan</think>Hi\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
    "<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n"
    "</tool_call>",
    "glm47": "plan</think>Hi\n<tool_call>get_weather<arg_key>city</arg_key>"
    "<arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>",
    "minimax_m2": 'plan</think>Hi\n<minimax:tool_call>\n<invoke name="get_weather">\n'
    '<parameter name="city">Paris</parameter>\n<parameter name="days">3</parameter>\n'
    "</invoke>\n</minimax:tool_call>",
    "deepseek_v32": f'plan</think>Hi\n\n\n<{D}function_calls>\n<{D}invoke name="get_weather">\n'
    f'<{D}parameter name="city" string="true">Paris</{D}parameter>\n'
    f'<{D}parameter name="days" string="false">3</{D}parameter>\n'
    f"</{D}invoke>\n</{D}function_calls>",
    "deepseek_v4": f'plan</think>Hi\n\n\n<{D}tool_calls>\n<{D}invoke name="get_weather">\n'
    f'<{D}parameter name="city" string="true">Paris</{D}parameter>\n'
    f'<{D}parameter name="days" string="false">3</{D}parameter>\n'
    f"</{D}invoke>\n</{D}tool_calls>",
}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
        },
    }
]


@pytest.mark.parametrize("dialect", list(OUTPUTS))
@pytest.mark.parametrize("chunking", ["whole", "aligned:3", "aligned:1"])
def test_parse_prints_content_reasoning_and_the_typed_call(
    dialect: str, chunking: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "output.txt"
    output.write_text(OUTPUTS[dialect], encoding="utf-8")
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS), encoding="utf-8")
    thinking = ["--thinking", "on"] if dialect.startswith("deepseek") else []
    argv = ["parse", "--dialect", dialect, "--tools", str(tools), "--chunking", chunking]
    assert main([*argv, *thinking, str(output)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["content"] == "Hi\n"
    assert result["reasoning_content"] == (None if dialect == "qwen3_coder" else "plan")
    assert result["finish_reason"] == "tool_calls"
    (call,) = result["tool_calls"]
    assert (call["index"], call["name"]) == (0, "get_weather")
    assert json.loads(call["arguments"]) == {"city": "Paris", "days": 3}


# ------------------------------------------------------------------------------------------
# ``toolconform parse --dialect NAME`` for the section-token, Mistral and Harmony dialects.

SAMPLES = {
    "deepseek_v3": (
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
        '```json\n{"city": "Tokyo"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    ),
    "deepseek_v31": (
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Tokyo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    ),
    "kimi_k2": (
        "<think>plan</think>Checking.<|tool_calls_section_begin|><|tool_call_begin|>"
        'functions.get_weather:0<|tool_call_argument_begin|>{"city": "Tokyo"}'
        "<|tool_call_end|><|tool_calls_section_end|>"
    ),
    "mistral": 'Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Tokyo"}',
    "gpt_oss": (
        "<|channel|>analysis<|message|>plan<|end|><|start|>assistant<|channel|>final"
        "<|message|>Checking.<|end|><|start|>assistant<|channel|>commentary "
        'to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo"}<|call|>'
    ),
}
REASONING = {"kimi_k2": "plan", "gpt_oss": "plan"}


def parsed(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("dialect", sorted(SAMPLES))
@pytest.mark.parametrize("chunking", ["whole", "aligned:1", "aligned:5"])
def test_parse_prints_content_reasoning_and_the_call(
    dialect: str, chunking: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "output.txt"
    path.write_text(SAMPLES[dialect], encoding="utf-8")
    output = parsed(capsys, "parse", "--dialect", dialect, "--chunking", chunking, str(path))
    assert output["content"] == "Checking."
    assert output["reasoning_content"] == REASONING.get(dialect)
    ((call,),) = [output["tool_calls"]]
    assert (call["name"], json.loads(call["arguments"])) == ("get_weather", {"city": "Tokyo"})
    expected_id = "functions.get_weather:0" if dialect == "kimi_k2" else "call_0"
    assert call["id"] == expected_id
    assert output["finish_reason"] == "tool_calls"


@pytest.mark.parametrize("dialect", sorted(SAMPLES))
def test_unknown_tools_are_filtered_from_the_command_line(
    dialect: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output_path = tmp_path / "output.txt"
    output_path.write_text(SAMPLES[dialect], encoding="utf-8")
    tools_path = tmp_path / "tools.json"
    tools_path.write_text(json.dumps([{"type": "function", "function": {"name": "other"}}]))
    output = parsed(
        capsys, "parse", "--dialect", dialect, "--tools", str(tools_path), str(output_path)
    )
    assert output["tool_calls"] == []
    assert output["finish_reason"] == "stop"


@pytest.mark.parametrize("dialect", sorted(SAMPLES))
def test_every_marker_and_its_prefixes_are_declared(dialect: str) -> None:
    tags = get_dialect(dialect).protocol_tags()
    for tag, prefixes in tags.items():
        assert all(tag.startswith(p) and 0 < len(p) < len(tag) for p in prefixes), tag
        assert list(prefixes) == sorted(prefixes, key=len, reverse=True), tag
    assert all(tag in tags for tag in _markers_in(SAMPLES[dialect]))


def _markers_in(text: str) -> list[str]:
    """The special-token markers that occur in a sample (``<|…|>`` and ``<｜…｜>`` spans)."""
    markers = []
    for left, right in (("<|", "|>"), ("<｜", "｜>")):
        start = text.find(left)
        while start >= 0:
            end = text.index(right, start + len(left)) + len(right)
            markers.append(text[start:end])
            start = text.find(left, end)
    return markers
