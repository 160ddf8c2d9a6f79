"""Malformed model output, for the fuzzing and invalid-case work.

Each strategy takes a well-formed output (as token pieces or text, with the dialect's
markers) and breaks it in one way a real model or transport does: the stream ends early,
a marker is lost, repeated or moved, noise lands between tokens, or (ds2api) the tag shell
drifts. A parser must degrade in its declared way: never crash, hang or half-swallow text.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument


def truncations(pieces: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """The first k token pieces (0 ≤ k < n): a response cut off at any token (length limit)."""
    pieces = list(pieces)
    if not pieces:
        raise InvalidArgument("pieces must not be empty")
    return st.integers(min_value=0, max_value=len(pieces) - 1).map(lambda k: pieces[:k])


def _occurrences(text: str, markers: Sequence[str]) -> list[tuple[int, str]]:
    found = []
    for marker in markers:
        start = text.find(marker)
        while start >= 0:
            found.append((start, marker))
            start = text.find(marker, start + 1)
    return sorted(found)


def _require(text: str, markers: Sequence[str]) -> list[tuple[int, str]]:
    found = _occurrences(text, markers)
    if not found:
        raise InvalidArgument(f"none of the markers {list(markers)!r} occurs in the text")
    return found


def deleted_markers(text: str, markers: Sequence[str]) -> st.SearchStrategy[str]:
    """``text`` with one occurrence of one marker removed."""
    found = _require(text, markers)
    return st.sampled_from(found).map(lambda hit: text[: hit[0]] + text[hit[0] + len(hit[1]) :])


def duplicated_markers(text: str, markers: Sequence[str]) -> st.SearchStrategy[str]:
    """``text`` with one occurrence of one marker written twice."""
    found = _require(text, markers)
    return st.sampled_from(found).map(lambda hit: text[: hit[0]] + hit[1] + text[hit[0] :])


def reordered_markers(text: str, markers: Sequence[str]) -> st.SearchStrategy[str]:
    """``text`` with two marker occurrences swapped (a close tag before its open tag)."""
    found = _require(text, markers)
    if len(found) < 2:
        raise InvalidArgument("reordering needs at least two marker occurrences")

    def swap(pair: tuple[int, int]) -> str:
        (a, first), (b, second) = found[min(pair)], found[max(pair)]
        if a + len(first) > b:  # overlapping occurrences: nothing to swap
            return text
        return text[:a] + second + text[a + len(first) : b] + first + text[b + len(second) :]

    indices = st.integers(min_value=0, max_value=len(found) - 1)
    return st.tuples(indices, indices).filter(lambda pair: pair[0] != pair[1]).map(swap)


#: Noise a broken transport or a confused model inserts.
GARBAGE = ("\x00", "\ufffd", "}", "{", '"', "<", "</", ">", "\n", " ", "\\", "]]>", "<![CDATA[")


def garbage_between(pieces: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """``pieces`` with a piece of noise inserted at one token boundary."""
    pieces = list(pieces)
    return st.tuples(
        st.integers(min_value=0, max_value=len(pieces)),
        st.sampled_from(GARBAGE) | st.text(max_size=4),
    ).map(lambda hit: [*pieces[: hit[0]], hit[1], *pieces[hit[0] :]])


#: ds2api's tag-shell drift (research/ds2api-semantics.md): separators, fullwidth and CJK
#: brackets, ignorable characters, whitespace-like characters, repeated or trailing bits.
_SEPARATOR_DRIFT = ("|", "｜", "!", "！", "、", "␂", "※", "_", "-", ":")
_IGNORABLE = ("\u200b", "\ufeff", "\x02", "\u00ad")
_SPACE_DRIFT = (" ", "\u3000", "▁", "\u00a0")


def drift_shells(tag: str) -> st.SearchStrategy[str]:
    """``tag`` (e.g. ``<|DSML|tool_calls>``) with the shell drift ds2api tolerates.

    ``drift_shells('<|DSML|invoke name="f">')`` → ``'〈｜DSML｜invoke name="f">'``.
    """
    if not (tag.startswith("<") and tag.endswith(">")):
        raise InvalidArgument(f"tag={tag!r} must start with '<' and end with '>'")
    drifts = st.one_of(
        st.sampled_from(_SEPARATOR_DRIFT).map(lambda sep: tag.replace("|", sep).replace("｜", sep)),
        st.just("〈" + tag[1:-1] + "〉"),
        st.just("<" + tag),
        st.sampled_from(("|", "※")).map(lambda end: tag[:-1] + end + ">"),
        st.sampled_from(_SPACE_DRIFT).map(lambda space: tag[0] + space + tag[1:]),
        st.tuples(
            st.integers(min_value=1, max_value=len(tag) - 1), st.sampled_from(_IGNORABLE)
        ).map(lambda hit: tag[: hit[0]] + hit[1] + tag[hit[0] :]),
        st.just(tag.replace('"', "“", 1).replace('"', "”", 1)),
        st.just(tag.replace("|", "").replace("｜", "")),
    )
    return drifts.filter(lambda drifted: drifted != tag)
