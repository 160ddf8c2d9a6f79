"""Properties of the XML-like and DSML dialects on token soups: random mixes of their tags,
partial tags and value text, under random tag-aligned chunkings.

Whatever the model writes, well-formed or not: the streamed result equals the complete
parse, indices are dense, every call's first fragment carries its name, and arbitrary
character splits (outside the contract) never raise.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from toolconform.reference import ParsedResponse, Request, get_dialect
from toolconform.strategies.chunking import cut, tag_aligned_boundaries

from .support import stream

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


@st.composite
def soups(draw: st.DrawFn) -> tuple[str, str, Request]:
    dialect = draw(st.sampled_from(sorted(VOCABULARY)))
    pieces = draw(st.lists(st.sampled_from(VOCABULARY[dialect]), min_size=1, max_size=40))
    return dialect, "".join(pieces), draw(st.sampled_from(REQUESTS))


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
    assert ParsedResponse.from_deltas(messages) == complete
    assert [call.index for call in complete.tool_calls] == list(range(len(complete.tool_calls)))
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
