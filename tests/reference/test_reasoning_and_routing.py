"""Reasoning, routing and stream order: the response state machine of seed 000."""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect

from ..support import Expected, check, stream, tools

CALL = '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
GHOST = '<tool_call>\n{"name": "ghost", "arguments": {}}\n</tool_call>'


def test_reasoning_content_and_tool_in_one_chunk() -> None:
    text = "<think>plan</think>Sure. " + CALL + " done"
    check("qwen3", text, Expected("Sure.  done", "plan", [("f", '{"a": 1}')]))


def test_reasoning_without_open_tag_because_the_template_opened_it() -> None:
    check("qwen3", "plan</think>answer", Expected("answer", "plan"))


def test_missing_close_tag_keeps_everything_in_reasoning() -> None:
    check("qwen3", "<think>still thinking", Expected("", "still thinking"))


def test_tool_inside_reasoning_returns_to_reasoning() -> None:
    text = "<think>a" + CALL + "b</think>c"
    check("qwen3", text, Expected("c", "ab", [("f", '{"a": 1}')]))


def test_stream_order_is_reasoning_then_tool_then_reasoning() -> None:
    text = "<think>a" + CALL + "b</think>c"
    messages = stream("qwen3", [text])
    kinds = [
        "reasoning" if m.reasoning_content else "tool" if m.tool_calls else "content"
        for m in messages
    ]
    assert kinds == ["reasoning", "tool", "reasoning", "content"]


def test_filtered_tool_inside_reasoning_leaves_no_trace() -> None:
    text = "<think>a" + GHOST + "b" + CALL + "c</think>d"
    check("qwen3", text, Expected("d", "abc", [("f", '{"a": 1}')]), Request(tools=tools("f")))


@pytest.mark.parametrize("separator", ["\n", "\n\n"])
def test_newlines_between_tools_inside_reasoning_are_dropped(separator: str) -> None:
    text = "<think>a" + CALL + separator + CALL + "\nb</think>"
    check("qwen3", text, Expected("", "a\nb", [("f", '{"a": 1}'), ("f", '{"a": 1}')]))


def test_tool_inside_reasoning_with_missing_close_tag() -> None:
    text = "<think>a" + CALL + "b"
    check("qwen3", text, Expected("", "ab", [("f", '{"a": 1}')]))


def test_repeated_open_tag_is_dropped_only_at_the_start() -> None:
    check("qwen3", "<think>x<think>y</think>z", Expected("z", "x<think>y"))


STARTS_IN_REASONING = [
    ("qwen3", None),
    ("qwen35", None),
    ("glm47", None),
    ("minimax_m2", None),
    ("deepseek_r1", None),
    ("deepseek_v31", True),
    ("deepseek_v32", True),
    ("deepseek_v4", True),
    ("kimi_k2", True),
]


@pytest.mark.parametrize(("dialect", "thinking"), STARTS_IN_REASONING)
@pytest.mark.parametrize("layout", ["\n", "\n\n", " ", "\r\n  "])
def test_layout_before_a_repeated_open_tag_is_not_reasoning(
    dialect: str, thinking: bool | None, layout: str
) -> None:
    """The template opened reasoning and the model repeats the tag after a newline: the tag
    is protocol and the newline layout (before: reasoning ``"\\n<think>R"``, a leak)."""
    check(dialect, layout + "<think>R</think>C", Expected("C", "R"), Request(thinking=thinking))


@pytest.mark.parametrize("text", ["\n\nR</think>C", "  <thin</think>C", "\n<b>R</think>C"])
def test_layout_before_other_text_stays_reasoning(text: str) -> None:
    reasoning = text[: text.index("</think>")]
    check("qwen3", text, Expected("C", reasoning))


def test_a_long_layout_run_at_the_start_is_scanned_once() -> None:
    """The whitespace waits for what follows it without being scanned again per chunk."""
    parser = get_dialect("qwen3").new_parser()
    for _ in range(20_000):
        assert parser.stream_chunk("\n") == []
    assert parser._open_layout == 20_000
    out = parser.stream_chunk("x</think>", final=True)
    assert "".join(m.reasoning_content or "" for m, _ in out) == "\n" * 20_000 + "x"


QWEN_CALL = "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R\n</think>\n\nHello\n", Expected("Hello\n", "R\n")),
        ("R</think>\n" + QWEN_CALL, Expected("", "R", [("f", '{"a": "1"}')])),
        # Only the answer's beginning: newlines after a block are the answer's own text.
        ("R</think>\n" + QWEN_CALL + "\n\nTail", Expected("\n\nTail", "R", [("f", '{"a": "1"}')])),
        # Newlines, as the engines strip them; a carriage return is the answer's own.
        ("R</think>\r\nX", Expected("\r\nX", "R")),
        ("R</think>\n\n", Expected("", "R")),
    ],
)
def test_granite42_newlines_after_think_close_are_layout(text: str, expected: Expected) -> None:
    check("granite42", text, expected, Request(tools=tools("f")))


def test_granite42_keeps_newlines_with_thinking_off_and_nemotron3_after_reasoning() -> None:
    check("granite42", "\nHello", Expected("\nHello"), Request(thinking=False))
    check("nemotron3", "R</think>\n\nHello", Expected("\n\nHello", "R"))


def test_stray_close_tag_in_plain_mode_is_content() -> None:
    check("qwen3", "<think>r</think>a</think>b", Expected("a</think>b", "r"))


def test_thinking_off_makes_reasoning_tags_plain_text() -> None:
    check("qwen3", "<think>r</think>a", Expected("<think>r</think>a"), Request(thinking=False))


def test_deepseek_r1_is_reasoning_only() -> None:
    check(
        "deepseek_r1",
        "<think>\nr</think>\n\nanswer <tool_call>",
        Expected("\n\nanswer <tool_call>", "\nr"),
    )


def test_deepseek_r1_without_close_tag() -> None:
    check("deepseek_r1", "only reasoning", Expected("", "only reasoning"))


def test_reasoning_tokens_follow_the_raw_tag_span() -> None:
    # ids: <think>=1 </think>=2; tool tokens inside reasoning still count.
    parser = get_dialect("qwen3").new_parser(Request(), reasoning_tag_ids=(1, 2))
    parser.stream_chunk("<think>", [1])
    parser.stream_chunk("a", [10])
    parser.stream_chunk(CALL, [20, 21, 22])
    parser.stream_chunk("</think>", [2])
    parser.stream_chunk("c", [30], final=True)
    assert parser.reasoning_tokens == 4


def test_nothing_is_emitted_while_syntax_is_buffered() -> None:
    parser = get_dialect("qwen3").new_parser(Request(thinking=False))
    assert parser.stream_chunk("<tool_call>") == []
    assert parser.stream_chunk('\n{"na') == []
    ((message, is_tool),) = parser.stream_chunk('me": "f", ')
    assert is_tool and message.tool_calls and message.tool_calls[0].name == "f"
