"""Fuzzer bytes → one input: a dialect, a request, a model output and its chunking.

The decoding is structure-aware: the bytes choose pieces of model output (protocol tags
whole or cut after a prefix, well-formed blocks, blocks broken in one place, payload
fragments, tool names, drift characters, prose, raw text, repetitions) and a chunking (cuts
at token-aligned boundaries of the dialect's declared tags, or anywhere, as a separate
mode). It is a plain function of the bytes — ``decode(data, dialects, fragments)`` — read
through ``FuzzedDataProvider`` rules, so atheris, Hypothesis and triage all see the same
input for the same bytes.

Well-formed blocks are written by the dialect's renderer (``Renderer.block``, every layout
variant), so the fuzzer splices in exactly the wire format the round-trip tests hold the
parser to; a broken block is one of those with one fault.

Layout of the bytes (integers are read from the end, raw text from the front): dialect,
request (tools, thinking, tool choice), token-aligned or arbitrary cuts, whether only prose
and well-formed blocks may appear, whether the expensive oracles judge it too, the cuts,
then pieces until the bytes run out. Structure first and free text last keeps a mutation
local.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from hypothesis.errors import InvalidArgument

from ...reference import get_dialect
from ...strategies.chunking import cut, tag_aligned_boundaries
from ...strategies.renderers import CALLS, get_renderer
from ...strategies.responses import Call
from .grammars import DRIFT
from .provider import Provider, provider_for

#: Tools offered by requests the decoder builds (the corpus' own tool files).
KNOWN_NAMES = ("get_weather", "search", "now")
#: Names no request offers: filtered by seed-000 dialects, kept by ds2api.
UNKNOWN_NAMES = ("delete_files", "get_weather_v2")
NAMES = KNOWN_NAMES + UNKNOWN_NAMES
#: The arguments a well-formed block carries: strings, numbers, nesting, escapes. A block
#: has a known answer only where its renderer carries them unchanged (``fit_call``).
ARGUMENTS: tuple[dict[str, Any], ...] = (
    {},
    {"city": "Paris"},
    {"city": "東京", "days": 3, "unit": "c"},
    {"city": "東京 tower", "unit": "c"},
    {"query": 'say "hi"\n\\ done', "tags": ["a", "b"], "filters": {"recent": True}},
    {"query": "x", "limit": None, "score": -1.5e3},
    {"query": "it's 3 o'clock, a/b?c=d"},
    {"query": "line one\nline two"},
)

#: Pieces of prose that contain no protocol character in any dialect.
PROSE = (
    "Hello", " ", "world", ".", "天气很好", "\n", "42", "ok!", "Sure, let me check", "\n\n",
    "Done", "é", "🙂", "a - b", "x=1",
)  # fmt: skip
SPACES = (" ", "\n", "\n\n", "\t", "\r\n", "  \n", "\n\n\n")
#: Tool names as a model might mangle them, besides the well-formed ones.
ODD_NAMES = ("", "get weather", "名前", "get-weather", "functions.now", "a" * 40)

LITERAL, PROSE_WORD, TAG, TAG_PREFIX, BLOCK, BROKEN_BLOCK, FRAGMENT = range(7)
NAME, DRIFT_CHAR, SPACE, REPEAT = range(7, 11)
#: The operation chosen by one byte: frequent kinds appear more than once.
OPS = (
    LITERAL, LITERAL, PROSE_WORD, PROSE_WORD, TAG, TAG, TAG_PREFIX, BLOCK, BLOCK,
    BROKEN_BLOCK, BROKEN_BLOCK, FRAGMENT, FRAGMENT, NAME, DRIFT_CHAR, SPACE, REPEAT,
)  # fmt: skip
#: The operations of an input meant to be well-formed.
WELL_FORMED_OPS = (PROSE_WORD, PROSE_WORD, BLOCK, BLOCK, SPACE, REPEAT)
#: Broken-block mutations.
TRUNCATE, DELETE_CHAR, DOUBLE_CHAR, DELETE_TAG, INSERT_DRIFT, SWAP_CHARS = range(6)

#: Chunking styles: chosen cut points; the points where a tag or a declared prefix of one
#: starts or ends (where a parser holds text back); every k-th boundary. Each gives at most
#: ``MAX_CHUNKS`` chunks, so that every execution stays cheap; every boundary at once is an
#: expensive oracle (``oracles``), run on a sample.
CUTS, PREFIX_POINTS, STRIDE = range(3)
MAX_CUTS = 8
MAX_CHUNKS = 64
#: The decoder's own pieces (blocks, prose, tags, repetitions …) stop being added past this
#: many characters of them (at scale 1): an input's cost grows with its output, and a
#: parser fault rarely needs more. Literal text is the input's own bytes, bounded by their
#: number (libFuzzer's ``-max_len``), so that a corpus case replays whole as a seed.
MAX_CHARS = 512
#: A repetition that adds at least this many characters makes the input scalable: the
#: linear-time oracle re-decodes it with every repetition count multiplied.
SCALABLE_CHARS = 256
#: One input in this many is judged by the expensive oracles too (every chunking at once,
#: linear time) during fuzzing; triage, regressions and new-coverage inputs always are.
THOROUGH_ONE_IN = 16
MAX_REPEAT = 16
#: Request variants: tools offered (a bitmask over KNOWN_NAMES, or no "tools" field).
NO_TOOLS_FIELD = 1 << len(KNOWN_NAMES)
THINKING = (None, True, False)
#: Tool choices, "auto" most often: "none" turns tool parsing off altogether.
TOOL_CHOICES = ("auto", "auto", "auto", "auto", "auto", "auto", "required", "none")
#: How the parser reads a call's values: by the schema of a tool the request offers, with
#: no schema (the request has no tools field: every call is kept), or not at all (the
#: dialect drops calls to tools the request does not offer).
OFFERED, UNDECLARED, DROPPED = "offered", "undeclared", "dropped"
#: The schema of a tool that declares no parameters: what a parser reads values by when
#: the request offers no schema.
_NO_PARAMETERS = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class FuzzInput:
    """One decoded fuzz input."""

    dialect: str
    request: dict[str, Any]
    chunks: tuple[str, ...]
    #: Cut only at token-aligned boundaries (the result must not depend on the cuts).
    aligned: bool
    #: Only prose and well-formed blocks: the calls are known and no protocol text may
    #: reach content or reasoning.
    clean: bool = False
    #: For a clean input: the calls it must parse to (name, arguments as a JSON value).
    expected_calls: tuple[tuple[str, Any], ...] = ()
    #: Whether the input has a repetition long enough to time (the linear-time oracle).
    scalable: bool = False
    #: Whether the fuzzing run judges it with the expensive oracles too (one in
    #: ``THOROUGH_ONE_IN``).
    thorough: bool = False
    #: The pieces the text was built of, and the calls each well-formed piece parses to.
    pieces: tuple[str, ...] = field(default=(), compare=False)
    piece_calls: tuple[tuple[tuple[str, Any], ...], ...] = field(default=(), compare=False)
    #: Which pieces are repetitions of the piece before them.
    repeats: tuple[bool, ...] = field(default=(), compare=False)

    @property
    def text(self) -> str:
        return "".join(self.chunks)

    def to_json(self) -> dict[str, Any]:
        return {
            "dialect": self.dialect,
            "request": self.request,
            "aligned": self.aligned,
            "chunks": list(self.chunks),
        }


@cache
def tool_objects() -> dict[str, dict[str, Any]]:
    """The corpus' tool definitions by name (what requests offer)."""
    tools = resources.files("toolconform.corpus") / "tools"
    return {
        name: json.loads((tools / f"{name}.json").read_text(encoding="utf-8"))
        for name in KNOWN_NAMES
    }


def request_for(tools_code: int, thinking: bool | None, tool_choice: str) -> dict[str, Any]:
    """An OpenAI request body from the decoder's request variant."""
    request: dict[str, Any] = {}
    if tools_code != NO_TOOLS_FIELD:
        objects = tool_objects()
        request["tools"] = [
            objects[name] for bit, name in enumerate(KNOWN_NAMES) if tools_code >> bit & 1
        ]
    if thinking is not None:
        request["thinking"] = thinking
    if tool_choice != "auto":
        request["tool_choice"] = tool_choice
    return request


@cache
def _dialect_tags(
    dialect: str,
) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Tags (longest first) and their declared prefixes, and the tag map for chunking."""
    protocol = get_dialect(dialect).protocol_tags()
    tags = tuple(sorted(protocol, key=lambda tag: (-len(tag), tag)))
    declared = {prefix for prefixes in protocol.values() for prefix in prefixes}
    prefixes = tuple(sorted(declared, key=lambda prefix: (-len(prefix), prefix)))
    return tags, prefixes, protocol


def _pick(provider: Provider, options: Sequence[Any]) -> Any:
    return options[provider.ConsumeIntInRange(0, len(options) - 1)]


def decode(
    data: bytes, dialects: Sequence[str], fragments: Sequence[str], *, scale: int = 1
) -> FuzzInput:
    """The input ``data`` stands for; ``scale`` multiplies every repetition count."""
    provider = provider_for(data)
    dialect_name = _pick(provider, dialects)
    dialect = get_dialect(dialect_name)
    tools_code = provider.ConsumeIntInRange(0, NO_TOOLS_FIELD)
    thinking = _pick(provider, THINKING)
    tool_choice = _pick(provider, TOOL_CHOICES)
    request = request_for(tools_code, thinking, tool_choice)
    aligned = provider.ConsumeIntInRange(0, 3) != 3
    # One input in four is built from prose and well-formed blocks only, so that the
    # oracles that need a known answer get inputs to judge.
    well_formed_only = provider.ConsumeIntInRange(0, 3) == 0
    thorough = provider.ConsumeIntInRange(0, THOROUGH_ONE_IN - 1) == 0
    style = provider.ConsumeIntInRange(0, 2)
    selectors: list[int] = []
    stride = 1
    if style == CUTS:
        selectors = [
            provider.ConsumeIntInRange(0, 0xFFFF)
            for _ in range(provider.ConsumeIntInRange(0, MAX_CUTS))
        ]
    elif style == STRIDE:
        stride = provider.ConsumeIntInRange(2, 16)

    tags, prefixes, protocol = _dialect_tags(dialect_name)
    variants = layouts(dialect_name)
    filters = dialect.filters_unknown_names
    allowed = None
    if "tools" in request:
        allowed = frozenset(tool["function"]["name"] for tool in request["tools"])
    pieces: list[str] = []
    #: The calls each piece is expected to parse to (well-formed blocks and their repeats).
    piece_calls: list[tuple[tuple[str, Any], ...]] = []
    repeats: list[bool] = []  # which pieces are repetitions
    base_lengths: list[int] = []  # each piece's length at scale 1
    generated = 0  # the length of the decoder's own pieces at scale 1, bounded by MAX_CHARS
    clean = tool_choice != "none" and bool(variants)
    scalable = False
    expected: list[tuple[str, Any]] = []
    while provider.remaining_bytes() > 0:
        op = _pick(provider, WELL_FORMED_OPS if well_formed_only else OPS)
        if op != LITERAL and generated > MAX_CHARS:
            continue
        piece = ""
        calls: tuple[tuple[str, Any], ...] = ()
        if op == LITERAL:
            size = provider.ConsumeIntInRange(0, 255)
            piece = provider.ConsumeBytes(size).decode("utf-8", "replace")
            clean = False
        elif op == PROSE_WORD:
            piece = _pick(provider, PROSE)
        elif op == TAG:
            piece = _pick(provider, tags)
            clean = False
        elif op == TAG_PREFIX:
            tag = _pick(provider, tags)
            if len(tag) > 1 and provider.ConsumeIntInRange(0, 1):
                piece = tag[: provider.ConsumeIntInRange(1, len(tag) - 1)]
            else:
                piece = _pick(provider, prefixes) if prefixes else tag[:1]
            clean = False
        elif op in (BLOCK, BROKEN_BLOCK):
            if not variants:
                clean = False
                continue
            variant = _pick(provider, variants)
            name = _pick(provider, NAMES)
            if allowed is not None and name in allowed:
                reading = OFFERED
            else:
                reading = DROPPED if filters and allowed is not None else UNDECLARED
            # A well-formed block carries arguments its format carries; a broken one any.
            pool = carried(dialect_name, name, reading) if op == BLOCK else _ALL_ARGUMENTS
            arguments = _pick(provider, pool)
            piece, parsed = block(dialect_name, variant, name, arguments, reading)
            if op == BROKEN_BLOCK:
                piece = _broken(provider, piece, tags)
                clean = False
            elif reading != DROPPED:
                assert parsed is not None
                calls = ((name, parsed),)
                expected.extend(calls)
        elif op == FRAGMENT:
            piece = _pick(provider, fragments)
            clean = False
        elif op == NAME:
            piece = _pick(provider, NAMES + ODD_NAMES)
            clean = False
        elif op == DRIFT_CHAR:
            piece = _pick(provider, DRIFT)
            clean = False
        elif op == SPACE:
            piece = _pick(provider, SPACES)
        else:  # REPEAT the previous piece, within the length budget
            count = provider.ConsumeIntInRange(2, MAX_REPEAT)
            if not pieces:
                continue
            previous, previous_base = pieces[-1], base_lengths[-1]
            copies = min(count - 1, max(0, MAX_CHARS - generated) // previous_base)
            if not copies:
                continue
            generated += previous_base * copies
            scalable = scalable or previous_base * copies >= SCALABLE_CHARS
            base_lengths.append(previous_base * copies)
            if not repeats[-1]:  # scaling a repetition of a repetition would square it
                copies = (copies + 1) * scale - 1
            pieces.append(previous * copies)
            repeats.append(True)
            calls = piece_calls[-1] * copies
            piece_calls.append(calls)
            expected.extend(calls)
            continue
        if op != LITERAL:
            generated += len(piece)
        if piece:
            pieces.append(piece)
            piece_calls.append(calls)
            repeats.append(False)
            base_lengths.append(len(piece))
    text = "".join(pieces)
    boundaries = tag_aligned_boundaries(text, protocol) if aligned else list(range(1, len(text)))
    chunks = _chunking(text, boundaries, style, selectors, stride, protocol)
    return FuzzInput(
        dialect=dialect_name,
        request=request,
        chunks=tuple(chunks),
        aligned=aligned,
        clean=clean,
        expected_calls=tuple(expected) if clean else (),
        scalable=scalable,
        thorough=thorough,
        pieces=tuple(pieces),
        piece_calls=tuple(piece_calls),
        repeats=tuple(repeats),
    )


@cache
def layouts(dialect: str) -> tuple[str | None, ...]:
    """The renderer's layout variants of a dialect with tool calls (none without)."""
    try:
        renderer = get_renderer(dialect)
    except InvalidArgument:  # a dialect of the user's own, without a renderer
        return ()
    if CALLS not in renderer.supports:
        return ()
    return renderer.variants or (None,)


@cache
def block(
    dialect: str, variant: str | None, name: str, arguments: int, reading: str
) -> tuple[str, dict[str, Any] | None]:
    """One call to ``name`` with ``ARGUMENTS[arguments]`` as the renderer writes it, and the
    arguments it parses back to (``None`` when the format does not carry them unchanged).

    ``reading`` says what the parser reads the values by (``OFFERED`` …)."""
    renderer = get_renderer(dialect)
    call = Call(name, ARGUMENTS[arguments])
    schema: dict[str, Any] | None = None  # a dropped call: only its layout must hold
    if reading == OFFERED:
        schema = tool_objects()[name]["function"].get("parameters") or _NO_PARAMETERS
    elif reading == UNDECLARED:
        schema = _NO_PARAMETERS
    fitted = renderer.fit_call(call, schema)
    written = renderer.block((fitted or call,), variant)
    return written, dict(fitted.arguments) if fitted is not None else None


_ALL_ARGUMENTS = tuple(range(len(ARGUMENTS)))


@cache
def carried(dialect: str, name: str, reading: str) -> tuple[int, ...]:
    """The indices of the ``ARGUMENTS`` a call to ``name`` carries unchanged in ``dialect``
    (every layout alike; ``{}`` always)."""
    variant = layouts(dialect)[0]
    return tuple(
        index
        for index in _ALL_ARGUMENTS
        if block(dialect, variant, name, index, reading)[1] is not None
    )


def _broken(provider: Provider, block: str, tags: Sequence[str]) -> str:
    """A well-formed block with one fault: cut, a character dropped, doubled or swapped, a
    tag deleted, or a drift character inserted."""
    mutation = provider.ConsumeIntInRange(0, SWAP_CHARS)
    at = provider.ConsumeIntInRange(0, 0xFFFF) % max(1, len(block) - 1)
    if mutation == TRUNCATE:
        return block[: max(1, at)]
    if mutation == DELETE_CHAR:
        return block[:at] + block[at + 1 :]
    if mutation == DOUBLE_CHAR:
        return block[: at + 1] + block[at:]
    if mutation == DELETE_TAG:
        present = [tag for tag in tags if tag in block]
        if not present:
            return block
        tag = present[at % len(present)]
        return block.replace(tag, "", 1)
    if mutation == INSERT_DRIFT:
        return block[:at] + _pick(provider, DRIFT) + block[at:]
    return block[:at] + block[at + 1 : at + 2] + block[at : at + 1] + block[at + 2 :]


def _chunking(
    text: str,
    boundaries: Sequence[int],
    style: int,
    selectors: Sequence[int],
    stride: int,
    protocol: dict[str, tuple[str, ...]],
) -> list[str]:
    if not boundaries:
        return [text]
    if style == PREFIX_POINTS:
        points = prefix_points(text, protocol, boundaries)
        return cut(text, points[:: _step(len(points), MAX_CHUNKS - 1)])
    if style == STRIDE:
        stride = max(stride, _step(len(boundaries), MAX_CHUNKS - 1))
        return cut(text, boundaries[stride - 1 :: stride])
    return cut(text, sorted({boundaries[s % len(boundaries)] for s in selectors}))


def _step(count: int, most: int) -> int:
    """The smallest step that keeps at most ``most`` of ``count`` items (at least 1)."""
    return max(1, -(-count // most))


def prefix_points(
    text: str, protocol: dict[str, tuple[str, ...]], boundaries: Sequence[int]
) -> list[int]:
    """The ``boundaries`` where a tag, or a declared prefix of one, starts or ends in
    ``text``: where a streaming parser decides whether to hold text back."""
    points: set[int] = set()
    for tag, prefixes in protocol.items():
        for piece in (tag, *prefixes):
            start = text.find(piece)
            while start >= 0:
                points.update((start, start + len(piece)))
                start = text.find(piece, start + 1)
    allowed = set(boundaries)
    return sorted(point for point in points if point in allowed)
