"""Benchmark workloads: each dialect's real grammar, rendered by the strategies' renderers.

A workload is a fixed response (no randomness: the same bytes on every run and machine)
rendered in one dialect, with the tools that type its arguments. Shapes follow seed 000's
benchmark section and what stresses a streaming parser: one long string argument (the size
ladder for the scaling fit), many short strings, nested objects, reasoning with content,
several calls. Chunkings: fixed character sizes with protocol tags kept whole, one real
token per chunk, and groups of k tokens.

More shapes are not in the ``bench`` command's list; the scaling tests and the core's
benchmarks (``benchmarks/``) time them: a long string with markup-like text in it, a long
string that the XML-like formats hold whole until its close tag, a long file of code with
fenced DSML examples in it, and prose full of tags that are not tool calls (the last two
stress ds2api's drift-tolerant sieve, seed 003).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...reference import get_dialect
from ...strategies import Call, Response, get_renderer, renderer_names
from ...strategies.chunking import fixed_size, tag_aligned_boundaries
from ...strategies.renderers import CALLS, MULTIPLE_CALLS, REASONING
from ..chunkings import Chunking, Family, Piece, boundary_sources, from_cut_positions, labelled

CHUNK_SIZES = (1, 4, 8, 16, 256)
QUICK_LADDER = (1_000, 8_000, 64_000)
FULL_LADDER = (1_000, 8_000, 64_000, 256_000, 1_000_000)
TOKEN_GROUP = 4

# Words without protocol characters: the text between tags never looks like a tag.
_WORDS = (
    "the",
    "parser",
    "streams",
    "tokens",
    "while",
    "the",
    "model",
    "writes",
    "arguments",
    "and",
    "reasoning",
    "about",
    "weather",
    "tables",
    "files",
    "queries",
    "results",
    "values",
    "lists",
    "numbers",
    "東京",
    "données",
    "größe",
    "λ",
    "π",
    "∑",
    "😀",
    "naïve",
    "café",
)

_STRING_TOOL = {
    "type": "function",
    "function": {
        "name": "write_file",
        "description": "Write text to a file",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
}


#: A fenced example of a DSML call: its ``]]></|DSML|parameter>`` looks like the end of the
#: CDATA section it stands in.
_FENCED_EXAMPLE = (
    '```xml\n<|DSML|tool_calls><|DSML|invoke name="demo"><|DSML|parameter name="v">'
    "<![CDATA[x]]></|DSML|parameter></|DSML|invoke></|DSML|tool_calls>\n```\n"
)
#: Prose that looks like tags: near-miss names, comparisons, HTML, inline code, drift,
#: confusable letters, a stray close tag, a lone parameter.
_NEAR_MISSES = (
    "Use <tool_calls_extra> for batches. ",
    "The <invoker> pattern is different. ",
    "Neither is <ToolCallsExtra>. ",
    "A bare <tool-calls> stays text. ",
    "Math: a < b and c > d. ",
    "HTML <b>bold</b> and <br/> too. ",
    "Inline `<tool_calls>` is code. ",
    "<|DSML tool_calls_extra> drifts. ",
    "Confusable <invοker> is no tag. ",
    "A stray </tool_calls> closes nothing. ",
    'A lone <parameter name="x"> is prose.\n',
)


def _fill(pieces: Iterator[str], size: int) -> str:
    """Exactly ``size`` characters of ``pieces`` joined."""
    out: list[str] = []
    length = 0
    while length < size:
        piece = next(pieces)
        out.append(piece)
        length += len(piece)
    return "".join(out)[:size]


def prose(size: int, seed: int) -> str:
    """About ``size`` characters of deterministic multilingual prose, with escapes to carry."""
    rng = random.Random(seed)
    words: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(_WORDS)
        if rng.random() < 0.03:
            word += rng.choice(['"', "\\", "\n", "\t"])
        words.append(word)
        length += len(word) + 1
    return " ".join(words)[:size]


@dataclass(frozen=True)
class Workload:
    """One dialect, one rendered response, the request it is parsed under."""

    dialect: str
    shape: str
    size: int
    text: str
    request: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.dialect}/{self.shape}/{self.size}"


def _workload(
    dialect: str, shape: str, size: int, response: Response, tools: list[dict]
) -> Workload:
    renderer = get_renderer(dialect)
    request = renderer.request(response, tools)
    return Workload(dialect, shape, size, renderer.render(response), request.to_openai())


def long_string(dialect: str, size: int) -> Workload:
    """One call with a ``size``-character string argument: the scaling ladder. A dialect
    without tool calls (reasoning only) climbs it with ``size`` characters of reasoning."""
    text = prose(size, seed=size)
    if CALLS not in get_renderer(dialect).supports:
        response = Response(reasoning=text, content="Saving it. ")
    else:
        call = Call("write_file", {"path": "notes.txt", "content": text})
        response = Response(content="Saving it. ", calls=(call,))
    return _workload(dialect, "long-string", size, response, [_STRING_TOOL])


def markup_string(dialect: str, size: int) -> Workload:
    """``long_string`` with a ``<`` every 89 characters: the value scan of the XML-like and
    DSML formats meets text that may begin a tag, and must stream it on."""
    chars = list(prose(size, seed=size))
    for position in range(44, size, 89):
        chars[position] = "<"
    call = Call("write_file", {"path": "notes.txt", "content": "".join(chars)})
    response = Response(content="Saving it. ", calls=(call,))
    return _workload(dialect, "markup-string", size, response, [_STRING_TOOL])


def held_string(dialect: str, size: int) -> Workload:
    """One call whose string argument is ``size`` characters written as a JSON string.

    A value whose first character is a quote is JSON to the XML-like formats: the parser
    holds it whole until its close tag, then decodes it (``typed_values``), so the long
    held stretch must be scanned once. Elsewhere it is a string with escapes in it.
    """
    call = Call("write_file", {"path": "notes.txt", "content": json.dumps(prose(size, seed=size))})
    response = Response(content="Saving it. ", calls=(call,))
    return _workload(dialect, "held-string", size, response, [_STRING_TOOL])


def fenced_code(size: int) -> str:
    """``size`` characters of a file: code lines, and every 40th a fenced DSML example."""
    lines = (f'line {n}: if a < b && c > d then print("<tool_calls>")\n' for n in itertools.count())
    pieces = (_FENCED_EXAMPLE if n % 40 == 39 else next(lines) for n in itertools.count())
    return _fill(pieces, size).replace("]]>\n", "]]>x\n")


def fenced_examples(dialect: str, size: int) -> Workload:
    """One call writing ``fenced_code(size)``: in ds2api's CDATA, the fenced examples'
    closers must not end the section (seed 003), and must not be searched again."""
    call = Call("write_file", {"path": "notes.md", "content": fenced_code(size)})
    response = Response(content="Writing it.\n", calls=(call,), content_tail="\nDone.")
    return _workload(dialect, "fenced-examples", size, response, [_STRING_TOOL])


def near_miss_prose(dialect: str, size: int) -> Workload:
    """``size`` characters of content full of tags that are not tool calls: each must be
    released as text once ruled out, not held and searched again."""
    text = _fill(itertools.cycle(_NEAR_MISSES), size)
    return _workload(dialect, "near-miss-prose", size, Response(content=text), [_STRING_TOOL])


def many_short_strings(dialect: str, count: int) -> Workload:
    """One call whose argument is ``count`` short strings (escape-heavy, structural chars)."""
    pieces = ["x", '"', "\\", "{", "}", "[", "]", "plain", "東"]
    tool = {
        "type": "function",
        "function": {
            "name": "tag_items",
            "parameters": {
                "type": "object",
                "properties": {"items": {"type": "array", "items": {"type": "string"}}},
            },
        },
    }
    call = Call("tag_items", {"items": [pieces[k % len(pieces)] for k in range(count)]})
    return _workload(dialect, "short-strings", count, Response(calls=(call,)), [tool])


def nested_objects(dialect: str, width: int) -> Workload:
    """One call with an object argument nested four deep, ``width`` keys per level."""

    def level(depth: int) -> Any:
        if depth == 0:
            return [1, 2.5, None, True, "leaf"]
        return {f"k{depth}_{n}": level(depth - 1) for n in range(width)}

    tool = {
        "type": "function",
        "function": {
            "name": "configure",
            "parameters": {"type": "object", "properties": {"config": {"type": "object"}}},
        },
    }
    call = Call("configure", {"config": level(4)})
    return _workload(dialect, "nested", width, Response(calls=(call,)), [tool])


def reasoning_and_content(dialect: str, size: int) -> Workload | None:
    """``size`` characters of reasoning, then as much content, then one small call."""
    renderer = get_renderer(dialect)
    if REASONING not in renderer.supports:
        return None
    call = Call("write_file", {"path": "a.txt", "content": "done"})
    response = Response(reasoning=prose(size, seed=1), content=prose(size, seed=2), calls=(call,))
    return _workload(dialect, "reasoning-content", size, response, [_STRING_TOOL])


def several_calls(dialect: str, count: int) -> Workload | None:
    """``count`` calls in a row with small arguments."""
    if MULTIPLE_CALLS not in get_renderer(dialect).supports:
        return None
    calls = tuple(
        Call("write_file", {"path": f"f{n}.txt", "content": prose(40, seed=n)})
        for n in range(count)
    )
    return _workload(dialect, "several-calls", count, Response(calls=calls), [_STRING_TOOL])


def workloads(dialect: str, *, full: bool) -> list[Workload]:
    """Every workload of one dialect (none without a renderer)."""
    if dialect not in renderer_names():
        return []
    ladder = FULL_LADDER if full else QUICK_LADDER
    found = [long_string(dialect, size) for size in ladder]
    found.append(many_short_strings(dialect, 4_096 if full else 1_024))
    found.append(nested_objects(dialect, 6 if full else 4))
    found += [w for w in (reasoning_and_content(dialect, 8_000), several_calls(dialect, 32)) if w]
    return found


def aligned(workload: Workload, size: int) -> Chunking:
    """About ``size`` characters per chunk, no protocol tag cut but where a tokenizer may
    (``parse --chunking aligned:N``)."""
    text = workload.text
    boundaries = tag_aligned_boundaries(text, get_dialect(workload.dialect).protocol_tags())
    return Chunking(labelled(Family.ALIGNED, size), tuple(fixed_size(text, size, boundaries)))


def chunkings(workload: Workload, *, sizes: tuple[int, ...] = CHUNK_SIZES) -> list[Chunking]:
    """Fixed character sizes with tags whole, one real token per chunk, k-token groups."""
    text = workload.text
    out = [aligned(workload, size) for size in sizes]
    source = boundary_sources(workload.dialect)[0]
    if source.tokenizer is not None:
        pieces: list[Piece] = source.split(text)
        out.append(
            from_cut_positions(
                pieces, range(1, len(pieces)), labelled(Family.PIECES, source.name), source
            )
        )
        groups = range(TOKEN_GROUP, len(pieces), TOKEN_GROUP)
        out.append(
            from_cut_positions(
                pieces, groups, labelled(f"{Family.PIECES}×{TOKEN_GROUP}", source.name), source
            )
        )
    return out
