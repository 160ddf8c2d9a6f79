"""Properties of the ds2api sieve on generated text dense in tag-shell fragments.

For any text: the complete parse equals the stream under any chunking (random cuts, one
character per chunk), nothing raises, and when no call is found the text comes back byte
for byte (a block that is not a call is never half-swallowed).
"""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from toolconform.reference import ParsedResponse

from .support import stream

FRAGMENTS = (
    "<", ">", "/", "|", "DSML", "tool_calls", "invoke", "parameter", ' name="x"', " name=“y”",
    "`", "```", "~~~", "\n", " ", "<![CDATA[", "]]>", "<!--", "-->", "abc", '{"a":1}',
    "<item>", "</item>", "！", "、", "\u200b", "＜", "＞", "〈", "〉", '"', "'", "_", "-", "[",
    "]", "※", "\x02", "ο", "<|DSML|tool_calls>", "</|DSML|tool_calls>",
    '<|DSML|invoke name="f">', "</|DSML|invoke>", '<|DSML|parameter name="p">',
    "</|DSML|parameter>", "<tool_calls>", "</tool_calls>", '<invoke name="g">', "</invoke>",
    '<parameter name="q">', "</parameter>",
)  # fmt: skip

texts = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=40).map("".join)


def _result(chunks: list[str]) -> ParsedResponse:
    return ParsedResponse.from_deltas(stream("ds2api", chunks))


@settings(deadline=None)  # several parses per example: timing varies on a busy machine
@given(texts, st.data())
def test_the_result_does_not_depend_on_the_chunking(text: str, data: st.DataObject) -> None:
    whole = _result([text])
    cuts = data.draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=6))
    bounds = [0, *sorted(cut for cut in cuts if cut < len(text)), len(text)]
    assert _result([text[a:b] for a, b in pairwise(bounds)]) == whole
    assert _result(list(text)) == whole
    if not whole.tool_calls:
        assert whole.content == text
