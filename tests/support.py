"""Helpers shared by the tests: stream a text through a dialect under many chunkings.

Every parser test compares three things: the streamed reconstruction under each chunking,
the complete parse, and the expected result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from toolconform.reference import DeltaMessage, FinalResult, Request, get_dialect
from toolconform.strategies.chunking import cut, engine_chunkings, tag_aligned_boundaries


@dataclass
class Expected:
    """The expected coalesced result; ``calls`` are ``(name, raw arguments)`` pairs."""

    content: str = ""
    reasoning: str | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)


def stream(
    dialect: str, chunks: Iterable[str], request: Request | None = None
) -> list[DeltaMessage]:
    parser = get_dialect(dialect).new_parser(request)
    chunks = list(chunks)
    messages: list[DeltaMessage] = []
    for position, chunk in enumerate(chunks):
        final = position == len(chunks) - 1
        messages.extend(message for message, _ in parser.stream_chunk(chunk, final=final))
    return messages


def chunkings(dialect: str, text: str) -> Iterable[list[str]]:
    """Whole, one piece per chunk, every two-way split, and seeded random groupings."""
    pieces = cut(text, tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    for _, chunks in engine_chunkings(pieces, seed=len(text), random_count=8):
        yield chunks


def as_expected(result: FinalResult) -> Expected:
    return Expected(
        content=result.content,
        reasoning=result.reasoning,
        calls=[(call.name, call.arguments) for call in result.calls],
    )


def check(dialect: str, text: str, expected: Expected, request: Request | None = None) -> None:
    """Complete parse == expected, and streamed == complete under every chunking."""
    complete = get_dialect(dialect).new_parser(request).parse_complete(text)
    assert as_expected(complete) == expected
    assert [call.index for call in complete.calls] == list(range(len(complete.calls)))
    for chunks in chunkings(dialect, text):
        streamed = get_dialect(dialect).new_parser(request).parse_stream(chunks)
        assert streamed == complete, f"chunking {chunks!r}"


def tools(*names: str) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": name, "parameters": {}}} for name in names]


def arguments_value(raw: str) -> Any:
    return json.loads(raw)


#: The bound on a time ratio at 8× the size: a linear parser measures about 8, a quadratic
#: one about 64; three times linear leaves room for a shared, noisy machine.
LINEAR_RATIO = 24


def cpu_ratio_of(
    small: Callable[[], object], large: Callable[[], object], rounds: int = 5
) -> float:
    """Best CPU time of ``large()`` over that of ``small()``, measured alternately: CPU time
    of this process, interleaved, so that other load on the machine slows both alike."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for position, work in enumerate((small, large)):
            start = time.process_time()
            work()
            best[position] = min(best[position], time.process_time() - start)
    return best[1] / max(best[0], 1e-9)
