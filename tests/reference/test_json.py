"""The seed 000 scenario list for every JSON-envelope dialect.

Dialects: qwen3, qwen25, internlm, llama3_json.

Each test checks the complete parse against the expected result and the streamed
reconstruction against the complete parse under whole, one-piece-per-chunk, every two-way
split at an allowed boundary, and random multi-piece groupings.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect
from toolconform.reference.tool_parser import ToolParser
from toolconform.strategies.chunking import cut, tag_aligned_boundaries

from ..support import Expected, check, stream, tools

JSON_DIALECTS = ["qwen3", "qwen25", "internlm", "llama3_json"]
CLOSED_DIALECTS = ["qwen3", "qwen25", "internlm"]  # with an outer close tag


def parts(dialect: str) -> type[ToolParser]:
    tool_parser = get_dialect(dialect).tool_parser
    assert tool_parser is not None
    return tool_parser


def block(dialect: str, name: str | None, arguments: str | None, *, name_first: bool = True) -> str:
    """A tool block of ``dialect`` with the raw arguments text (``None``: no such field)."""
    tp = parts(dialect)
    fields = []
    if name is not None:
        fields.append(f'"name": "{name}"')
    if arguments is not None:
        fields.append(f'"{tp.argument_field}": {arguments}')
    if not name_first:
        fields.reverse()
    close = f"\n{tp.close_tag}" if tp.close_tag else ""
    return f"{tp.open_tag}\n{{{', '.join(fields)}}}{close}"


def no_reasoning_request(dialect: str) -> Request:
    # qwen3 starts inside reasoning; these scenarios are about plain content.
    return Request(thinking=False) if dialect == "qwen3" else Request()


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_single_call_after_content(dialect: str) -> None:
    text = "Let me check. " + block(dialect, "get_weather", '{"city": "Beijing", "unit": "c"}')
    check(
        dialect,
        text,
        Expected("Let me check. ", None, [("get_weather", '{"city": "Beijing", "unit": "c"}')]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
@pytest.mark.parametrize("name_first", [True, False])
def test_name_before_and_after_arguments(dialect: str, name_first: bool) -> None:
    arguments = '{"q": "a \\"quoted\\" \\\\ value", "n": [1, 2.5e3, null, true]}'
    text = block(dialect, "search", arguments, name_first=name_first)
    check(dialect, text, Expected("", None, [("search", arguments)]), no_reasoning_request(dialect))


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_identity_first_when_arguments_precede_the_name(dialect: str) -> None:
    text = block(dialect, "search", '{"q": "x"}', name_first=False)
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    messages = stream(dialect, pieces, no_reasoning_request(dialect))
    fragments = [f for m in messages for f in m.tool_calls or ()]
    assert fragments[0].name == "search" and fragments[0].id and fragments[0].type == "function"
    assert all(f.name is None and f.id is None for f in fragments[1:])
    assert "".join(f.arguments or "" for f in fragments) == '{"q": "x"}'


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
@pytest.mark.parametrize("arguments", [None, "{}", "{ }"])
def test_call_without_arguments(dialect: str, arguments: str | None) -> None:
    text = block(dialect, "now", arguments)
    expected_arguments = "{}" if arguments is None else arguments
    check(
        dialect,
        text,
        Expected("", None, [("now", expected_arguments)]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_duplicate_keys_and_order_are_kept(dialect: str) -> None:
    arguments = '{"b": 1, "a": 2, "b": 3}'
    check(
        dialect,
        block(dialect, "f", arguments),
        Expected("", None, [("f", arguments)]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_duplicate_envelope_fields_first_wins(dialect: str) -> None:
    tp = parts(dialect)
    field = tp.argument_field
    payload = f'{{"name": "f", "{field}": {{"a": 1}}, "name": "g", "{field}": {{"b": 2}}}}'
    close = tp.close_tag or ""
    check(
        dialect,
        f"{tp.open_tag}{payload}{close}",
        Expected("", None, [("f", '{"a": 1}')]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_sequential_calls_and_separators(dialect: str, separator: str) -> None:
    text = separator.join(block(dialect, f"f{k}", f'{{"k": {k}}}') for k in range(3))
    check(
        dialect,
        text,
        Expected("", None, [(f"f{k}", f'{{"k": {k}}}') for k in range(3)]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
@pytest.mark.parametrize("tail", ["\nafter", "\n\nafter", "\n", " after", "after <tool"])
def test_text_after_a_block_is_content(dialect: str, tail: str) -> None:
    text = block(dialect, "f", '{"a": 1}') + tail
    check(dialect, text, Expected(tail, None, [("f", '{"a": 1}')]), no_reasoning_request(dialect))


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_unknown_names_are_filtered_with_dense_indices(dialect: str) -> None:
    text = "\n".join(
        block(dialect, name, f'{{"n": "{name}"}}') for name in ["ghost", "f", "ghost", "h"]
    )
    request = Request(tools=tools("f", "h"), thinking=False if dialect == "qwen3" else None)
    check(dialect, text, Expected("", None, [("f", '{"n": "f"}'), ("h", '{"n": "h"}')]), request)


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_named_tool_choice_narrows_the_allowed_names(dialect: str) -> None:
    text = block(dialect, "f", "{}") + block(dialect, "h", "{}")
    request = Request(
        tools=tools("f", "h"),
        tool_choice={"type": "function", "function": {"name": "h"}},
        thinking=False if dialect == "qwen3" else None,
    )
    check(dialect, text, Expected("", None, [("h", "{}")]), request)


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_tool_choice_none_leaves_markup_as_content(dialect: str) -> None:
    text = block(dialect, "f", "{}")
    request = Request(tool_choice="none", thinking=False if dialect == "qwen3" else None)
    check(dialect, text, Expected(text, None, []), request)


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_unterminated_arguments_are_kept_as_streamed(dialect: str) -> None:
    tp = parts(dialect)
    text = f'Hi {tp.open_tag}{{"name": "f", "{tp.argument_field}": {{"city": "Bei'
    check(
        dialect,
        text,
        Expected("Hi ", None, [("f", '{"city": "Bei')]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
@pytest.mark.parametrize("payload", ['{"name": "f', '{"nam', "{", "", '{"arguments": {"a": 1}'])
def test_block_without_a_complete_name_never_becomes_a_call(dialect: str, payload: str) -> None:
    tp = parts(dialect)
    check(
        dialect,
        f"Hi {tp.open_tag}{payload}",
        Expected("Hi ", None, []),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", CLOSED_DIALECTS)
def test_malformed_arguments_end_at_the_close_tag(dialect: str) -> None:
    tp = parts(dialect)
    text = f'{tp.open_tag}{{"name": "f", "{tp.argument_field}": {{"x": truX{tp.close_tag}done'
    check(
        dialect, text, Expected("done", None, [("f", '{"x": truX')]), no_reasoning_request(dialect)
    )


@pytest.mark.parametrize("dialect", CLOSED_DIALECTS)
def test_close_tag_inside_a_string_is_not_a_boundary(dialect: str) -> None:
    tp = parts(dialect)
    arguments = f'{{"html": "a {tp.close_tag} b"}}'
    check(
        dialect,
        block(dialect, "f", arguments),
        Expected("", None, [("f", arguments)]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", JSON_DIALECTS)
def test_non_bmp_and_escapes_in_arguments(dialect: str) -> None:
    arguments = '{"s": "😀 𝄞 \\ud83d\\ude00 \\u00e9 é 中文 \\n\\t", "rtl": "שלום"}'
    check(
        dialect,
        block(dialect, "f", arguments),
        Expected("", None, [("f", arguments)]),
        no_reasoning_request(dialect),
    )


@pytest.mark.parametrize("dialect", ["qwen3", "qwen25", "internlm"])
def test_the_other_dialects_argument_field_is_ignored(dialect: str) -> None:
    tp = parts(dialect)
    other = "parameters" if tp.argument_field == "arguments" else "arguments"
    close = tp.close_tag or ""
    text = f'{tp.open_tag}{{"name": "f", "{other}": {{"a": 1}}}}{close}'
    check(dialect, text, Expected("", None, [("f", "{}")]), no_reasoning_request(dialect))


@pytest.mark.parametrize(
    ("fields", "arguments"),
    [
        ('"arguments": {"a": 1}', '{"a": 1}'),
        ('"arguments": {"a": 1}, "parameters": {"b": 2}', '{"a": 1}'),
        ('"parameters": {"b": 2}, "arguments": {"a": 1}', '{"b": 2}'),
    ],
)
def test_llama3_reads_arguments_under_either_field_name(fields: str, arguments: str) -> None:
    """Llama models also write the OpenAI field name, and vLLM and SGLang read it: the
    arguments are not dropped (before: ``{}``). The first arguments field wins."""
    text = f'<|python_tag|>{{"name": "f", {fields}}}'
    check("llama3_json", text, Expected("", None, [("f", arguments)]))


def test_internlm_open_tag_split_between_its_two_tokens() -> None:
    text = (
        '<|action_start|><|plugin|>\n{"name": "f", "parameters": {"city": "Berlin"}}'
        "<|action_end|>ok"
    )
    chunks = [
        "<|action_start|>",
        '<|plugin|>\n{"name": "f", "parameters": {"city": "Ber',
        'lin"}}',
        "<|action_end|>ok",
    ]
    messages = stream("internlm", chunks)
    assert messages[0].tool_calls and messages[0].tool_calls[0].name == "f"
    check("internlm", text, Expected("ok", None, [("f", '{"city": "Berlin"}')]))


def test_llama3_block_ends_with_its_json_object() -> None:
    text = '<|python_tag|>{"name": "f", "parameters": {"a": 1}} and then {"name": "g"}'
    check("llama3_json", text, Expected(' and then {"name": "g"}', None, [("f", '{"a": 1}')]))
