"""A literal open tag in prose is text: the tool parser's payload verdict.

"The literal token ``<tool_call>`` marks a call…": Qwen3-Coder's reference swallowed
everything after the tag, as vLLM does (vllm-project/vllm#56661). Every dialect now decides,
as soon as its grammar rules the payload out, that the open tag was prose: the tag and what
follows go back to the channel it was found in, and only what the decision needs is held.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect

from ..support import Expected, check

PROSE = " marks a call, and the answer is 4."

#: dialect, the open tag as prose writes it, the request, what precedes the output.
MENTIONS = [
    ("qwen3", "<tool_call>", Request(thinking=False), ""),
    ("qwen25", "<tool_call>", None, ""),
    ("internlm", "<|action_start|><|plugin|>", None, ""),
    ("llama3_json", "<|python_tag|>", None, ""),
    ("qwen3_coder", "<tool_call>", None, ""),
    ("qwen35", "<tool_call>", Request(thinking=False), ""),
    ("glm45", "<tool_call>", None, ""),
    ("glm47", "<tool_call>", Request(thinking=False), ""),
    ("minimax_m2", "<minimax:tool_call>", None, "</think>"),
    ("deepseek_v3", "<｜tool▁calls▁begin｜>", None, ""),
    ("deepseek_v31", "<｜tool▁calls▁begin｜>", None, ""),
    ("deepseek_v32", "\n\n<｜DSML｜function_calls>", None, ""),
    ("deepseek_v4", "\n\n<｜DSML｜tool_calls>", None, ""),
    ("kimi_k2", "<|tool_calls_section_begin|>", None, ""),
    ("mistral", "[TOOL_CALLS]", None, ""),
    ("pythonic", "[", None, ""),
    ("llama4_pythonic", "<|python_start|>", None, ""),
    ("lfm2", "<|tool_call_start|>", None, ""),
    ("olmo3", "<function_calls>", Request(thinking=False), ""),
    ("functiongemma", "<start_function_call>", None, ""),
    ("gemma4", "<|tool_call>", None, ""),
]


@pytest.mark.parametrize(("dialect", "tag", "request_", "lead"), MENTIONS)
def test_an_open_tag_followed_by_prose_is_content(
    dialect: str, tag: str, request_: Request | None, lead: str
) -> None:
    """Before: every dialect swallowed the tag and the rest of the answer (content stopped
    at the tag, or the text after it was dropped as stray payload)."""
    text = f"{lead}The literal token {tag}{PROSE}"
    check(dialect, text, Expected(f"The literal token {tag}{PROSE}"), request_)


@pytest.mark.parametrize(("dialect", "tag", "request_", "lead"), MENTIONS)
def test_an_open_tag_followed_by_prose_is_content_without_a_space(
    dialect: str, tag: str, request_: Request | None, lead: str
) -> None:
    text = f"{lead}Quote: `{tag}` ends here."
    check(dialect, text, Expected(f"Quote: `{tag}` ends here."), request_)


@pytest.mark.parametrize(
    ("dialect", "request_"),
    [("qwen3", None), ("qwen35", None), ("glm47", None), ("kimi_k2", Request(thinking=True))],
)
def test_a_mention_in_reasoning_stays_reasoning(dialect: str, request_: Request | None) -> None:
    """Also where a tool open tag ends reasoning (GLM, Kimi): a mention is no tool block."""
    tag = "<|tool_calls_section_begin|>" if dialect == "kimi_k2" else "<tool_call>"
    text = f"The tag {tag} opens a call.</think>Done."
    check(dialect, text, Expected("Done.", f"The tag {tag} opens a call."), request_)


def test_a_mention_before_a_real_call() -> None:
    call = '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    text = f"Write <tool_call> like this: {call} done"
    expected = Expected("Write <tool_call> like this:  done", None, [("f", '{"a": 1}')])
    check("qwen25", text, expected)


def test_newlines_before_a_mention_after_a_block_are_kept() -> None:
    """The newlines after a block are dropped only if another block opens: a mention is
    none, so they are content again (before a verdict, they would have been lost)."""
    call = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'
    check(
        "qwen25",
        f"{call}\n\n<tool_call> again",
        Expected("\n\n<tool_call> again", None, [("f", "{}")]),
    )


@pytest.mark.parametrize(
    ("dialect", "tail", "calls"),
    [
        ("qwen25", '\n  {"name": "f", "arguments": {}}</tool_call>', [("f", "{}")]),
        ("qwen3_coder", "\n<function=f>\n</function>\n</tool_call>", [("f", "{}")]),
        (
            "glm47",
            "f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>",
            [("f", '{"a": "1"}')],
        ),
        (
            "glm45",
            "f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
            [("f", '{"a": "1"}')],
        ),
        ("mistral", '  [ {"name": "f", "arguments": {}}]', [("f", "{}")]),
        ("mistral", ' f [ARGS]{"a": 1}', [("f", '{"a": 1}')]),
    ],
)
def test_layout_and_a_name_before_the_payload_do_not_make_prose(
    dialect: str, tail: str, calls: list[tuple[str, str]]
) -> None:
    tag = "[TOOL_CALLS]" if dialect == "mistral" else "<tool_call>"
    request = Request(thinking=False) if dialect == "glm47" else None
    check(dialect, tag + tail, Expected("", None, calls), request)


@pytest.mark.parametrize("dialect", ["qwen25", "qwen3_coder", "glm47", "mistral"])
def test_an_open_tag_at_the_end_of_the_output_is_a_truncated_block(dialect: str) -> None:
    """Nothing after the tag rules a payload out: it is a block cut by the end (dropped)."""
    tag = "[TOOL_CALLS]" if dialect == "mistral" else "<tool_call>"
    request = Request(thinking=False) if dialect == "glm47" else None
    check(dialect, f"Let me look. {tag}\n", Expected("Let me look. ", None), request)


def _released(dialect: str, chunks: list[str]) -> list[str]:
    parser = get_dialect(dialect).new_parser(Request(thinking=False))
    out = []
    for chunk in chunks:
        out.append("".join(m.content or "" for m, _ in parser.stream_chunk(chunk)))
    return out


def test_the_tag_is_released_as_soon_as_the_grammar_rules_the_payload_out() -> None:
    """hermes needs ``{``: the first other character decides; layout waits."""
    assert _released("qwen25", ["Hi <tool_call>", "\n", " m", "arks"]) == [
        "Hi ",
        "",
        "<tool_call>\n m",
        "arks",
    ]
    # Qwen3-Coder needs <function=: "<f" may still become it, "<fu" too, "<fx" cannot.
    assert _released("qwen3_coder", ["<tool_call>", "\n<f", "u", "x"]) == [
        "",
        "",
        "",
        "<tool_call>\n<fux",
    ]


def test_glm_holds_one_word_at_most() -> None:
    """A GLM payload begins with the function name: one word may be a name, two are prose."""
    assert _released("glm47", ["<tool_call>", " marks", " a", " call"]) == [
        "",
        "",
        "<tool_call> marks a",
        " call",
    ]


def test_a_long_run_of_layout_after_the_open_tag_is_scanned_once() -> None:
    parser = get_dialect("qwen25").new_parser()
    parser.stream_chunk("<tool_call>")
    for _ in range(20_000):
        assert parser.stream_chunk("\n") == []
    # Scanned once, and held by the tool parser: not left in the pending text, where it
    # would be copied again with every chunk.
    assert parser.held_back == ""
    assert parser.tool_parser is not None
    assert sum(map(len, parser.tool_parser._verdict_held)) == 20_000
    out = parser.stream_chunk('{"name": "f", "arguments": {}}</tool_call>', final=True)
    assert [c.name for m, _ in out for c in m.tool_calls or () if c.name] == ["f"]


STUTTERS = {
    "qwen25": (
        '<tool_call><tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>',
        '{"a": 1}',
    ),
    "internlm": (
        '<|action_start|><|plugin|><|action_start|><|plugin|>{"name": "f", "parameters": {"a": 1}}'
        "<|action_end|>",
        '{"a": 1}',
    ),
    "llama3_json": (
        '<|python_tag|><|python_tag|>{"name": "f", "parameters": {"a": 1}}',
        '{"a": 1}',
    ),
    "qwen3_coder": (
        "<tool_call>\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n"
        "</tool_call>",
        '{"a": "1"}',
    ),
    "glm47": (
        "<tool_call><tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>",
        '{"a": "1"}',
    ),
    "minimax_m2": (
        '</think><minimax:tool_call><minimax:tool_call>\n<invoke name="f">\n'
        '<parameter name="a">1</parameter>\n</invoke>\n</minimax:tool_call>',
        '{"a": "1"}',
    ),
    "deepseek_v32": (
        '\n\n<｜DSML｜function_calls>\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n'
        '<｜DSML｜parameter name="a" string="false">1</｜DSML｜parameter>\n</｜DSML｜invoke>\n'
        "</｜DSML｜function_calls>",
        '{"a": 1}',
    ),
    "kimi_k2": (
        "<|tool_calls_section_begin|><|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
        '<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|>',
        '{"a": 1}',
    ),
}


@pytest.mark.parametrize("dialect", list(STUTTERS))
def test_a_repeated_open_tag_is_a_stutter_not_prose(dialect: str) -> None:
    """``<tool_call><tool_call>{…}``: the repeat is layout of one block, neither prose (the
    first tag released as content) nor, in GLM, the head of the function name."""
    text, arguments = STUTTERS[dialect]
    check(dialect, text, Expected("", None, [("f", arguments)]), Request(thinking=False))
