"""The transport layer around a response parser: engine chunks in, wire deltas out.

Like the seed's ChatRunner, it attaches an engine chunk's token ids, logprobs and finish
state only to the last delta that the chunk produced, so that transport metadata is never
duplicated when one chunk yields several deltas; a chunk that yields none but carries
metadata becomes one empty content delta. A final ``stop`` becomes ``tool_calls`` once a
call has been emitted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .response_parser import ResponseParser
from .types import DeltaMessage, FinalResult


@dataclass(slots=True)
class EngineChunk:
    """What the engine hands over per decoding step."""

    text: str
    token_ids: Sequence[int] = ()
    logprobs: Sequence[float] | None = None
    #: Set on the last chunk of the response (``stop``, ``length``, …).
    finish_reason: str | None = None


@dataclass(slots=True)
class StreamDelta:
    """One delta on the wire, with the transport metadata it carries (if any)."""

    message: DeltaMessage
    token_ids: Sequence[int] | None = None
    logprobs: Sequence[float] | None = None
    finish_reason: str | None = None


class ChatRunner:
    """Drives one response parser over the engine chunks of one response."""

    def __init__(self, parser: ResponseParser) -> None:
        self.parser = parser

    def feed(self, chunk: EngineChunk) -> list[StreamDelta]:
        """The wire deltas for one engine chunk."""
        final = chunk.finish_reason is not None
        messages = [
            message
            for message, _ in self.parser.stream_chunk(chunk.text, chunk.token_ids, final=final)
        ]
        if not messages:
            if not (chunk.token_ids or chunk.logprobs or final):
                return []
            messages = [DeltaMessage(content="")]
        deltas = [StreamDelta(message) for message in messages]
        last = deltas[-1]
        last.token_ids = chunk.token_ids or None
        last.logprobs = chunk.logprobs
        last.finish_reason = self.finish_reason(chunk.finish_reason) if final else None
        return deltas

    def stream(self, chunks: Iterable[EngineChunk]) -> list[StreamDelta]:
        """All wire deltas of a response."""
        return [delta for chunk in chunks for delta in self.feed(chunk)]

    def finish_reason(self, engine_reason: str | None) -> str | None:
        """The client-visible finish reason: ``stop`` becomes ``tool_calls`` after a call."""
        if engine_reason == "stop" and self.parser.tool_emitted:
            return "tool_calls"
        return engine_reason

    def collect(self, text: str, *, finish_reason: str = "stop") -> tuple[FinalResult, str]:
        """The non-streaming path: parse the whole text; return it with its finish reason."""
        result = self.parser.parse_complete(text)
        return result, self.finish_reason(finish_reason) or finish_reason
