"""Fuzzer bytes → one input: a dialect, a request, a model output and its chunking.

The decoding is structure-aware: the bytes choose pieces of model output (protocol tags
whole or cut after a prefix, well-formed blocks, blocks broken in one place, payload
fragments, tool names, drift characters, prose, raw text, repetitions) and a chunking (cuts
at token-aligned boundaries of the dialect's declared tags, or anywhere, as a separate
mode). It is a plain function of the bytes — ``decode(data, dialects, fragments)`` — read
through ``FuzzedDataProvider`` rules, so atheris, Hypothesis and triage all see the same
input for the same bytes.

Layout of the bytes (integers are read from the end, raw text from the front): dialect,
request (tools, thinking, tool choice), token-aligned or arbitrary cuts, whether only prose
and well-formed blocks may appear, whether the linear-time oracle applies, the cuts, then
pieces until the bytes run out. Structure first and free text last keeps a mutation local.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ...reference import get_dialect
from ...strategies.chunking import cut, tag_aligned_boundaries
from .families import DRIFT
from .provider import Provider, provider_for
from .shells import KNOWN_NAMES, NAMES, shells_for

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

#: Chunking styles.
CUTS, EVERY_BOUNDARY, STRIDE = range(3)
MAX_CUTS = 8
#: The output stops growing past this many characters (at scale 1).
MAX_CHARS = 2048
#: A repetition that adds at least this many characters makes the input scalable: the
#: linear-time oracle re-decodes it with every repetition count multiplied.
SCALABLE_CHARS = 256
MAX_REPEAT = 16
#: Request variants: tools offered (a bitmask over KNOWN_NAMES, or no "tools" field).
NO_TOOLS_FIELD = 1 << len(KNOWN_NAMES)
THINKING = (None, True, False)
#: Tool choices, "auto" most often: "none" turns tool parsing off altogether.
TOOL_CHOICES = ("auto", "auto", "auto", "auto", "auto", "auto", "required", "none")


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
    #: Whether the linear-time oracle applies: the input asks for it and has a repetition
    #: long enough to measure.
    scalable: bool = False
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
    # One input in eight asks for the linear-time oracle (which re-runs it 8× longer).
    timed = provider.ConsumeIntInRange(0, 7) == 0
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
    layouts, argument_pool = shells_for(dialect_name)
    filters = dialect.filters_unknown_names
    allowed = None
    if "tools" in request:
        allowed = {tool["function"]["name"] for tool in request["tools"]}
    pieces: list[str] = []
    #: The calls each piece is expected to parse to (well-formed blocks and their repeats).
    piece_calls: list[tuple[tuple[str, Any], ...]] = []
    repeats: list[bool] = []  # which pieces are repetitions
    base_lengths: list[int] = []  # each piece's length at scale 1
    base_length = 0  # the output's length at scale 1 decides when it stops growing
    clean = tool_choice != "none" and bool(layouts)
    scalable = False
    expected: list[tuple[str, Any]] = []
    while provider.remaining_bytes() > 0 and base_length <= MAX_CHARS:
        op = _pick(provider, WELL_FORMED_OPS if well_formed_only else OPS)
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
            if not layouts:
                clean = False
                continue
            layout = _pick(provider, layouts)
            name = _pick(provider, NAMES)
            arguments = _pick(provider, argument_pool)
            piece = layout(name, arguments)
            if op == BROKEN_BLOCK:
                piece = _broken(provider, piece, tags)
                clean = False
            elif not filters or allowed is None or name in allowed:
                calls = ((name, dict(arguments)),)
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
            copies = min(count - 1, max(0, MAX_CHARS - base_length) // previous_base)
            if not copies:
                continue
            base_length += previous_base * copies
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
        base_length += len(piece)
        if piece:
            pieces.append(piece)
            piece_calls.append(calls)
            repeats.append(False)
            base_lengths.append(len(piece))
    text = "".join(pieces)
    boundaries = tag_aligned_boundaries(text, protocol) if aligned else list(range(1, len(text)))
    chunks = _chunking(text, boundaries, style, selectors, stride)
    return FuzzInput(
        dialect=dialect_name,
        request=request,
        chunks=tuple(chunks),
        aligned=aligned,
        clean=clean,
        expected_calls=tuple(expected) if clean else (),
        scalable=scalable and timed,
        pieces=tuple(pieces),
        piece_calls=tuple(piece_calls),
        repeats=tuple(repeats),
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
    text: str, boundaries: Sequence[int], style: int, selectors: Sequence[int], stride: int
) -> list[str]:
    if not boundaries:
        return [text]
    if style == EVERY_BOUNDARY:
        return cut(text, boundaries)
    if style == STRIDE:
        return cut(text, boundaries[stride - 1 :: stride])
    return cut(text, sorted({boundaries[s % len(boundaries)] for s in selectors}))
