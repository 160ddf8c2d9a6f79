"""Engine chunkings of token pieces, and Hypothesis strategies over them.

*Pieces* are the per-token text deltas an engine streams (``tokenizers.token_chunks``),
empty ones included. A chunking merges consecutive pieces: one token per chunk, all of
them at once, or groups of several tokens as speculative decoding and multi-token steps
deliver them. Character and byte splits go further than any tokenizer and belong to the
robustness tier (seed 000 lets parsers assume token-aligned tags).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument


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


def random_groups(pieces: Sequence[str], *, seed: int, max_group: int = 4) -> list[str]:
    """Seeded random groups of 1 … ``max_group`` consecutive tokens."""
    if max_group < 1:
        raise InvalidArgument(f"max_group={max_group} must be at least 1")
    rng = random.Random(seed)
    cuts: list[int] = []
    position = rng.randint(1, max_group)
    while position < len(pieces):
        cuts.append(position)
        position += rng.randint(1, max_group)
    return merge(pieces, cuts)


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
