"""Chunkings: where a model output may be cut into engine chunks, the cuts themselves, and
Hypothesis strategies over them.

A *chunking* is a list of strings whose concatenation is the output. A serving engine cuts at
token boundaries: *pieces* are the per-token text deltas it streams
(``tokenizers.token_chunks``, empty ones included), and a chunking merges consecutive pieces —
one token per chunk, all of them at once, or groups of several tokens as speculative decoding
and multi-token steps deliver them. Where no faithful tokenizer exists, the tag-aligned
model stands in: inside a protocol tag only after one of the tag's declared proper prefixes
(an atomic tag is never cut), any character boundary between tags. Character and byte
splits go further than any tokenizer and belong to the robustness tier (seed 000 lets
parsers assume token-aligned tags).

This is the one home of these primitives: ``harness.chunkings`` builds certify's runs (with
token ids, tiers and budgets) from them, and the strategies below are thin wrappers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import compress

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument


def tag_aligned_boundaries(text: str, protocol_tags: Mapping[str, Sequence[str]]) -> list[int]:
    """Inner positions (1 … len-1) where ``text`` may be cut without splitting a tag wrongly.

    Every occurrence of a tag forbids the cuts inside it, except right after one of its
    declared prefixes. Overlapping or adjacent occurrences are all respected.
    """
    allowed = bytearray(b"\x01") * (len(text) + 1)
    for tag, prefixes in protocol_tags.items():
        if len(tag) < 2:
            continue
        keep = {len(prefix) for prefix in prefixes if tag.startswith(prefix)}
        start = text.find(tag)
        while start >= 0:
            for offset in range(1, len(tag)):
                if offset not in keep:
                    allowed[start + offset] = 0
            start = text.find(tag, start + 1)
    return list(compress(range(1, len(text)), allowed[1 : len(text)]))


def cut(text: str, boundaries: Sequence[int]) -> list[str]:
    """Cut ``text`` at the given increasing inner positions."""
    chunks: list[str] = []
    previous = 0
    for boundary in boundaries:
        chunks.append(text[previous:boundary])
        previous = boundary
    chunks.append(text[previous:])
    return chunks


def fixed_size(text: str, size: int, boundaries: Sequence[int] | None = None) -> list[str]:
    """Chunks of about ``size`` characters, cut only at allowed boundaries when given.

    With boundaries, each chunk ends at the first allowed boundary at least ``size``
    characters after the previous cut, so protocol tags stay whole.
    """
    if size < 1:
        raise ValueError(f"size={size} must be at least 1")
    if boundaries is None:
        return [text[i : i + size] for i in range(0, len(text), size)] or [""]
    cuts: list[int] = []
    last = 0
    for boundary in boundaries:
        if boundary - last >= size:
            cuts.append(boundary)
            last = boundary
    return cut(text, cuts)


def merge(pieces: Sequence[str], cuts: Sequence[int]) -> list[str]:
    """Join ``pieces`` into chunks, cutting before each piece index in ``cuts`` (increasing)."""
    bounds = [0, *cuts, len(pieces)]
    return ["".join(pieces[a:b]) for a, b in itertools.pairwise(bounds)]


def two_way(pieces: Sequence[str]) -> Iterator[list[str]]:
    """Every split into two chunks at a token boundary, in order (deterministic, for CI)."""
    for cut in range(1, len(pieces)):
        yield merge(pieces, [cut])


def k_token_groups(pieces: Sequence[str], k: int) -> list[str]:
    """Chunks of ``k`` consecutive tokens (the last may be shorter)."""
    if k < 1:
        raise InvalidArgument(f"k={k} must be at least 1")
    return merge(pieces, range(k, len(pieces), k))


def group_sizes(count: int, rng: random.Random, max_group: int = 4) -> list[int]:
    """How many of ``count`` consecutive pieces each chunk of a random grouping holds: sizes
    of 1 … ``max_group`` drawn from ``rng`` (the last one cut to what is left). The one
    drawing of every random grouping — certify's ``groups`` family, the round trips' —, so a
    seed names the same grouping everywhere."""
    sizes: list[int] = []
    while count > 0:
        size = min(count, rng.randint(1, max_group))
        sizes.append(size)
        count -= size
    return sizes


def random_groups(pieces: Sequence[str], *, seed: int, max_group: int = 4) -> list[str]:
    """Seeded random groups of 1 … ``max_group`` consecutive tokens (speculative decoding,
    multi-token steps: the same pieces, merged)."""
    if max_group < 1:
        raise InvalidArgument(f"max_group={max_group} must be at least 1")
    sizes = group_sizes(len(pieces), random.Random(seed), max_group)
    return merge(pieces, list(itertools.accumulate(sizes[:-1])))


def engine_chunkings(
    pieces: Sequence[str], *, seed: int = 0, random_count: int = 4
) -> Iterator[tuple[str, list[str]]]:
    """The deterministic chunkings every round trip runs, each with a label.

    Whole; one token per chunk; every two-way split; ``random_count`` seeded random
    groupings of 2 … 4 tokens.
    """
    yield "whole", ["".join(pieces)]
    yield "one token per chunk", list(pieces)
    for cut in range(1, len(pieces)):
        yield f"two-way split at token {cut}", merge(pieces, [cut])
    for k in range(random_count):
        yield f"random groups (seed {seed + k})", random_groups(pieces, seed=seed + k)


def groupings(pieces: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """Chunkings of ``pieces`` at any subset of token boundaries.

    Shrinks toward fewer cuts, i.e. toward the whole text in one chunk, so a failure is
    reported with the fewest chunks that still show it. ``groupings(['<a>', 'b', 'c'])``
    → ``['<a>b', 'c']``.
    """
    pieces = list(pieces)
    if len(pieces) < 2:
        return st.just(["".join(pieces)])
    return st.lists(
        st.integers(min_value=1, max_value=len(pieces) - 1), unique=True, max_size=len(pieces) - 1
    ).map(lambda cuts: merge(pieces, sorted(cuts)))


def char_splits(text: str) -> st.SearchStrategy[list[str]]:
    """``text`` cut at any character boundaries (tags may be cut anywhere)."""
    if len(text) < 2:
        return st.just([text])
    return st.lists(
        st.integers(min_value=1, max_value=len(text) - 1), unique=True, max_size=len(text) - 1
    ).map(lambda cuts: merge(list(text), sorted(cuts)))


def byte_splits(text: str) -> st.SearchStrategy[list[bytes]]:
    """``text`` as UTF-8 cut at any byte boundaries, even inside a character (byte adapters)."""
    data = text.encode("utf-8")
    if len(data) < 2:
        return st.just([data])

    def cut(cuts: list[int]) -> list[bytes]:
        bounds = [0, *sorted(cuts), len(data)]
        return [data[a:b] for a, b in itertools.pairwise(bounds)]

    return st.lists(
        st.integers(min_value=1, max_value=len(data) - 1), unique=True, max_size=len(data) - 1
    ).map(cut)
