"""``toolconform parse --dialect NAME`` for the section-token, Mistral and Harmony dialects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolconform.harness.cli import main
from toolconform.reference import get_dialect

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


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("dialect", sorted(SAMPLES))
@pytest.mark.parametrize("chunking", ["whole", "aligned:1", "aligned:5"])
def test_parse_prints_content_reasoning_and_the_call(
    dialect: str, chunking: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "output.txt"
    path.write_text(SAMPLES[dialect], encoding="utf-8")
    output = run(capsys, "parse", "--dialect", dialect, "--chunking", chunking, str(path))
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
    output = run(
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
