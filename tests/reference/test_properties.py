"""Properties of the XML-like and DSML dialects on token soups: calls in each dialect's
layout among stray tags and text, with about one token in ten dropped, under random
tag-aligned chunkings.

Whatever the model writes, well-formed or not: the streamed result equals the complete
parse, indices are dense, every call's first fragment carries its name, and arbitrary
character splits (outside the contract) never raise.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolconform.reference import FinalResult, Request, get_dialect
from toolconform.strategies.chunking import cut, tag_aligned_boundaries

from ..support import stream

D = "｜DSML｜"
_QWEN = ["<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>"]
_GLM = ["<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"]
_MINIMAX = [
    "<minimax:tool_call>",
    "</minimax:tool_call>",
    "<invoke name=",
    "</invoke>",
    "<parameter name=",
    "</parameter>",
    "'a'>",
]
_DSML = [
    f"<{D}invoke name=",
    f"</{D}invoke>",
    f"<{D}parameter name=",
    f"</{D}parameter>",
    ' string="true">',
    ' string="false">',
    '"a"',
]
_TEXT = ["f", "a", "x y", ">", '"f">', "\n", "\n\n", " ", "<", "</", '"', "{", "12", "😀"]
_THINK = ["<think>", "</think>"]
VOCABULARY = {
    "qwen3_coder": _QWEN + _TEXT,
    "qwen35": _QWEN + _THINK + _TEXT,
    "glm45": _GLM + _THINK + _TEXT,
    "glm47": _GLM + _THINK + _TEXT,
    "minimax_m2": _MINIMAX + _THINK + _TEXT,
    "deepseek_v32": [f"\n\n<{D}function_calls>", f"</{D}function_calls>", *_DSML, *_THINK, *_TEXT],
    "deepseek_v4": [f"\n\n<{D}tool_calls>", f"</{D}tool_calls>", *_DSML, *_THINK, *_TEXT],
}
TYPED_TOOL = {
    "type": "function",
    "function": {
        "name": "f",
        "parameters": {
            "properties": {
                "a": {"type": "integer"},
                "x y": {"anyOf": [{"type": "object"}, {"type": "null"}]},
            }
        },
    },
}
REQUESTS = [Request(), Request(tools=[TYPED_TOOL]), Request(thinking=False), Request(thinking=True)]


_VALUE_PIECES = ["x", "x y", "12", "\n", "\r\n", '"q"', "<", "</", "😀", '{"k": [1]}', " ", "null"]


def _call_tokens(dialect: str, name: str, arguments: list[tuple[str, str, bool]]) -> list[str]:
    """One call in the dialect's layout, as a list of tags and text pieces."""
    tokens: list[str] = []
    if dialect in ("qwen3_coder", "qwen35"):
        tokens += ["<function=", name, ">", "\n"]
        for key, value, _ in arguments:
            tokens += ["<parameter=", key, ">", "\n", value, "\n", "</parameter>", "\n"]
        return [*tokens, "</function>", "\n"]
    if dialect in ("glm45", "glm47"):
        newline = ["\n"] if dialect == "glm45" else []
        tokens += [name, *newline]
        for key, value, _ in arguments:
            tokens += ["<arg_key>", key, "</arg_key>", *newline, "<arg_value>", value]
            tokens += ["</arg_value>", *newline]
        return tokens
    if dialect == "minimax_m2":
        tokens += ["<invoke name=", f'"{name}"', ">", "\n"]
        for key, value, _ in arguments:
            tokens += ["<parameter name=", f'"{key}"', ">", value, "</parameter>", "\n"]
        return [*tokens, "</invoke>", "\n"]
    tokens += [f"<{D}invoke name=", f'"{name}"', ">", "\n"]
    for key, value, is_string in arguments:
        flag = "true" if is_string else "false"
        tokens += [f"<{D}parameter name=", f'"{key}"', f' string="{flag}">', value]
        tokens += [f"</{D}parameter>", "\n"]
    return [*tokens, f"</{D}invoke>", "\n"]


def _block_tokens(dialect: str, calls: list[list[str]]) -> list[str]:
    tool = get_dialect(dialect).tool_parser
    assert tool is not None and tool.close_tag is not None
    if dialect in ("glm45", "glm47"):  # one call per block
        return [token for call in calls for token in (tool.open_tag, *call, tool.close_tag)]
    return [tool.open_tag, "\n", *(token for call in calls for token in call), tool.close_tag]


@st.composite
def soups(draw: st.DrawFn) -> tuple[str, str, Request]:
    """Mostly well-formed outputs: blocks of calls among stray pieces, some tokens dropped."""
    dialect = draw(st.sampled_from(sorted(VOCABULARY)))
    value = st.lists(st.sampled_from(_VALUE_PIECES), max_size=3).map("".join)
    argument = st.tuples(st.sampled_from(["a", "x y", "b"]), value, st.booleans())
    call = st.builds(
        lambda name, arguments: _call_tokens(dialect, name, arguments),
        st.sampled_from(["f", "g"]),
        st.lists(argument, max_size=3),
    )
    stray = st.lists(st.sampled_from(VOCABULARY[dialect]), max_size=3)
    segments = draw(
        st.lists(
            st.one_of(
                stray,
                st.lists(call, min_size=1, max_size=2).map(
                    lambda calls: _block_tokens(dialect, calls)
                ),
            ),
            min_size=1,
            max_size=4,
        )
    )
    tokens = [token for segment in segments for token in segment]
    # Drop about one token in ten: missing tags, names and values.
    kept_or_dropped = st.integers(0, 9).map(bool)
    kept = draw(st.lists(kept_or_dropped, min_size=len(tokens), max_size=len(tokens)))
    text = "".join(token for token, keep in zip(tokens, kept, strict=True) if keep)
    return dialect, text, draw(st.sampled_from(REQUESTS))


@settings(max_examples=300, deadline=None)
@given(soup=soups(), data=st.data())
def test_streamed_equals_complete_on_token_soups(
    soup: tuple[str, str, Request], data: st.DataObject
) -> None:
    dialect, text, request = soup
    complete = get_dialect(dialect).new_parser(request).parse_complete(text)
    boundaries = tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags())
    cuts = data.draw(st.lists(st.sampled_from(boundaries), unique=True)) if boundaries else []
    messages = stream(dialect, cut(text, sorted(cuts)), request)
    assert FinalResult.from_deltas(messages) == complete
    assert [call.index for call in complete.calls] == list(range(len(complete.calls)))
    seen: set[int] = set()
    for fragment in (f for m in messages for f in m.tool_calls or ()):
        if fragment.index not in seen:
            assert fragment.name and fragment.id and fragment.type == "function"
            seen.add(fragment.index)
        else:
            assert fragment.name is None and fragment.id is None


@settings(max_examples=100, deadline=None)
@given(soup=soups())
def test_arbitrary_character_splits_never_raise(soup: tuple[str, str, Request]) -> None:
    dialect, text, request = soup
    stream(dialect, list(text), request)
