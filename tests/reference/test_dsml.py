"""The seed 000 scenario list for the DSML dialects: deepseek_v32 and deepseek_v4 (and Kimi
K3's XTML, read by the same driver).

``string="true"`` values stream as JSON strings; other values are raw JSON, forwarded
verbatim. The block's open tag includes its leading blank line.
"""

from __future__ import annotations

import json

import pytest

from toolconform.reference import DeltaToolCall, Request, get_dialect
from toolconform.strategies.chunking import cut, tag_aligned_boundaries

from ..support import Expected, check, stream, tools

DSML = "｜DSML｜"
BLOCK_NAMES = {"deepseek_v32": "function_calls", "deepseek_v4": "tool_calls"}
DSML_DIALECTS = list(BLOCK_NAMES)

# (name, [(key, value, is_string)])
Call = tuple[str, list[tuple[str, str, bool]]]


def invoke(name: str, parameters: list[tuple[str, str, bool]]) -> str:
    body = "".join(
        f'<{DSML}parameter name="{key}" string="{"true" if is_string else "false"}">'
        f"{value}</{DSML}parameter>\n"
        for key, value, is_string in parameters
    )
    return f'<{DSML}invoke name="{name}">\n{body}</{DSML}invoke>\n'


def block(dialect: str, *calls: Call) -> str:
    """A block as DeepSeek's encoder writes it, leading blank line included."""
    name = BLOCK_NAMES[dialect]
    invokes = "".join(invoke(*call) for call in calls)
    return f"\n\n<{DSML}{name}>\n{invokes}</{DSML}{name}>"


def tool_fragments(dialect: str, text: str, request: Request | None = None) -> list[DeltaToolCall]:
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    return [f for m in stream(dialect, pieces, request) for f in m.tool_calls or ()]


WEATHER: Call = ("get_weather", [("city", "東京", True), ("days", "3", False)])
WEATHER_ARGUMENTS = '{"city": "東京", "days": 3}'


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_single_call_after_content(dialect: str) -> None:
    text = "Let me check." + block(dialect, WEATHER)
    check(dialect, text, Expected("Let me check.", None, [("get_weather", WEATHER_ARGUMENTS)]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_identity_first_then_string_value_streams(dialect: str) -> None:
    text = block(dialect, ("search", [("query", "DeepSeek streaming", True)]))
    fragments = tool_fragments(dialect, text)
    first, rest = fragments[0], fragments[1:]
    assert (first.name, first.type, first.id, first.arguments) == (
        "search",
        "function",
        "call_0",
        None,
    )
    assert all(f.name is None and f.id is None for f in rest)
    pieces = [f.arguments or "" for f in rest]
    assert "".join(pieces) == '{"query": "DeepSeek streaming"}'
    assert len(pieces) > 3, "a string value streams piece by piece"


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
@pytest.mark.parametrize(
    "raw",
    [
        "12",
        "-1.5e3",
        "true",
        "null",
        '{"active":true}',
        '{ "a" : [1, 2,3], "b": {"c": "</p> \\"q\\""} }',
        '["x", "y"]',
        '"already a JSON string"',
    ],
)
def test_raw_json_values_are_forwarded_verbatim(dialect: str, raw: str) -> None:
    text = block(dialect, ("f", [("v", raw, False)]))
    arguments = f'{{"v": {raw}}}'
    check(dialect, text, Expected("", None, [("f", arguments)]))
    json.loads(arguments)


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_a_parameter_without_string_attribute_is_raw_json(dialect: str) -> None:
    body = (
        f'<{DSML}invoke name="f">\n<{DSML}parameter name="n">42</{DSML}parameter>\n</{DSML}invoke>'
    )
    name = BLOCK_NAMES[dialect]
    text = f"\n\n<{DSML}{name}>\n{body}\n</{DSML}{name}>"
    check(dialect, text, Expected("", None, [("f", '{"n": 42}')]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_non_bmp_and_escaped_characters_in_string_values(dialect: str) -> None:
    value = 'emoji 😀 𝄞 "quoted" back\\slash\ttab\nnew line 中文 a<b </p> </'
    text = block(dialect, ("f", [("s", value, True)]))
    arguments = json.dumps({"s": value}, ensure_ascii=False)
    check(dialect, text, Expected("", None, [("f", arguments)]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_string_values_keep_their_whitespace(dialect: str) -> None:
    text = block(dialect, ("f", [("s", "\n  padded  \n", True), ("e", "", True)]))
    check(dialect, text, Expected("", None, [("f", '{"s": "\\n  padded  \\n", "e": ""}')]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_invoke_without_parameters(dialect: str) -> None:
    check(dialect, block(dialect, ("now", [])), Expected("", None, [("now", "{}")]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_duplicate_parameters_are_kept_in_order(dialect: str) -> None:
    text = block(dialect, ("f", [("a", "1", False), ("a", "x", True), ("a", "2", False)]))
    check(dialect, text, Expected("", None, [("f", '{"a": 1, "a": "x", "a": 2}')]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_several_invokes_in_one_block(dialect: str) -> None:
    text = block(dialect, ("f", [("a", "1", False)]), ("g", []), ("f", [("a", "2", False)]))
    expected = [("f", '{"a": 1}'), ("g", "{}"), ("f", '{"a": 2}')]
    check(dialect, text, Expected("", None, expected))
    indices_and_ids = [(f.index, f.id) for f in tool_fragments(dialect, text) if f.id]
    assert indices_and_ids == [(0, "call_0"), (1, "call_1"), (2, "call_2")]


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_sequential_blocks_and_separators(dialect: str, separator: str) -> None:
    text = separator.join(block(dialect, (f"f{k}", [("k", str(k), False)])) for k in range(3))
    expected = [(f"f{k}", f'{{"k": {k}}}') for k in range(3)]
    check(dialect, text, Expected("", None, expected))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_unknown_names_are_filtered_with_dense_indices(dialect: str) -> None:
    calls = [(name, [("n", name, True)]) for name in ["ghost", "f", "ghost", "h"]]
    text = block(dialect, *calls[:2]) + block(dialect, *calls[2:])
    expected = [("f", '{"n": "f"}'), ("h", '{"n": "h"}')]
    check(dialect, text, Expected("", None, expected), Request(tools=tools("f", "h")))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_tool_choice_none_leaves_markup_as_content(dialect: str) -> None:
    text = "x" + block(dialect, WEATHER)
    check(dialect, text, Expected(text, None, []), Request(tool_choice="none"))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
@pytest.mark.parametrize("tail", ["\nafter", "\n\nafter", "\n", " after", "<｜DSML｜"])
def test_text_after_a_block_is_content(dialect: str, tail: str) -> None:
    text = block(dialect, WEATHER) + tail
    check(dialect, text, Expected(tail, None, [("get_weather", WEATHER_ARGUMENTS)]))


# ----------------------------------------------------------------- the blank line


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
@pytest.mark.parametrize("head", ["", "\n", "Sure.\n"])
def test_a_block_without_its_blank_line_is_content(dialect: str, head: str) -> None:
    text = head + block(dialect, WEATHER).removeprefix("\n\n")
    check(dialect, text, Expected(text, None, []))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_a_block_at_the_very_start_with_its_blank_line_is_a_call(dialect: str) -> None:
    check(
        dialect, block(dialect, WEATHER), Expected("", None, [("get_weather", WEATHER_ARGUMENTS)])
    )


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_content_ending_in_a_blank_line_is_released_at_the_end(dialect: str) -> None:
    check(dialect, "Paragraph.\n\n", Expected("Paragraph.\n\n", None, []))
    check(dialect, "a\n\nb\n\n<x", Expected("a\n\nb\n\n<x", None, []))


# ----------------------------------------------------------------- reasoning


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_reasoning_follows_the_thinking_flag(dialect: str) -> None:
    text = "plan</think>" + block(dialect, WEATHER)
    calls = [("get_weather", WEATHER_ARGUMENTS)]
    check(dialect, text, Expected("", "plan", calls), Request(thinking=True))
    check(dialect, text, Expected("plan</think>", None, calls), Request())
    check(dialect, "<think>" + text, Expected("", "plan", calls), Request())


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_tool_inside_reasoning_resumes_reasoning(dialect: str) -> None:
    text = "a" + block(dialect, WEATHER) + "\nb</think>c"
    calls = [("get_weather", WEATHER_ARGUMENTS)]
    check(dialect, text, Expected("c", "a\nb", calls), Request(thinking=True))
    filtered = Request(thinking=True, tools=tools("other"))
    check(dialect, text, Expected("c", "a\nb", []), filtered)


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_missing_reasoning_close(dialect: str) -> None:
    text = "a" + block(dialect, ("f", [])) + block(dialect, ("g", [])) + "\nb"
    expected = Expected("", "a\nb", [("f", "{}"), ("g", "{}")])
    check(dialect, text, expected, Request(thinking=True))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_reasoning_content_and_tool_in_one_chunk(dialect: str) -> None:
    text = "<think>plan</think>Sure." + block(dialect, WEATHER) + "\nDone."
    expected = Expected("Sure.\nDone.", "plan", [("get_weather", WEATHER_ARGUMENTS)])
    check(dialect, text, expected)


# ----------------------------------------------------------------- end of input


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_final_closes_a_string_value_and_the_object(dialect: str) -> None:
    full = block(dialect, ("f", [("a", "partial value", True)]))
    text = full[: full.index("partial") + len("partial")]
    check(dialect, text, Expected("", None, [("f", '{"a": "partial"}')]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_final_keeps_a_truncated_raw_value_as_its_text(dialect: str) -> None:
    """A raw value cut by the end of the input is no JSON: it becomes the string of its
    text, so the arguments stay a JSON object (before: ``{"a": {"b": "partial}``)."""
    full = block(dialect, ("f", [("a", '{"b": "partial"}', False)]))
    text = full[: full.index("partial") + len("partial")]
    check(dialect, text, Expected("", None, [("f", '{"a": "{\\"b\\": \\"partial"}')]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
@pytest.mark.parametrize(
    ("raw", "arguments"),
    [
        ("hello", '{"label": "hello"}'),  # a bare word: vLLM and SGLang fall back to a string
        ("", '{"label": ""}'),  # nothing at all is no JSON value either
        ("NaN", '{"label": "NaN"}'),  # Python's json reads it; JSON has no NaN
        ("{'a': 1}", '{"label": "{\'a\': 1}"}'),  # a Python dict is not JSON
        (" 3 ", '{"label":  3 }'),  # JSON with layout is forwarded verbatim
        ('"quoted"', '{"label": "quoted"}'),  # a JSON string is JSON
    ],
)
def test_a_raw_value_that_is_not_json_becomes_a_string(
    dialect: str, raw: str, arguments: str
) -> None:
    """The parser builds the arguments object, so every value in it must be JSON: a
    ``string="false"`` value that ``json.loads`` rejects is kept as the string of its text
    (before: ``{"label": hello}``, which no client can read)."""
    text = block(dialect, ("f", [("label", raw, False)]))
    check(dialect, text, Expected("", None, [("f", arguments)]))
    json.loads(arguments)


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
@pytest.mark.parametrize(
    ("cut", "calls"),
    [
        ("get_wea", []),  # inside the name attribute: no call
        ('"city" str', [("get_weather", "{}")]),  # inside a parameter header
        ('"true">', [("get_weather", "{}")]),  # a string value that never began
        ('"false">', [("get_weather", '{"city": "東京"}')]),  # a raw value that never began
    ],
)
def test_final_invents_no_name_and_no_value(
    dialect: str, cut: str, calls: list[tuple[str, str]]
) -> None:
    full = block(dialect, WEATHER)
    text = full[: full.index(cut) + len(cut)]
    check(dialect, text, Expected("", None, calls))


# ----------------------------------------------------------------- malformed payloads


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        # A missing </｜DSML｜parameter>: DSML tags are dedicated tokens, always protocol.
        (f'<{DSML}parameter name="a" string="true">x</{DSML}invoke>', '{"a": "x"}'),
        (
            f'<{DSML}parameter name="a" string="true">x'
            f'<{DSML}parameter name="b" string="false">1</{DSML}parameter></{DSML}invoke>',
            '{"a": "x", "b": 1}',
        ),
        (f'<{DSML}parameter name="a" string="false">[1, 2]', '{"a": [1, 2]}'),
        # A parameter without a name cannot be reported; its neighbours survive.
        (
            f'<{DSML}parameter string="true">lost</{DSML}parameter>'
            f'<{DSML}parameter name="b" string="true">kept</{DSML}parameter></{DSML}invoke>',
            '{"b": "kept"}',
        ),
        # Stray text between tags is not protocol.
        (
            f'junk<{DSML}parameter name="a" string="true">x</{DSML}parameter>junk</{DSML}invoke>',
            '{"a": "x"}',
        ),
    ],
)
@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_missing_and_broken_tags(dialect: str, body: str, arguments: str) -> None:
    name = BLOCK_NAMES[dialect]
    text = f'\n\n<{DSML}{name}>\n<{DSML}invoke name="f">\n{body}</{DSML}{name}>after'
    check(dialect, text, Expected("after", None, [("f", arguments)]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_missing_invoke_close_before_the_next_invoke(dialect: str) -> None:
    name = BLOCK_NAMES[dialect]
    text = (
        f'\n\n<{DSML}{name}>\n<{DSML}invoke name="f">\n'
        f'<{DSML}parameter name="a" string="true">x</{DSML}parameter>\n'
        f'<{DSML}invoke name="g">\n</{DSML}invoke>\n</{DSML}{name}>'
    )
    check(dialect, text, Expected("", None, [("f", '{"a": "x"}'), ("g", "{}")]))


# ----------------------------------------------------------------- token boundaries


def test_v4_close_tag_split_at_its_token_boundary() -> None:
    text = block("deepseek_v4", ("f", [("a", "1", False)])) + "ok"
    close = f"</{DSML}tool_calls>"
    head, tail = text.split(close)
    chunks = [head + f"</{DSML}tool_c", "alls>" + tail]
    messages = stream("deepseek_v4", chunks)
    assert "".join(m.content or "" for m in messages) == "ok"
    check("deepseek_v4", text, Expected("ok", None, [("f", '{"a": 1}')]))


@pytest.mark.parametrize("dialect", DSML_DIALECTS)
def test_long_string_value_streams_with_bounded_hold_back(dialect: str) -> None:
    value = "line </p> <b> x\n" * 200
    text = block(dialect, ("f", [("body", value, True)]))
    protocol_tags = get_dialect(dialect).protocol_tags()
    pieces = cut(text, tag_aligned_boundaries(text, protocol_tags))
    longest = max(len(prefix) for prefixes in protocol_tags.values() for prefix in prefixes)
    parser = get_dialect(dialect).new_parser()
    value_start = text.index(value)
    seen = 0
    for piece in pieces:
        parser.stream_chunk(piece)
        seen += len(piece)
        if value_start + 50 < seen < value_start + len(value) - 50:
            assert len(parser.held_back) <= longest, repr(parser.held_back)


# Kimi K3's XTML on the same driver: headers end at ``<|sep|>``, not at ``>``.
K3_TOOLS = "<|open|>tools<|sep|>{}<|close|>tools<|sep|>"


def k3_call(header: str, arguments: str = "") -> str:
    return f"<|open|>call {header}<|sep|>{arguments}<|close|>call<|sep|>"


def test_kimi_k3_header_interrupted_by_another_tag_is_no_call() -> None:
    """A call header cut by the next marker (here the call's own close) is malformed: left
    alone, not read on to the ``<|sep|>`` of that marker, which would open a call ``f``."""
    argument = '<|open|>argument key="a" type="integer"<|sep|>1<|close|>argument<|sep|>'
    broken = '<|open|>call tool="f" index="1"<|close|>call<|sep|>'
    text = K3_TOOLS.format(broken + k3_call('tool="g"', argument))
    check("kimi_k3", text, Expected("", None, [("g", '{"a": 1}')]), Request(thinking=False))


def test_kimi_k3_attributes_are_unescaped_once() -> None:
    """``&quot;`` and ``&amp;`` are the template's escapes; ``&amp;quot;`` is a literal
    ``&quot;`` and another entity is text."""
    argument = (
        '<|open|>argument key="a&amp;quot;b &quot;c&quot; &lt;" type="null"<|sep|>null'
        "<|close|>argument<|sep|>"
    )
    text = K3_TOOLS.format(k3_call('tool="f"', argument))
    expected = Expected("", None, [("f", json.dumps({'a&quot;b "c" &lt;': None}))])
    check("kimi_k3", text, expected, Request(thinking=False))


def test_kimi_k3_header_cut_by_the_channel_close_ends_the_channel() -> None:
    """The tools channel closing inside a call header: the header is malformed, the close is
    the channel's (not the ``<|sep|>`` that ends the header), and the answer after it is
    content."""
    text = K3_TOOLS.format('<|open|>call tool="f" index="1"') + "Done."
    check("kimi_k3", text, Expected("Done.", None, []), Request(thinking=False))
