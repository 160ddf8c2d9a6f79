"""Chunkings: where a model output may be cut into engine chunks, and the cuts themselves.

A *chunking* is a list of strings whose concatenation is the output. A serving engine cuts at
token boundaries; inside a protocol tag that means only after one of the tag's declared
proper prefixes (an atomic tag is never cut). Between tags any character boundary is taken
as a possible token boundary here. Real tokenizers (``toolconform.strategies.tokenizers``)
refine this with the true boundaries of each family; this module is the tokenizer-free
model, used where no faithful tokenizer exists and for the arbitrary-split robustness tier.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import compress


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


def whole(text: str) -> list[str]:
    """The whole output as one chunk."""
    return [text]


def each_piece(text: str, boundaries: Sequence[int]) -> list[str]:
    """One chunk per piece between consecutive boundaries (one token per chunk)."""
    return cut(text, boundaries)


def two_way_splits(text: str, boundaries: Sequence[int]) -> Iterator[list[str]]:
    """Every split of ``text`` into two chunks at a boundary, in order."""
    for boundary in boundaries:
        yield [text[:boundary], text[boundary:]]


def random_groupings(
    pieces: Sequence[str], *, seed: int, count: int, max_group: int = 4
) -> Iterator[list[str]]:
    """Seeded random groupings of consecutive pieces into chunks of 1 … ``max_group`` pieces.

    Models multi-token engine steps (speculative decoding, MTP): the same pieces, merged.
    """
    rng = random.Random(seed)
    for _ in range(count):
        chunks: list[str] = []
        i = 0
        while i < len(pieces):
            size = rng.randint(1, max_group)
            chunks.append("".join(pieces[i : i + size]))
            i += size
        yield chunks


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
