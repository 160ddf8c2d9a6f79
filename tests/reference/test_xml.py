"""The seed 000 scenario list for the XML-like dialects, on the shared ``XmlToolParser``.

Dialects: qwen3_coder, qwen35, glm45, glm47, minimax_m2, minimax_m3. Each ``check`` compares the complete
parse with the expected result and the streamed reconstruction with the complete parse under
whole, one-piece-per-chunk, every two-way split at an allowed boundary, and random groupings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from toolconform.reference import DeltaToolCall, Request, get_dialect
from toolconform.reference.dialects.minimax_m3 import MAX_DEPTH
from toolconform.strategies.chunking import cut, tag_aligned_boundaries

from ..support import LINEAR_RATIO, Expected, check, cpu_ratio_of, stream, tools

Arguments = list[tuple[str, str]]


@dataclass(frozen=True)
class Layout:
    """How one dialect writes calls, and how to start its output as plain content."""

    dialect: str
    render_call: Callable[[str, Arguments], str]
    open_tag: str
    close_tag: str
    #: Whether one block may hold several calls (otherwise one block per call).
    several_calls_per_block: bool
    #: The thinking flag and the text that make the output start as plain content.
    plain_thinking: bool | None = None
    plain_prefix: str = ""
    #: Whether a string value written as a JSON string is decoded (MiniMax-M3's template
    #: writes strings verbatim, never quoted, so its quotes are the value's own).
    decodes_quoted_strings: bool = True

    def block(self, *calls: tuple[str, Arguments], separator: str = "") -> str:
        if self.several_calls_per_block:
            inner = "".join(self.render_call(name, arguments) for name, arguments in calls)
            return f"{self.open_tag}\n{inner}{self.close_tag}"
        return separator.join(
            f"{self.open_tag}{self.render_call(name, arguments)}{self.close_tag}"
            for name, arguments in calls
        )

    def blocks(self, *calls: tuple[str, Arguments], separator: str = "") -> str:
        """One block per call, whatever the dialect allows."""
        return separator.join(self.block(call) for call in calls)

    def request(self, **fields: object) -> Request:
        return Request(thinking=self.plain_thinking, **fields)  # type: ignore[arg-type]


def _qwen_call(name: str, arguments: Arguments) -> str:
    parameters = "".join(f"<parameter={key}>\n{value}\n</parameter>\n" for key, value in arguments)
    return f"<function={name}>\n{parameters}</function>\n"


def _glm45_call(name: str, arguments: Arguments) -> str:
    pairs = "".join(
        f"<arg_key>{key}</arg_key>\n<arg_value>{value}</arg_value>\n" for key, value in arguments
    )
    return f"{name}\n{pairs}"


def _glm47_call(name: str, arguments: Arguments) -> str:
    pairs = "".join(
        f"<arg_key>{key}</arg_key><arg_value>{value}</arg_value>" for key, value in arguments
    )
    return f"{name}{pairs}"


def _minimax_call(name: str, arguments: Arguments) -> str:
    parameters = "".join(
        f'<parameter name="{key}">{value}</parameter>\n' for key, value in arguments
    )
    return f'<invoke name="{name}">\n{parameters}</invoke>\n'


M3 = "]<]minimax[>["


def _minimax_m3_call(name: str, arguments: Arguments) -> str:
    elements = "".join(f"{M3}<{key}>{value}{M3}</{key}>" for key, value in arguments)
    return f'{M3}<invoke name="{name}">{elements}{M3}</invoke>\n'


LAYOUTS = {
    "qwen3_coder": Layout("qwen3_coder", _qwen_call, "<tool_call>", "</tool_call>", True),
    "qwen35": Layout("qwen35", _qwen_call, "<tool_call>", "</tool_call>", True, False),
    "glm45": Layout("glm45", _glm45_call, "<tool_call>", "</tool_call>", False),
    "glm47": Layout("glm47", _glm47_call, "<tool_call>", "</tool_call>", False, False),
    "minimax_m2": Layout(
        "minimax_m2",
        _minimax_call,
        "<minimax:tool_call>",
        "</minimax:tool_call>",
        True,
        None,
        "</think>",
    ),
    "minimax_m3": Layout(
        "minimax_m3",
        _minimax_m3_call,
        f"{M3}<tool_call>",
        f"{M3}</tool_call>",
        True,
        decodes_quoted_strings=False,
    ),
}
XML_DIALECTS = list(LAYOUTS)
MULTI_CALL_DIALECTS = [name for name, layout in LAYOUTS.items() if layout.several_calls_per_block]

WEATHER = ("get_weather", [("city", "Beijing"), ("unit", "celsius")])
WEATHER_ARGUMENTS = '{"city": "Beijing", "unit": "celsius"}'


def typed_tools(name: str, properties: dict[str, object]) -> list[dict[str, object]]:
    return [
        {"type": "function", "function": {"name": name, "parameters": {"properties": properties}}}
    ]


def tool_fragments(dialect: str, text: str, request: Request) -> list[DeltaToolCall]:
    """The tool-call fragments streamed for ``text``, one allowed piece per chunk."""
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    return [f for m in stream(dialect, pieces, request) for f in m.tool_calls or ()]


# ----------------------------------------------------------------- the scenario list


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_single_call_after_content(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + "Let me check. " + layout.block(WEATHER)
    check(
        dialect,
        text,
        Expected("Let me check. ", None, [("get_weather", WEATHER_ARGUMENTS)]),
        layout.request(),
    )


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_identity_first_then_arguments_stream(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("search", [("query", "long streamed value")]))
    fragments = tool_fragments(dialect, text, layout.request())
    first, rest = fragments[0], fragments[1:]
    assert (first.name, first.type, first.id, first.arguments) == (
        "search",
        "function",
        "call_0",
        None,
    )
    assert all(f.name is None and f.id is None for f in rest)
    pieces = [f.arguments or "" for f in rest]
    assert "".join(pieces) == '{"query": "long streamed value"}'
    assert len(pieces) > 3, "a plain string value streams piece by piece"


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_call_without_arguments(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("now", []))
    check(dialect, text, Expected("", None, [("now", "{}")]), layout.request())


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_duplicate_parameters_are_kept_in_order(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("f", [("b", "1"), ("a", "2"), ("b", "3")]))
    check(
        dialect,
        text,
        Expected("", None, [("f", '{"b": "1", "a": "2", "b": "3"}')]),
        layout.request(),
    )


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_sequential_blocks_and_separators(dialect: str, separator: str) -> None:
    layout = LAYOUTS[dialect]
    calls = [(f"f{k}", [("k", f"v{k}")]) for k in range(3)]
    text = layout.plain_prefix + layout.blocks(*calls, separator=separator)
    expected = [(f"f{k}", f'{{"k": "v{k}"}}') for k in range(3)]
    check(dialect, text, Expected("", None, expected), layout.request())


@pytest.mark.parametrize("dialect", MULTI_CALL_DIALECTS)
def test_several_calls_in_one_block(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("f", [("a", "1")]), ("g", []), ("f", [("a", "2")]))
    expected = [("f", '{"a": "1"}'), ("g", "{}"), ("f", '{"a": "2"}')]
    check(dialect, text, Expected("", None, expected), layout.request())


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_unknown_names_are_filtered_with_dense_indices(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    names = ["ghost", "f", "ghost", "h"]
    text = layout.plain_prefix + layout.blocks(
        *((name, [("n", name)]) for name in names), separator="\n"
    )
    expected = [("f", '{"n": "f"}'), ("h", '{"n": "h"}')]
    check(dialect, text, Expected("", None, expected), layout.request(tools=tools("f", "h")))


@pytest.mark.parametrize("dialect", MULTI_CALL_DIALECTS)
def test_unknown_name_inside_a_block_keeps_its_neighbours(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("ghost", [("a", "x")]), ("f", [("a", "y")]))
    check(
        dialect, text, Expected("", None, [("f", '{"a": "y"}')]), layout.request(tools=tools("f"))
    )


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_tool_choice_none_leaves_markup_as_content(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    block = layout.block(WEATHER)
    check(
        dialect,
        layout.plain_prefix + block,
        Expected(block, None, []),
        layout.request(tool_choice="none"),
    )


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize("tail", ["\nafter", "\n\nafter", "\n", " after", "after <tool"])
def test_text_after_a_block_is_content(dialect: str, tail: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(WEATHER) + tail
    check(
        dialect, text, Expected(tail, None, [("get_weather", WEATHER_ARGUMENTS)]), layout.request()
    )


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_non_bmp_and_escaped_characters_in_values(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    value = 'emoji 😀 𝄞 "quoted" back\\slash\ttab 中文 שלום a<b </p> \\n literal'
    text = layout.plain_prefix + layout.block(("f", [("s", value)]))
    arguments = json.dumps({"s": value}, ensure_ascii=False)
    check(dialect, text, Expected("", None, [("f", arguments)]), layout.request())
    assert json.loads(arguments) == {"s": value}


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_reasoning_content_and_several_blocks_in_one_chunk(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    blocks = layout.blocks(("f", [("a", "1")]), ("g", []), separator="\n")
    calls = [("f", '{"a": "1"}'), ("g", "{}")]
    if get_dialect(dialect).reasoning_parser is None:
        text, expected = f"Sure. {blocks} done", Expected("Sure.  done", None, calls)
    else:
        # minimax's reasoning is already open; the others' outputs open it or repeat it.
        reasoning = get_dialect(dialect).reasoning_parser
        assert reasoning is not None
        opened = "" if layout.plain_prefix else reasoning.open_tag
        head = f"{opened}plan{reasoning.close_tag}"
        text, expected = f"{head}Sure. {blocks} done", Expected("Sure.  done", "plan", calls)
    check(dialect, text, expected, Request())


# ----------------------------------------------------------------- end of input


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_final_closes_a_streamed_value_and_the_object(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    full = layout.block(("get_weather", [("city", "Beijing")]))
    text = layout.plain_prefix + "Hi " + full[: full.index("Beijing") + len("Bei")]
    check(
        dialect, text, Expected("Hi ", None, [("get_weather", '{"city": "Bei"}')]), layout.request()
    )


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_final_converts_a_held_value_as_far_as_it_came(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    full = layout.block(("f", [("n", "12345")]))
    text = layout.plain_prefix + full[: full.index("12345") + 3]
    request = layout.request(tools=typed_tools("f", {"n": {"type": "integer"}}))
    check(dialect, text, Expected("", None, [("f", '{"n": 123}')]), request)


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize("cut", ["name", "first_key", "second_value_start"])
def test_final_invents_no_name_and_no_value(dialect: str, cut: str) -> None:
    layout = LAYOUTS[dialect]
    full = layout.block(("get_weather", [("city", "Paris"), ("unit", "celsius")]))
    if cut == "name":
        # Cut inside the name: no call at all.
        text, calls = full[: full.index("weather")], []
    elif cut == "first_key":
        # Cut inside the first argument's name: the call, with an empty object.
        text, calls = full[: full.index("city") + 2], [("get_weather", "{}")]
    else:
        # Cut right where the second value would begin: no empty string is made up.
        start = full.index("celsius")
        text = full[: start - 1 if full[start - 1] == "\n" else start]
        calls = [("get_weather", '{"city": "Paris"}')]
    check(dialect, layout.plain_prefix + text, Expected("", None, calls), layout.request())


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_final_with_a_partial_open_tag_flushes_it_as_content(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + "hello " + layout.open_tag[:-3]
    check(dialect, text, Expected("hello " + layout.open_tag[:-3], None, []), layout.request())


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_an_empty_block_is_no_call(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + f"a{layout.open_tag}\n{layout.close_tag}b"
    check(dialect, text, Expected("ab", None, []), layout.request())


# ----------------------------------------------------------------- reasoning


@pytest.mark.parametrize("dialect", ["qwen35", "minimax_m2"])
def test_tool_inside_reasoning_resumes_reasoning(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = "a" + layout.block(WEATHER) + "b</think>c"
    check(
        dialect,
        text,
        Expected("c", "ab", [("get_weather", WEATHER_ARGUMENTS)]),
        Request(thinking=True),
    )


@pytest.mark.parametrize("dialect", ["qwen35", "minimax_m2"])
def test_filtered_tool_inside_reasoning(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = "a" + layout.block(WEATHER) + "b</think>c"
    check(dialect, text, Expected("c", "ab", []), Request(tools=tools("other")))


@pytest.mark.parametrize("dialect", ["qwen35", "minimax_m2"])
def test_newlines_between_tools_inside_reasoning(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = "a" + layout.blocks(("f", []), ("g", []), separator="\n\n") + "\nb</think>c"
    check(dialect, text, Expected("c", "a\nb", [("f", "{}"), ("g", "{}")]), Request())


@pytest.mark.parametrize("dialect", ["qwen35", "minimax_m2"])
def test_missing_reasoning_close_keeps_everything_reasoning(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = "<think>a" + layout.block(("f", [])) + "b"
    check(dialect, text, Expected("", "ab", [("f", "{}")]), Request())


@pytest.mark.parametrize("dialect", ["glm45", "glm47"])
def test_glm_tool_open_ends_reasoning(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    head = "<think>" if dialect == "glm45" else ""
    text = head + "plan" + layout.block(WEATHER) + "done"
    check(dialect, text, Expected("done", "plan", [("get_weather", WEATHER_ARGUMENTS)]), Request())


@pytest.mark.parametrize("dialect", ["glm45", "glm47"])
def test_glm_filtered_tool_still_ends_reasoning(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    head = "<think>" if dialect == "glm45" else ""
    text = head + "plan" + layout.block(WEATHER) + "\nafter"
    check(dialect, text, Expected("\nafter", "plan", []), Request(tools=tools("other")))


def test_glm45_output_starts_as_content_and_glm47_inside_reasoning() -> None:
    check("glm45", "no thinking here", Expected("no thinking here", None, []), Request())
    check("glm47", "thinking</think>answer", Expected("answer", "thinking", []), Request())
    off = Request(thinking=False)
    check("glm47", "<think>x</think>y", Expected("<think>x</think>y", None, []), off)


def test_qwen35_follows_the_thinking_flag() -> None:
    check("qwen35", "r</think>c", Expected("c", "r", []), Request())
    check("qwen35", "<think>r</think>c", Expected("c", "r", []), Request(thinking=True))
    check("qwen35", "r</think>c", Expected("r</think>c", None, []), Request(thinking=False))


def test_minimax_always_starts_in_reasoning() -> None:
    check("minimax_m2", "r</think>c", Expected("c", "r", []), Request(thinking=False))


def test_qwen3_coder_has_no_reasoning_channel() -> None:
    check("qwen3_coder", "<think>r</think>c", Expected("<think>r</think>c", None, []), Request())


# ----------------------------------------------------------------- schema conversion

SCHEMA_CASES = [
    ({"type": "integer"}, "12", "12"),
    ({"type": "integer"}, "2a", '"2a"'),
    ({"type": "integer"}, "1.5", '"1.5"'),
    ({"type": "number"}, "-2.5e3", "-2500.0"),
    ({"type": "number"}, "NaN", '"NaN"'),
    ({"type": "boolean"}, "true", "true"),
    ({"type": "boolean"}, "False", "false"),
    ({"type": "boolean"}, "yes", '"yes"'),
    ({"type": "null"}, "null", "null"),
    ({"type": "object"}, '{"a": [1, {"b": null}]}', '{"a": [1, {"b": null}]}'),
    ({"type": "object"}, "{'a': 1}", "\"{'a': 1}\""),
    ({"type": "array"}, '["x", 2]', '["x", 2]'),
    ({"type": "array"}, "[1, 2", '"[1, 2"'),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "null", "null"),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "7", "7"),
    ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "7", "7"),
    ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "seven", '"seven"'),
    ({"type": ["string", "null"]}, "null", "null"),
    ({"type": ["string", "null"]}, "text", '"text"'),
    ({"type": "integer", "nullable": True}, "NULL", "null"),
    ({"enum": [1, 2, 3]}, "2", "2"),
    ({"type": "string"}, "12", '"12"'),
    ({"type": "string"}, '"quoted"', '"quoted"'),
    ({"type": "string"}, '"quoted" and more', '"\\"quoted\\" and more"'),
    ({}, "true", '"true"'),
]


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize(("schema", "raw", "converted"), SCHEMA_CASES)
def test_values_are_typed_by_the_schema(
    dialect: str, schema: dict[str, object], raw: str, converted: str
) -> None:
    layout = LAYOUTS[dialect]
    if schema == {"type": "string"} and not layout.decodes_quoted_strings:
        converted = json.dumps(raw)
    text = layout.plain_prefix + layout.block(("f", [("v", raw)]))
    request = layout.request(tools=typed_tools("f", {"v": schema}))
    check(dialect, text, Expected("", None, [("f", f'{{"v": {converted}}}')]), request)


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_a_typed_value_is_held_until_its_close_tag(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("f", [("n", "12"), ("s", "text")]))
    request = layout.request(tools=typed_tools("f", {"n": {"type": "integer"}}))
    fragments = tool_fragments(dialect, text, request)
    pieces = [f.arguments for f in fragments if f.arguments]
    assert pieces[0] == '{"n": 12', "the integer arrives whole, converted"
    assert "".join(pieces) == '{"n": 12, "s": "text"}'


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_schema_of_another_function_does_not_apply(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    text = layout.plain_prefix + layout.block(("f", [("n", "12")]))
    check(
        dialect,
        text,
        Expected("", None, [("f", '{"n": "12"}')]),
        layout.request(tools=typed_tools("g", {"n": {"type": "integer"}}) + tools("f")),
    )


# ----------------------------------------------------------------- value layout per dialect


def test_qwen_strips_one_newline_on_each_side() -> None:
    text = (
        "<tool_call>\n<function=f>\n<parameter=a>\n\n x \n\n</parameter>\n"
        "<parameter=b>\r\ny\r\n</parameter>\n</function>\n</tool_call>"
    )
    check("qwen3_coder", text, Expected("", None, [("f", '{"a": "\\n x \\n", "b": "y"}')]))


def test_qwen_value_without_protocol_newlines() -> None:
    text = (
        "<tool_call><function=f><parameter=a>x</parameter>"
        "<parameter=b></parameter></function></tool_call>"
    )
    check("qwen3_coder", text, Expected("", None, [("f", '{"a": "x", "b": ""}')]))


def test_glm_keeps_value_whitespace() -> None:
    text = "<tool_call>f<arg_key> a </arg_key><arg_value>\n x \n</arg_value></tool_call>"
    check("glm47", text, Expected("", None, [("f", '{"a": "\\n x \\n"}')]), Request(thinking=False))


def test_minimax_keeps_value_whitespace_and_accepts_any_name_quoting() -> None:
    """The template writes a value inline between its tags, so its whitespace is its own
    (before: stripped, ``{"a": "x y", "b": ""}``: code lost its indentation)."""
    text = (
        "</think><minimax:tool_call>\n<invoke name='f'>\n"
        "<parameter name=a>\n  x y \n</parameter>\n"
        '<parameter name="b">   </parameter>\n</invoke>\n'
        "<invoke name=g></invoke></minimax:tool_call>"
    )
    expected = Expected("", None, [("f", '{"a": "\\n  x y \\n", "b": "   "}'), ("g", "{}")])
    check("minimax_m2", text, expected)


def test_minimax_keeps_code_indentation_but_types_values_without_it() -> None:
    text = (
        '</think><minimax:tool_call>\n<invoke name="f">\n'
        '<parameter name="code">    def foo():\n        return 1\n</parameter>\n'
        '<parameter name="days"> 3 </parameter>\n'
        "</invoke>\n</minimax:tool_call>"
    )
    request = Request(
        tools=[
            {
                "type": "function",
                "function": {
                    "name": "f",
                    "parameters": {"properties": {"days": {"type": "integer"}}},
                },
            }
        ]
    )
    code = "    def foo():\\n        return 1\\n"
    check(
        "minimax_m2", text, Expected("", None, [("f", f'{{"code": "{code}", "days": 3}}')]), request
    )


def test_glm45_emits_the_name_at_the_end_of_its_line() -> None:
    text = (
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Paris</arg_value>\n</tool_call>"
    )
    chunks = [
        "<tool_call>",
        "get_weather\n",
        "<arg_key>",
        "city</arg_key>\n<arg_value>Paris",
        "</arg_value>\n</tool_call>",
    ]
    parser = get_dialect("glm45").new_parser()
    names = [
        [f.name for m, _ in parser.stream_chunk(chunk) for f in m.tool_calls or () if f.name]
        for chunk in chunks
    ]
    assert names == [[], ["get_weather"], [], [], []]
    check("glm45", text, Expected("", None, [("get_weather", '{"city": "Paris"}')]))


def test_glm47_name_waits_for_the_first_argument() -> None:
    parser = get_dialect("glm47").new_parser(Request(thinking=False))
    assert parser.stream_chunk("<tool_call>") == []
    assert parser.stream_chunk("get_weather") == []
    ((message, is_tool),) = parser.stream_chunk("<arg_key>")
    assert is_tool and message.tool_calls and message.tool_calls[0].name == "get_weather"


# ----------------------------------------------------------------- malformed payloads


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        # The reference parser's regex ends a value at these tags when </parameter> is missing.
        ("<parameter=a>\nx\n</function>", '{"a": "x"}'),
        ("<parameter=a>\nx\n<parameter=b>\ny\n</parameter>\n</function>", '{"a": "x", "b": "y"}'),
        ("<parameter=a>\nx\n", '{"a": "x"}'),
        # Missing </function>: the call ends at the block's close tag.
        ("<parameter=a>\nx\n</parameter>\n", '{"a": "x"}'),
        # A broken parameter name is skipped; its neighbours survive.
        ("<parameter=a\n<parameter=b>\ny\n</parameter>\n</function>", '{"b": "y"}'),
        ("junk <parameter=a>\nx\n</parameter>\nmore junk</function>", '{"a": "x"}'),
    ],
)
def test_qwen_missing_close_tags(body: str, arguments: str) -> None:
    text = f"<tool_call>\n<function=f>\n{body}</tool_call>after"
    check("qwen3_coder", text, Expected("after", None, [("f", arguments)]))


def test_qwen_missing_function_close_before_the_next_function() -> None:
    text = (
        "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n"
        "<function=g>\n</function>\n</tool_call>"
    )
    check("qwen3_coder", text, Expected("", None, [("f", '{"a": "x"}'), ("g", "{}")]))


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        (
            "<arg_key>a</arg_key><arg_value>x<arg_key>b</arg_key><arg_value>y</arg_value>",
            '{"a": "x", "b": "y"}',
        ),
        ("<arg_key>a</arg_key><arg_value>x", '{"a": "x"}'),
        ("<arg_key>a<arg_value>x</arg_value>", '{"a": "x"}'),
        ("<arg_key>a</arg_key>x</arg_value>", '{"a": "x"}'),
        ("<arg_key>a</arg_key><arg_key>b</arg_key><arg_value>y</arg_value>", '{"b": "y"}'),
        ("<arg_key>a</tool_call", "{}"),
    ],
)
def test_glm_missing_tags(body: str, arguments: str) -> None:
    text = f"<tool_call>f{body}</tool_call>after"
    check("glm47", text, Expected("after", None, [("f", arguments)]), Request(thinking=False))


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        # MiniMax's documented parser reads a value up to the next </parameter>.
        (
            '<parameter name="a">x<parameter name="b">y</parameter></invoke>',
            '{"a": "x<parameter name=\\"b\\">y"}',
        ),
        ('<parameter name="a">x</invoke>', '{"a": "x"}'),
        ('<parameter name="a">x', '{"a": "x"}'),
    ],
)
def test_minimax_missing_parameter_close(body: str, arguments: str) -> None:
    text = f'</think><minimax:tool_call><invoke name="f">{body}</minimax:tool_call>after'
    check("minimax_m2", text, Expected("after", None, [("f", arguments)]))


def test_close_tag_inside_a_glm_value_ends_it() -> None:
    # </tool_call> is a dedicated token: it is protocol wherever it appears.
    text = "<tool_call>f<arg_key>a</arg_key><arg_value>x</tool_call>y</arg_value>"
    check(
        "glm47",
        text,
        Expected("y</arg_value>", None, [("f", '{"a": "x"}')]),
        Request(thinking=False),
    )


# ----------------------------------------------------------------- streaming progress


@pytest.mark.parametrize("dialect", XML_DIALECTS)
def test_long_string_value_streams_with_bounded_hold_back(dialect: str) -> None:
    layout = LAYOUTS[dialect]
    value = "line </p> <b> x\n" * 200
    text = layout.plain_prefix + layout.block(("f", [("body", value)]))
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    parser = get_dialect(dialect).new_parser(layout.request())
    prefixes = [
        p for tag_prefixes in get_dialect(dialect).protocol_tags().values() for p in tag_prefixes
    ]
    longest = max(map(len, prefixes), default=0)
    value_start = text.index(value)
    seen = 0
    for piece in pieces:
        parser.stream_chunk(piece)
        seen += len(piece)
        if value_start + 50 < seen < value_start + len(value) - 50:
            # Inside the value only a tag prefix (+ a layout newline) may wait.
            assert len(parser.held_back) <= longest + 2, repr(parser.held_back)


@pytest.mark.parametrize("dialect", ["glm45", "glm47"])
@pytest.mark.parametrize(
    "between",
    [
        "</arg_key><arg_value>",  # the key close duplicated
        "\n</arg_key>\n<arg_value>",
        "</arg_value><arg_value>",  # a stray value close before the value
        "<arg_value><arg_value>",  # the value open duplicated
        "</arg_key><arg_value><arg_value>",
        "</arg_key>",  # stray close, then the value without its open tag
    ],
)
def test_glm_stray_tags_between_a_key_and_its_value_never_reach_the_value(
    dialect: str, between: str
) -> None:
    """GLM tags are dedicated tokens, never value text (before: the reference returned
    ``{"path": "</arg_key><arg_value>(local)"}`` for a duplicated ``</arg_key>``)."""
    text = f"<tool_call>read_file<arg_key>path</arg_key>{between}(local)</arg_value></tool_call>"
    check(
        dialect,
        text,
        Expected("", None, [("read_file", '{"path": "(local)"}')]),
        Request(thinking=False),
    )


def test_glm_a_repeated_value_open_before_a_typed_value() -> None:
    tool = {
        "type": "function",
        "function": {"name": "f", "parameters": {"properties": {"days": {"type": "integer"}}}},
    }
    text = "<tool_call>f<arg_key>days</arg_key><arg_value><arg_value>3</arg_value></tool_call>"
    check(
        "glm47",
        text,
        Expected("", None, [("f", '{"days": 3}')]),
        Request(tools=[tool], thinking=False),
    )


def test_glm_many_stray_closes_are_consumed_once() -> None:
    parser = get_dialect("glm47").new_parser(Request(thinking=False))
    parser.stream_chunk("<tool_call>f<arg_key>k</arg_key>")
    for _ in range(5_000):
        parser.stream_chunk("</arg_key>")
        assert len(parser.held_back) < 20
    out = parser.stream_chunk("<arg_value>v</arg_value></tool_call>", final=True)
    arguments = "".join(c.arguments or "" for m, _ in out for c in m.tool_calls or ())
    assert arguments == '{"k": "v"}'


@pytest.mark.parametrize(
    ("declared", "raw", "value"),
    [
        ("float", "3.14", 3.14),
        ("double", "2", 2),
        ("int", "42", 42),
        ("int64", "7", 7),
        ("uint", "7", 7),
        ("bool", "true", True),
        ("dict", '{"k": 1}', {"k": 1}),
        ("list", "[1]", [1]),
        ("str", "007", "007"),
        ("Integer", "5", 5),
        ("decimal", "x", "x"),  # a value the type cannot read stays the text
    ],
)
def test_type_names_tool_definitions_write_for_json_types(
    declared: str, raw: str, value: object
) -> None:
    """``"float"`` is no JSON Schema type, but tool definitions write it and the parser
    shipped with Qwen3-Coder (and vLLM's test of it) reads 3.14 as a number (before: the
    string "3.14")."""
    tool = {
        "type": "function",
        "function": {"name": "f", "parameters": {"properties": {"p": {"type": declared}}}},
    }
    text = (
        f"<tool_call>\n<function=f>\n<parameter=p>\n{raw}\n</parameter>\n</function>\n</tool_call>"
    )
    result = get_dialect("qwen3_coder").new_parser(Request(tools=[tool])).parse_complete(text)
    assert json.loads(result.calls[0].arguments) == {"p": value}


# ----------------------------------------------------------------- MiniMax-M3's element trees


def _m3(key: str, value: str) -> str:
    return f"{M3}<{key}>{value}{M3}</{key}>"


def _m3_block(*elements: str, name: str = "f") -> str:
    return (
        LAYOUTS["minimax_m3"]
        .block((name, []))
        .replace(f'"{name}">', f'"{name}">' + "".join(elements), 1)
    )


M3_TREE_CASES = [
    # An array of objects, each member typed by the items' schema.
    (
        {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}},
        _m3("item", _m3("n", "1") + _m3("s", "x")) + _m3("item", _m3("n", "2")),
        [{"n": 1, "s": "x"}, {"n": 2}],
    ),
    # Layout between elements is no value text.
    (
        {"type": "object"},
        "\n  " + _m3("a", "1") + "\n  " + _m3("b", "two") + "\n",
        {"a": "1", "b": "two"},
    ),
    # Empty elements: the schema says what the template wrote.
    ({"type": "array"}, "", []),
    ({"type": "object"}, "", {}),
    ({"type": "string"}, "", ""),
    ({"anyOf": [{"type": "array"}, {"type": "string"}]}, "", ""),
    # No schema: <item> children are the template's list, other names an object.
    (None, _m3("item", "a") + _m3("item", "b"), ["a", "b"]),
    (None, _m3("k", "v") + _m3("item", "b"), {"k": "v", "item": "b"}),
    # An element of the parameter's own name nested in it does not close it.
    (
        {"type": "object"},
        _m3("v", _m3("v", "deep")) + _m3("w", "1"),
        {"v": {"v": "deep"}, "w": "1"},
    ),
    # anyOf: the array member's items type the children.
    (
        {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "string"}]},
        _m3("item", "1") + _m3("item", "2"),
        [1, 2],
    ),
    # A string-typed parameter whose value is elements is read as one (both engines).
    ({"type": "string"}, _m3("a", "1"), {"a": "1"}),
]


@pytest.mark.parametrize(("schema", "body", "value"), M3_TREE_CASES)
def test_minimax_m3_values_are_element_trees_typed_by_the_schema(
    schema: dict[str, object] | None, body: str, value: object
) -> None:
    """MiniMax-M3 writes a list as ``<item>`` elements and a mapping as one element per key;
    the schema decides what a held value's elements are (before this dialect: no driver
    read nested elements)."""
    properties = {} if schema is None else {"v": schema}
    request = Request(tools=typed_tools("f", properties))
    text = _m3_block(_m3("v", body))
    complete = get_dialect("minimax_m3").new_parser(request).parse_complete(text)
    assert json.loads(complete.calls[0].arguments) == {"v": value}
    arguments = json.loads(complete.calls[0].arguments)
    check("minimax_m3", text, Expected("", None, [("f", json.dumps(arguments))]), request)


def test_minimax_m3_repeated_element_names_are_kept() -> None:
    """Policy repeated-parameters: the duplicates stay, in order (vLLM and SGLang collect
    them into a list: ``minimax_m3/impl``)."""
    request = Request(tools=typed_tools("f", {"o": {"type": "object"}}))
    text = _m3_block(_m3("o", _m3("t", "x") + _m3("t", "y")))
    complete = get_dialect("minimax_m3").new_parser(request).parse_complete(text)
    assert complete.calls[0].arguments == '{"o": {"t": "x", "t": "y"}}'


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        # A string whose close is missing ends where the next element begins.
        (f"{M3}<a>one" + _m3("b", "2"), '{"a": "one", "b": "2"}'),
        # A held value whose close is missing ends at the invoke's close.
        (f"{M3}<n>7", '{"n": 7}'),
        # A close without its element is skipped.
        (f"{M3}</x>" + _m3("a", "1"), '{"a": "1"}'),
    ],
)
def test_minimax_m3_missing_and_stray_closes(body: str, arguments: str) -> None:
    request = Request(tools=typed_tools("f", {"n": {"type": "integer"}}))
    check("minimax_m3", _m3_block(body), Expected("", None, [("f", arguments)]), request)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("</mm:think>It is 4.", "It is 4."),
        ("It is 4.</mm:think> Really.", "It is 4.</mm:think> Really."),
    ],
)
def test_minimax_m3_bare_think_close_may_lead_an_answer(text: str, content: str) -> None:
    """The template writes ``</mm:think>`` before every answer without reasoning: as the
    output's first text it is protocol (before ``close_may_lead``: content); later, text."""
    check("minimax_m3", text, Expected(content, None, []), Request())


def test_minimax_m3_deep_nesting_is_read_without_recursion_error() -> None:
    """Elements nested past ``MAX_DEPTH`` are text of the deepest element read: the typing
    recursion stays bounded (before: ``RecursionError`` at 2,000 levels) and no text is lost."""
    levels = 2000
    body = f"{M3}<a>" * levels + "x" + f"{M3}</a>" * levels
    request = Request(tools=typed_tools("f", {"v": {"type": "object"}}))
    complete = (
        get_dialect("minimax_m3").new_parser(request).parse_complete(_m3_block(_m3("v", body)))
    )
    value = json.loads(complete.calls[0].arguments)["v"]
    for _ in range(MAX_DEPTH - 1):
        value = value["a"]
    deepest = value["a"]
    assert deepest.startswith(f"{M3}<a>") and "x" in deepest


def test_minimax_m3_held_value_of_many_elements_is_linear() -> None:
    """A held value of many child elements in one chunk: each marker looked at once (before:
    the rest of the text copied at every marker: 46× the CPU time at 8× the size)."""
    request = Request(tools=typed_tools("f", {"v": {"type": "object"}}))

    def text(count: int) -> str:
        return _m3_block(_m3("v", "".join(_m3(f"k{i % 7}", "v") for i in range(count))))

    small, large = text(4000), text(32000)
    parser = get_dialect("minimax_m3")

    ratio = cpu_ratio_of(
        lambda: parser.new_parser(request).parse_complete(small),
        lambda: parser.new_parser(request).parse_complete(large),
    )
    assert ratio < LINEAR_RATIO, ratio
