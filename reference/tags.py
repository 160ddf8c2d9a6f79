"""Token-boundary tag prefixes: how much of a decoded chunk's tail must wait for the next one.

Decoded chunks end at token boundaries, not at arbitrary characters. A protocol tag that a
tokenizer encodes as one token can never be cut; one encoded as ``</``, ``parameter``, ``>``
can leave only ``</`` or ``</parameter`` at the end of a chunk. Every dialect therefore
declares, per tag, the proper prefixes that can end a chunk (longest first), and the parsers
hold back exactly those and nothing more (seed 000, "与 token 边界对齐的标签前缀").
"""

from __future__ import annotations

from collections.abc import Iterable


def stable_prefix_end(text: str, prefixes: tuple[str, ...], start: int = 0) -> int:
    """End of the part of ``text[start:]`` that cannot be the beginning of a tag.

    ``prefixes`` are the proper tag prefixes that can end a chunk, longest first. When the
    text ends with one of them (lying at or after ``start``), that tail is held back;
    otherwise everything up to ``len(text)`` is stable.
    """
    end = len(text)
    for prefix in prefixes:
        if end - len(prefix) >= start and text.endswith(prefix):
            return end - len(prefix)
    return end


def longest_first(*groups: Iterable[str]) -> tuple[str, ...]:
    """Merge prefix tuples of several tags into one tuple, longest first, without repeats."""
    merged = {prefix for group in groups for prefix in group if prefix}
    return tuple(sorted(merged, key=lambda p: (-len(p), p)))


def find_first(text: str, tags: tuple[str, ...], start: int = 0) -> tuple[int, str | None]:
    """Earliest occurrence of any of ``tags`` in ``text[start:]``: ``(position, tag)``.

    Ties at one position go to the longer tag. Returns ``(-1, None)`` when none occurs.
    """
    best, best_tag = -1, None
    for tag in tags:
        position = text.find(tag, start) if best < 0 else text.find(tag, start, best + len(tag))
        if position >= 0 and (
            best < 0 or position < best or (position == best and len(tag) > len(best_tag or ""))
        ):
            best, best_tag = position, tag
    return best, best_tag
