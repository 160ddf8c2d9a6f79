"""The seed 000 scenario list for the ``mistral`` dialect, in both of its forms.

``[TOOL_CALLS][{"name", "arguments"}, …]`` (tokenizers v2–v7) and ``[TOOL_CALLS]NAME[ARGS]{…}``
(v11+, one block per call, optionally ``[CALL_ID]ID`` before ``[ARGS]``). There is no close
tag: a block ends with its JSON value and what follows is content.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect
from toolconform.strategies.chunking import cut, fixed_size, tag_aligned_boundaries

from ..support import Expected, check, stream, tools


def listed(*envelopes: str) -> str:
    return "[TOOL_CALLS][" + ", ".join(envelopes) + "]"


def envelope(name: str, arguments: str | None, *, name_first: bool = True) -> str:
    fields = [f'"name": "{name}"']
    if arguments is not None:
        fields.append(f'"arguments": {arguments}')
    if not name_first:
        fields.reverse()
    return "{" + ", ".join(fields) + "}"


def compact(name: str, arguments: str, call_id: str | None = None) -> str:
    identity = f"{name}[CALL_ID]{call_id}" if call_id is not None else name
    return f"[TOOL_CALLS]{identity}[ARGS]{arguments}"


def complete(text: str, request: Request | None = None):  # type: ignore[no-untyped-def]
    return get_dialect("mistral").new_parser(request).parse_complete(text)


# ----------------------------------------------------------------- JSON-array form


@pytest.mark.parametrize("between", ["", " ", "\n", " \n "])
@pytest.mark.parametrize("form", ["array", "compact"])
def test_a_repeated_marker_opens_one_block(between: str, form: str) -> None:
    """Mistral-7B-v0.3 repeats ``[TOOL_CALLS]`` at temperature 0: the repeat carries nothing.
    Before, the second marker ended an empty block and the call leaked into content."""
    payload = listed(envelope("add", '{"a": 1}'))[len("[TOOL_CALLS]") :]
    if form == "compact":
        payload = 'add[ARGS]{"a": 1}'
    text = "Sum: [TOOL_CALLS]" + between + "[TOOL_CALLS]" + payload
    check("mistral", text, Expected("Sum: ", None, [("add", '{"a": 1}')]))


def test_a_marker_repeated_three_times_and_cut_before_the_payload() -> None:
    check("mistral", "[TOOL_CALLS][TOOL_CALLS] [TOOL_CALLS]", Expected("", None, []))


def test_array_with_one_call_after_content() -> None:
    arguments = '{"city": "Paris", "unit": "c"}'
    text = "Let me check." + listed(envelope("get_weather", arguments))
    check("mistral", text, Expected("Let me check.", None, [("get_weather", arguments)]))


@pytest.mark.parametrize("separator", [", ", ",", ",\n  "])
def test_array_with_several_calls(separator: str) -> None:
    envelopes = [envelope(f"f{k}", f'{{"k": {k}}}') for k in range(3)]
    text = "[TOOL_CALLS] [" + separator.join(envelopes) + "]"
    check("mistral", text, Expected("", None, [(f"f{k}", f'{{"k": {k}}}') for k in range(3)]))


@pytest.mark.parametrize("name_first", [True, False])
def test_array_name_before_and_after_arguments(name_first: bool) -> None:
    arguments = '{"q": "a \\"quoted\\" \\\\ value", "n": [1, 2.5e3, null, true]}'
    text = listed(envelope("search", arguments, name_first=name_first))
    check("mistral", text, Expected("", None, [("search", arguments)]))


def test_array_identity_first_when_arguments_precede_the_name() -> None:
    text = listed(envelope("search", '{"q": "x"}', name_first=False))
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect("mistral").protocol_tags()))
    fragments = [f for m in stream("mistral", pieces) for f in m.tool_calls or ()]
    assert fragments[0].name == "search" and fragments[0].id and fragments[0].type == "function"
    assert all(f.name is None and f.id is None for f in fragments[1:])
    assert "".join(f.arguments or "" for f in fragments) == '{"q": "x"}'


def test_array_id_field_is_skipped() -> None:
    text = '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}, "id": "abcDEF123"}]'
    check("mistral", text, Expected("", None, [("f", '{"a": 1}')]))
    assert complete(text).calls[0].id == "call_0"


@pytest.mark.parametrize("arguments", [None, "{}", "{ }"])
def test_array_call_without_arguments(arguments: str | None) -> None:
    text = listed(envelope("now", arguments))
    check("mistral", text, Expected("", None, [("now", "{}" if arguments is None else arguments)]))


def test_array_duplicate_keys_are_kept() -> None:
    arguments = '{"b": 1, "a": 2, "b": 3}'
    check("mistral", listed(envelope("f", arguments)), Expected("", None, [("f", arguments)]))


def test_empty_array_has_no_calls() -> None:
    check("mistral", "[TOOL_CALLS][] ok", Expected(" ok", None, []))


@pytest.mark.parametrize("tail", ["\nafter", " after", "\n", "after [TOOL"])
def test_text_after_the_array_is_content(tail: str) -> None:
    text = listed(envelope("f", '{"a": 1}')) + tail
    check("mistral", text, Expected(tail, None, [("f", '{"a": 1}')]))


def test_array_unterminated_arguments_are_kept_as_streamed() -> None:
    text = 'Hi [TOOL_CALLS][{"name": "f", "arguments": {"city": "Par'
    check("mistral", text, Expected("Hi ", None, [("f", '{"city": "Par')]))


def test_array_cut_after_a_complete_call_keeps_it() -> None:
    text = '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}, {"name": "g'
    check("mistral", text, Expected("", None, [("f", '{"a": 1}')]))


# ----------------------------------------------------------------- NAME[ARGS]{…} form


def test_compact_call_after_content() -> None:
    arguments = '{"city": "Paris"}'
    text = "Sure. " + compact("get_weather", arguments)
    check("mistral", text, Expected("Sure. ", None, [("get_weather", arguments)]))


@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_compact_several_calls(separator: str) -> None:
    text = separator.join(compact(f"f{k}", f'{{"k": {k}}}') for k in range(3))
    check("mistral", text, Expected("", None, [(f"f{k}", f'{{"k": {k}}}') for k in range(3)]))


def test_compact_call_id_is_kept() -> None:
    text = compact("f", '{"a": 1}', "abcDEF123") + compact("g", "{}")
    check("mistral", text, Expected("", None, [("f", '{"a": 1}'), ("g", "{}")]))
    assert [c.id for c in complete(text).calls] == ["abcDEF123", "call_1"]


def test_compact_identity_first() -> None:
    text = compact("search", '{"q": "x"}', "abcDEF123")
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect("mistral").protocol_tags()))
    fragments = [f for m in stream("mistral", pieces) for f in m.tool_calls or ()]
    assert (fragments[0].id, fragments[0].name, fragments[0].arguments) == (
        "abcDEF123",
        "search",
        None,
    )
    assert "".join(f.arguments or "" for f in fragments) == '{"q": "x"}'


def test_compact_arguments_without_args_marker_start_at_their_brace() -> None:
    check("mistral", '[TOOL_CALLS]f{"a": 1}', Expected("", None, [("f", '{"a": 1}')]))


@pytest.mark.parametrize("tail", ["\nafter", " after", "\n", "after [ARG"])
def test_text_after_a_compact_call_is_content(tail: str) -> None:
    text = compact("f", '{"a": 1}') + tail
    check("mistral", text, Expected(tail, None, [("f", '{"a": 1}')]))


def test_compact_duplicate_keys_and_unknown_names() -> None:
    text = compact("ghost", '{"a": 1}') + compact("f", '{"b": 1, "b": 2}') + compact("h", "{}")
    check(
        "mistral",
        text,
        Expected("", None, [("f", '{"b": 1, "b": 2}'), ("h", "{}")]),
        Request(tools=tools("f", "h")),
    )


def test_array_unknown_names_are_filtered_with_dense_indices() -> None:
    text = listed(*(envelope(name, f'{{"n": "{name}"}}') for name in ["ghost", "f", "ghost", "h"]))
    request = Request(tools=tools("f", "h"))
    check("mistral", text, Expected("", None, [("f", '{"n": "f"}'), ("h", '{"n": "h"}')]), request)


def test_compact_end_of_input() -> None:
    check("mistral", "[TOOL_CALLS]f[ARGS]", Expected("", None, [("f", "{}")]))
    check("mistral", '[TOOL_CALLS]f[ARGS]{"a": "par', Expected("", None, [("f", '{"a": "par')]))
    # The name is only known once [ARGS] ends it: a cut name invents nothing.
    check("mistral", "Hi [TOOL_CALLS]get_wea", Expected("Hi ", None, []))
    check("mistral", "[TOOL_CALLS]f[CALL_ID]abc", Expected("", None, []))


def test_compact_call_without_arguments_before_the_next_block_is_skipped() -> None:
    text = "[TOOL_CALLS]f[TOOL_CALLS]g[ARGS]{}"
    check("mistral", text, Expected("", None, [("g", "{}")]))


def test_non_bmp_and_escapes_in_arguments() -> None:
    arguments = '{"s": "😀 𝄞 \\ud83d\\ude00 \\u00e9 é 中文 \\n\\t", "rtl": "שלום"}'
    check("mistral", compact("f", arguments), Expected("", None, [("f", arguments)]))
    check("mistral", listed(envelope("f", arguments)), Expected("", None, [("f", arguments)]))


def test_tool_choice_none_leaves_markup_as_content() -> None:
    text = compact("f", "{}")
    check("mistral", text, Expected(text, None, []), Request(tool_choice="none"))


def test_args_marker_cut_at_its_declared_prefixes() -> None:
    for prefix in ("[", "[AR", "[ARGS"):
        chunks = ["[TOOL_CALLS]get_weather" + prefix, "[ARGS]"[len(prefix) :] + '{"a": 1}']
        fragments = [f for m in stream("mistral", chunks) for f in m.tool_calls or ()]
        assert fragments[0].name == "get_weather"
        assert "".join(f.arguments or "" for f in fragments) == '{"a": 1}'


def test_arguments_stream_progressively() -> None:
    value = "x" * 40
    text = compact("f", f'{{"s": "{value}"}}')
    boundaries = tag_aligned_boundaries(text, get_dialect("mistral").protocol_tags())
    messages = stream("mistral", fixed_size(text, 5, boundaries))
    pieces = [f.arguments for m in messages for f in m.tool_calls or () if f.arguments]
    assert len(pieces) >= len(value) // 5
