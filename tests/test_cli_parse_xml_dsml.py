"""``toolconform parse --dialect NAME`` for the XML-like and DSML dialects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolconform.harness.cli import main

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
