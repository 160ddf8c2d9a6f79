"""One fuzz input through the adapter contract: a streamed run and the complete parse.

The fuzzer drives a parser the way certify does — ``Adapter.open`` sessions whose output is
normalized to events (``harness.events``) and coalesced into a ``FinalResult`` — so a fuzz
execution is judged on the same events, by the same check functions, as a certification
run. The reference parser is reached the same way (the built-in ``reference`` adapter), and
so is any parser: ``module:callable`` in this process, ``cmd:…`` in a program of its own.

Errors are not caught here: a parser that raises, or an adapter whose output breaks the
contract, is what the oracles report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...reference.types import FinalResult
from ..adapters import Adapter
from ..events import Event, Snapshot, coalesce, events_from_snapshots


@dataclass(frozen=True)
class Streamed:
    """A streamed run: every normalized event in order, and the coalesced result."""

    events: tuple[Event, ...]
    result: FinalResult


def stream(
    adapter: Adapter, dialect: str, request: Mapping[str, Any], chunks: Sequence[str]
) -> Streamed:
    """Feed ``chunks`` to a fresh session, then finish it."""
    session = adapter.open(dialect, request)
    per_chunk = [session.feed(chunk) for chunk in chunks]
    per_chunk.append(session.finish())
    return Streamed(tuple(event for events in per_chunk for event in events), coalesce(per_chunk))


def complete(adapter: Adapter, dialect: str, request: Mapping[str, Any], text: str) -> FinalResult:
    """The parser's own non-streaming result of ``text``; without one, the whole text
    streamed in one chunk."""
    message = adapter.open(dialect, request).parse(text)
    if message is None:
        return stream(adapter, dialect, request, (text,)).result
    return coalesce([events_from_snapshots(Snapshot(), Snapshot.from_json(message))])
