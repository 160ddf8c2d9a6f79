"""Drive an engine adapter over the shared cases and compare it with the reference parser.

A test per case streams the case under every token-aligned chunking (whole, one piece per
chunk, every two-way split, seeded random groupings), coalesces the deltas the adapter
returns as an OpenAI client would, and compares the result, and the adapter's non-streaming
``parse``, with the oracle: the reference parser when the dialect is registered, the case's
hand-written expectation until then. Where an engine is known to differ, the engine's test
module lists the case with the difference, and the case becomes a strict expected failure:
the difference is recorded, not hidden, and a fixed engine makes the run fail until the
entry goes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

from toolconform.reference import Request, get_dialect
from toolconform.reference.registry import dialect_names
from toolconform.strategies.chunking import (
    each_piece,
    random_groupings,
    tag_aligned_boundaries,
    two_way_splits,
    whole,
)

from .cases import CASES, FALLBACK_TAGS, Case, Result

Chunk = tuple[str, list[int] | None]


def cases_for(dialects: Iterable[str], known: Mapping[str, str]) -> list[Any]:
    """The shared cases of the given dialects as pytest params, known differences marked."""
    covered = set(dialects)
    params = []
    for case in CASES:
        if case.dialect not in covered:
            continue
        marks = []
        if case.id in known:
            marks.append(pytest.mark.xfail(reason=known[case.id], strict=True))
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


def oracle(case: Case) -> Result:
    """The reference parser's complete parse, or the case's expectation before it lands."""
    if case.dialect not in dialect_names():
        return case.expected
    parsed = (
        get_dialect(case.dialect)
        .new_parser(Request.from_openai(case.request))
        .parse_complete(case.text)
    )
    return Result(
        parsed.content,
        parsed.reasoning_content or "",
        tuple((call.name, _value(call.arguments)) for call in parsed.tool_calls),
    )


def text_chunkings(case: Case) -> Iterable[list[str]]:
    """Token-aligned chunkings of the case text (tags cut only after a declared prefix)."""
    if case.dialect in dialect_names():
        tags = get_dialect(case.dialect).protocol_tags()
    else:
        tags = FALLBACK_TAGS.get(case.dialect, {})
    boundaries = tag_aligned_boundaries(case.text, tags)
    pieces = each_piece(case.text, boundaries)
    yield whole(case.text)
    yield pieces
    yield from two_way_splits(case.text, boundaries)
    yield from random_groupings(pieces, seed=len(case.text), count=8)


def coalesce(deltas: Iterable[Mapping[str, Any]]) -> Result:
    """Join the streamed deltas as a client does: calls grouped by ``index``."""
    content: list[str] = []
    reasoning: list[str] = []
    names: dict[int, str] = {}
    arguments: dict[int, list[str]] = {}
    for delta in deltas:
        content.append(delta.get("content") or "")
        reasoning.append(delta.get("reasoning_content") or "")
        for call in delta.get("tool_calls") or ():
            index = call["index"]
            function = call.get("function") or {}
            if function.get("name") and index not in names:
                names[index] = function["name"]
            arguments.setdefault(index, []).append(function.get("arguments") or "")
    indices = sorted(set(names) | set(arguments))
    return Result(
        "".join(content),
        "".join(reasoning),
        tuple((names.get(i, ""), _value("".join(arguments.get(i, [])))) for i in indices),
    )


def from_parse(parsed: Mapping[str, Any]) -> Result:
    """The adapter's non-streaming result in the same shape."""
    return Result(
        parsed.get("content") or "",
        parsed.get("reasoning_content") or "",
        tuple(
            (call["function"]["name"], _value(call["function"]["arguments"]))
            for call in parsed.get("tool_calls") or ()
        ),
    )


def stream(
    factory: Callable[..., Any], case: Case, chunks: Sequence[Chunk], **options: Any
) -> Result:
    """One session over ``chunks`` (text with optional token ids), then ``finish``."""
    session = factory(case.dialect, case.request, **options)
    deltas: list[Mapping[str, Any]] = []
    for text, ids in chunks:
        deltas.extend(session.feed(text, ids))
    deltas.extend(session.finish())
    return coalesce(deltas)


def check_case(
    factory: Callable[..., Any],
    case: Case,
    chunkings: Iterable[Sequence[Chunk]],
    **options: Any,
) -> None:
    """The complete parse and every streamed chunking equal the oracle.

    All chunkings run before asserting, and the message names the first failing chunking
    with the fewest chunks, so that a failure reads as a minimal reproducer.
    """
    expected = oracle(case)
    session = factory(case.dialect, case.request, **options)
    problems: list[str] = []
    if hasattr(session, "parse"):
        complete = from_parse(session.parse(case.text))
        if complete != expected:
            problems.append(f"parse() gives {complete}")
    failing: list[tuple[int, str]] = []
    count = 0
    for chunks in chunkings:
        count += 1
        streamed = stream(factory, case, chunks, **options)
        if streamed != expected:
            texts = [text for text, _ in chunks]
            failing.append((len(chunks), f"{texts!r} streams {streamed}"))
    if failing:
        failing.sort(key=lambda failure: failure[0])
        problems.append(f"{len(failing)} of {count} chunkings differ, e.g. {failing[0][1]}")
    if problems:
        pytest.fail(f"expected {expected}; " + "; ".join(problems), pytrace=False)


def without_ids(chunkings: Iterable[list[str]]) -> Iterable[list[Chunk]]:
    for chunks in chunkings:
        yield [(text, None) for text in chunks]


def _value(arguments: str) -> Any:
    """Arguments as a JSON value (formatting differs by engine), or the raw text if invalid."""
    try:
        return json.loads(arguments)
    except json.JSONDecodeError:
        return arguments
