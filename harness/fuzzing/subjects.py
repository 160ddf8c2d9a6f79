"""What a fuzz input is run against: the reference parser directly, or any adapter.

Both answer the same two questions — the complete parse of a text, and the streamed result
of a chunking — as a ``Result`` that compares by value. The reference is driven without the
adapter layer (no dicts, no events), since its speed is the fuzzer's speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from ...reference import ParsedResponse, Request, get_dialect
from ..adapters import load_in_process
from ..adapters.base import Adapter
from ..events import FinalResult, coalesce


class Result(NamedTuple):
    """A final result: content, reasoning ("" when none) and ``(name, arguments)`` calls."""

    content: str
    reasoning: str
    calls: tuple[tuple[str, str], ...]

    @classmethod
    def of_parsed(cls, parsed: ParsedResponse) -> Result:
        calls = tuple((call.name, call.arguments) for call in parsed.tool_calls)
        return cls(parsed.content, parsed.reasoning_content or "", calls)

    @classmethod
    def of_final(cls, final: FinalResult) -> Result:
        calls = tuple((call.name or "", call.arguments) for call in final.calls)
        return cls(final.content, final.reasoning or "", calls)


class Subject(Protocol):
    """A parser under fuzzing."""

    name: str

    def complete(self, dialect: str, request: dict[str, Any], text: str) -> Result: ...

    def stream(self, dialect: str, request: dict[str, Any], chunks: Sequence[str]) -> Result: ...


class ReferenceSubject:
    """The reference parser, called directly."""

    name = "reference"

    def complete(self, dialect: str, request: dict[str, Any], text: str) -> Result:
        parser = get_dialect(dialect).new_parser(Request.from_openai(request))
        return Result.of_parsed(parser.parse_complete(text))

    def stream(self, dialect: str, request: dict[str, Any], chunks: Sequence[str]) -> Result:
        parser = get_dialect(dialect).new_parser(Request.from_openai(request))
        messages = [message for chunk in chunks for message, _ in parser.stream_chunk(chunk)]
        messages.extend(message for message, _ in parser.stream_chunk("", final=True))
        return Result.of_parsed(ParsedResponse.from_deltas(messages))


class AdapterSubject:
    """Any parser behind the adapter contract (``module:callable`` or ``cmd:…``)."""

    def __init__(self, spec: str) -> None:
        self.name = spec
        self.adapter: Adapter = load_in_process(spec)

    def complete(self, dialect: str, request: dict[str, Any], text: str) -> Result:
        session = self.adapter.open(dialect, request)
        parsed = session.parse(text)
        if parsed is None:  # no non-streaming entry point: the whole text in one chunk
            return self.stream(dialect, request, (text,))
        calls = tuple(
            ((call.get("function") or {}).get("name") or "",
             (call.get("function") or {}).get("arguments") or "")
            for call in parsed.get("tool_calls") or ()
        )  # fmt: skip
        reasoning = parsed.get("reasoning_content") or parsed.get("reasoning") or ""
        return Result(parsed.get("content") or "", reasoning, calls)

    def stream(self, dialect: str, request: dict[str, Any], chunks: Sequence[str]) -> Result:
        session = self.adapter.open(dialect, request)
        events = [session.feed(chunk) for chunk in chunks]
        events.append(session.finish())
        return Result.of_final(coalesce(events))

    def close(self) -> None:
        self.adapter.close()
