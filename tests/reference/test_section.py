"""The seed 000 scenario list for the section-token dialects.

Dialects: deepseek_v3 (``function<｜tool▁sep｜>NAME`` and a fenced JSON value), deepseek_v31
(``NAME<｜tool▁sep｜>JSON``) and kimi_k2 (``functions.NAME:IDX`` headers kept as call ids).

Each ``check`` compares the complete parse with the expected result and the streamed
reconstruction with the complete parse under whole, one-piece-per-chunk, every two-way split
at an allowed boundary, and random multi-piece groupings.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect
from toolconform.reference.section_tool_parser import SectionToolParser
from toolconform.strategies.chunking import cut, fixed_size, tag_aligned_boundaries

from ..support import Expected, check, stream, tools

SECTION_DIALECTS = ["deepseek_v3", "deepseek_v31", "kimi_k2"]


def parts(dialect: str) -> type[SectionToolParser]:
    tool_parser = get_dialect(dialect).tool_parser
    assert tool_parser is not None and issubclass(tool_parser, SectionToolParser)
    return tool_parser


def call(dialect: str, name: str, arguments: str, index: int = 0) -> str:
    """One call in the layout of ``dialect`` (``index`` is Kimi's per-response counter)."""
    tp = parts(dialect)
    if dialect == "deepseek_v3":
        body = f"function{tp.call_separator}{name}\n```json\n{arguments}\n```"
    elif dialect == "kimi_k2":
        body = f"functions.{name}:{index}{tp.call_separator}{arguments}"
    else:
        body = f"{name}{tp.call_separator}{arguments}"
    return f"{tp.call_open}{body}{tp.call_close}"


def section(dialect: str, *calls: str, separator: str = "") -> str:
    tp = parts(dialect)
    return f"{tp.open_tag}{separator.join(calls)}{tp.close_tag}"


def plain(dialect: str, **fields: object) -> Request:
    """A request whose output starts as content (Kimi K2 starts thinking by default)."""
    return Request(thinking=False if dialect == "kimi_k2" else None, **fields)  # type: ignore[arg-type]


def kimi_id(name: str, index: int) -> str:
    return f"functions.{name}:{index}"


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_single_call_after_content(dialect: str) -> None:
    arguments = '{"city": "Beijing", "unit": "c"}'
    text = "Let me check. " + section(dialect, call(dialect, "get_weather", arguments))
    check(
        dialect,
        text,
        Expected("Let me check. ", None, [("get_weather", arguments)]),
        plain(dialect),
    )


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_several_calls_in_one_section(dialect: str, separator: str) -> None:
    calls = [call(dialect, f"f{k}", f'{{"k": {k}}}', k) for k in range(3)]
    text = section(dialect, *calls, separator=separator)
    expected = Expected("", None, [(f"f{k}", f'{{"k": {k}}}') for k in range(3)])
    check(dialect, text, expected, plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_several_sections_in_one_chunk(dialect: str, separator: str) -> None:
    first = section(dialect, call(dialect, "f", '{"a": 1}', 0))
    second = section(dialect, call(dialect, "g", '{"b": 2}', 1))
    text = f"before {first}{separator}{second} after"
    expected = Expected("before  after", None, [("f", '{"a": 1}'), ("g", '{"b": 2}')])
    check(dialect, text, expected, plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_the_first_fragment_carries_the_identity(dialect: str) -> None:
    text = section(dialect, call(dialect, "search", '{"q": "x"}', 3))
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    messages = stream(dialect, pieces, plain(dialect))
    fragments = [f for m in messages for f in m.tool_calls or ()]
    first = fragments[0]
    assert first.name == "search" and first.type == "function" and first.arguments is None
    assert first.id == (kimi_id("search", 3) if dialect == "kimi_k2" else "call_0")
    assert all(f.name is None and f.id is None for f in fragments[1:])
    assert "".join(f.arguments or "" for f in fragments) == '{"q": "x"}'


def test_kimi_call_ids_are_the_headers() -> None:
    text = section(
        "kimi_k2",
        call("kimi_k2", "f", "{}", 0),
        call("kimi_k2", "g", "{}", 1),
        separator="\n",
    )
    result = get_dialect("kimi_k2").new_parser(plain("kimi_k2")).parse_complete(text)
    assert [(c.id, c.name) for c in result.calls] == [
        (kimi_id("f", 0), "f"),
        (kimi_id("g", 1), "g"),
    ]


@pytest.mark.parametrize(
    "header, name",
    [("functions.get_weather:12", "get_weather"), ("get_weather:0", "get_weather"), ("f", "f")],
)
def test_kimi_name_is_the_header_without_prefix_and_counter(header: str, name: str) -> None:
    tp = parts("kimi_k2")
    text = (
        f"{tp.open_tag}{tp.call_open}{header}{tp.call_separator}{{}}{tp.call_close}{tp.close_tag}"
    )
    result = get_dialect("kimi_k2").new_parser(plain("kimi_k2")).parse_complete(text)
    assert [(c.id, c.name) for c in result.calls] == [(header, name)]


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
@pytest.mark.parametrize("arguments", ["{}", "{ }"])
def test_call_without_arguments(dialect: str, arguments: str) -> None:
    text = section(dialect, call(dialect, "now", arguments))
    check(dialect, text, Expected("", None, [("now", arguments)]), plain(dialect))


@pytest.mark.parametrize("dialect", ["deepseek_v31", "kimi_k2"])
def test_empty_arguments_become_an_empty_object(dialect: str) -> None:
    text = section(dialect, call(dialect, "now", ""))
    check(dialect, text, Expected("", None, [("now", "{}")]), plain(dialect))


def test_deepseek_v3_call_without_a_fence_or_arguments() -> None:
    tp = parts("deepseek_v3")
    unfenced = f'{tp.call_open}function{tp.call_separator}f\n{{"a": 1}}{tp.call_close}'
    bare = f"{tp.call_open}function{tp.call_separator}now{tp.call_close}"
    text = section("deepseek_v3", unfenced, bare)
    check("deepseek_v3", text, Expected("", None, [("f", '{"a": 1}'), ("now", "{}")]))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_duplicate_keys_and_order_are_kept(dialect: str) -> None:
    arguments = '{"b": 1, "a": 2, "b": 3}'
    check(
        dialect,
        section(dialect, call(dialect, "f", arguments)),
        Expected("", None, [("f", arguments)]),
        plain(dialect),
    )


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_unknown_names_are_filtered_with_dense_indices(dialect: str) -> None:
    names = ["ghost", "f", "ghost", "h"]
    calls = [call(dialect, name, f'{{"n": "{name}"}}', k) for k, name in enumerate(names)]
    text = section(dialect, *calls)
    request = plain(dialect, tools=tools("f", "h"))
    check(dialect, text, Expected("", None, [("f", '{"n": "f"}'), ("h", '{"n": "h"}')]), request)
    result = get_dialect(dialect).new_parser(request).parse_complete(text)
    assert [c.index for c in result.calls] == [0, 1]
    if dialect == "kimi_k2":
        assert [c.id for c in result.calls] == [kimi_id("f", 1), kimi_id("h", 3)]


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_named_tool_choice_narrows_the_allowed_names(dialect: str) -> None:
    text = section(dialect, call(dialect, "f", "{}", 0), call(dialect, "h", "{}", 1))
    request = plain(
        dialect, tools=tools("f", "h"), tool_choice={"type": "function", "function": {"name": "h"}}
    )
    check(dialect, text, Expected("", None, [("h", "{}")]), request)


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_tool_choice_none_leaves_markup_as_content(dialect: str) -> None:
    text = section(dialect, call(dialect, "f", "{}"))
    check(dialect, text, Expected(text, None, []), plain(dialect, tool_choice="none"))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
@pytest.mark.parametrize("tail", ["\nafter", "\n\nafter", "\n", " after", "after <｜tool"])
def test_text_after_a_section_is_content(dialect: str, tail: str) -> None:
    text = section(dialect, call(dialect, "f", '{"a": 1}')) + tail
    check(dialect, text, Expected(tail, None, [("f", '{"a": 1}')]), plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_unterminated_arguments_are_kept_as_streamed(dialect: str) -> None:
    whole = call(dialect, "f", '{"city": "Bei')
    text = "Hi " + parts(dialect).open_tag + whole[: whole.index('"Bei') + 4]
    check(dialect, text, Expected("Hi ", None, [("f", '{"city": "Bei')]), plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_end_of_input_after_the_separator_closes_the_call(dialect: str) -> None:
    tp = parts(dialect)
    header = {"deepseek_v3": "function", "kimi_k2": "functions.f:0"}.get(dialect, "f")
    named = f"{tp.call_separator}f\n" if dialect == "deepseek_v3" else tp.call_separator
    text = f"{tp.open_tag}{tp.call_open}{header}{named}"
    check(dialect, text, Expected("", None, [("f", "{}")]), plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_a_call_without_a_complete_name_never_becomes_a_call(dialect: str) -> None:
    tp = parts(dialect)
    cut = {
        "deepseek_v3": f"{tp.call_open}function{tp.call_separator}get_wea",
        "deepseek_v31": f"{tp.call_open}get_wea",
        "kimi_k2": f"{tp.call_open}functions.get_wea",
    }[dialect]
    check(dialect, f"Hi {tp.open_tag}{cut}", Expected("Hi ", None, []), plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_a_call_without_a_separator_is_skipped(dialect: str) -> None:
    tp = parts(dialect)
    broken = f"{tp.call_open}f{tp.call_close}"
    interrupted = f"{tp.call_open}ghost"
    text = section(dialect, broken, interrupted + call(dialect, "g", '{"b": 2}', 1)) + "ok"
    check(dialect, text, Expected("ok", None, [("g", '{"b": 2}')]), plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_malformed_arguments_end_at_the_call_close(dialect: str) -> None:
    tp = parts(dialect)
    prefix = {
        "deepseek_v3": f"function{tp.call_separator}f\n",
        "kimi_k2": f"functions.f:0{tp.call_separator}",
    }.get(dialect, f"f{tp.call_separator}")
    text = f'{tp.open_tag}{tp.call_open}{prefix}{{"x": truX{tp.call_close}{tp.close_tag}done'
    check(dialect, text, Expected("done", None, [("f", '{"x": truX')]), plain(dialect))


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_a_missing_call_close_ends_at_the_next_call_or_the_section_close(dialect: str) -> None:
    tp = parts(dialect)
    first = call(dialect, "f", '{"a": 1}', 0).removesuffix(tp.call_close)
    second = call(dialect, "g", '{"b": 2}', 1).removesuffix(tp.call_close)
    text = f"{tp.open_tag}{first}{second}{tp.close_tag}after"
    check(
        dialect,
        text,
        Expected("after", None, [("f", '{"a": 1}'), ("g", '{"b": 2}')]),
        plain(dialect),
    )


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_markers_inside_a_string_are_not_boundaries(dialect: str) -> None:
    tp = parts(dialect)
    arguments = f'{{"html": "a {tp.call_close}{tp.close_tag}{tp.call_open} b"}}'
    check(
        dialect,
        section(dialect, call(dialect, "f", arguments)),
        Expected("", None, [("f", arguments)]),
        plain(dialect),
    )


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_non_bmp_and_escapes_in_arguments(dialect: str) -> None:
    arguments = '{"s": "😀 𝄞 \\ud83d\\ude00 \\u00e9 é 中文 \\n\\t \\" \\\\", "rtl": "שלום"}'
    check(
        dialect,
        section(dialect, call(dialect, "f", arguments)),
        Expected("", None, [("f", arguments)]),
        plain(dialect),
    )


@pytest.mark.parametrize("dialect", SECTION_DIALECTS)
def test_arguments_stream_progressively(dialect: str) -> None:
    value = "x" * 40
    text = section(dialect, call(dialect, "f", f'{{"s": "{value}"}}'))
    boundaries = tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags())
    chunks = fixed_size(text, 7, boundaries)
    messages = stream(dialect, chunks, plain(dialect))
    argument_pieces = [f.arguments for m in messages for f in m.tool_calls or () if f.arguments]
    assert len(argument_pieces) >= len(value) // 7


# ----------------------------------------------------------------- reasoning


def test_deepseek_v3_has_no_reasoning_channel() -> None:
    text = "<think>x</think>" + section("deepseek_v3", call("deepseek_v3", "f", "{}"))
    check(
        "deepseek_v3",
        text,
        Expected("<think>x</think>", None, [("f", "{}")]),
        Request(thinking=True),
    )


def test_deepseek_v31_thinks_only_when_asked() -> None:
    block = section("deepseek_v31", call("deepseek_v31", "f", "{}"))
    text = "plan</think>Sure." + block
    check("deepseek_v31", text, Expected("Sure.", "plan", [("f", "{}")]), Request(thinking=True))
    check("deepseek_v31", text, Expected("plan</think>Sure.", None, [("f", "{}")]), Request())


@pytest.mark.parametrize(
    "dialect, request_", [("deepseek_v31", Request(thinking=True)), ("kimi_k2", Request())]
)
def test_reasoning_content_and_tool_in_one_chunk(dialect: str, request_: Request) -> None:
    block = section(dialect, call(dialect, "f", '{"a": 1}'))
    text = "<think>r</think>c" + block
    check(dialect, text, Expected("c", "r", [("f", '{"a": 1}')]), request_)


def test_deepseek_v31_tool_inside_reasoning_resumes_reasoning() -> None:
    block = section("deepseek_v31", call("deepseek_v31", "f", "{}"))
    request = Request(thinking=True)
    check("deepseek_v31", f"a{block}b</think>c", Expected("c", "ab", [("f", "{}")]), request)
    filtered = Request(thinking=True, tools=tools("g"))
    check("deepseek_v31", f"a{block}b</think>c", Expected("c", "ab", []), filtered)
    # No </think>: everything after the block is still reasoning.
    check("deepseek_v31", f"a{block}b", Expected("", "ab", [("f", "{}")]), request)


def test_kimi_tool_section_ends_reasoning() -> None:
    block = section("kimi_k2", call("kimi_k2", "f", "{}"))
    thinking = Request(thinking=True)
    check("kimi_k2", f"<think>a{block}b", Expected("b", "a", [("f", "{}")]))
    check("kimi_k2", f"a{block}b", Expected("b", "a", [("f", "{}")]), thinking)
    check("kimi_k2", f"a{block}b", Expected("b", "a", []), Request(thinking=True, tools=tools("g")))
    # Thinking off means no reasoning channel at all.
    check("kimi_k2", f"a{block}b", Expected("ab", None, [("f", "{}")]), Request(thinking=False))


def test_kimi_k2_instruct_output_starts_as_content() -> None:
    """Kimi K2 (Instruct) does not think, and vLLM and SGLang serve it without a reasoning
    parser: without the thinking flag the text before a section is content (before: it was
    reasoning, and content came back empty). ``thinking: true`` selects the thinking
    variants (K2 Thinking, K2.5), whose template opens ``<think>``."""
    block = section("kimi_k2", call("kimi_k2", "f", "{}"))
    check("kimi_k2", f"Checking both.{block}", Expected("Checking both.", None, [("f", "{}")]))
    check("kimi_k2", f"plan</think>ok{block}", Expected("plan</think>ok", None, [("f", "{}")]))
    check(
        "kimi_k2",
        f"plan</think>ok{block}",
        Expected("ok", "plan", [("f", "{}")]),
        Request(thinking=True),
    )


def test_kimi_missing_think_close_keeps_reasoning() -> None:
    check("kimi_k2", "<think>still thinking", Expected("", "still thinking", []))


# ----------------------------------------------------------------- tags


def test_deepseek_v3_fence_may_be_cut_after_its_declared_prefixes() -> None:
    tp = parts("deepseek_v3")
    head = f"{tp.open_tag}{tp.call_open}function{tp.call_separator}f\n"
    for prefix in ("`", "```", "```json"):
        rest = "```json\n"[len(prefix) :]
        chunks = [head + prefix, rest + '{"a": 1}', f"\n```{tp.call_close}{tp.close_tag}"]
        messages = stream("deepseek_v3", chunks)
        fragments = [f for m in messages for f in m.tool_calls or ()]
        assert fragments[0].name == "f"
        assert "".join(f.arguments or "" for f in fragments) == '{"a": 1}'
