"""The built-in ``reference`` adapter: the oracle parser behind the adapter contract.

Certifying the reference through the same contract as any other parser proves the harness
path end to end, and gives every report a row to compare against.
"""

from __future__ import annotations

import importlib
from functools import cached_property
from types import ModuleType
from typing import Any

from ... import __version__
from ... import reference as _reference
from ...reference import ResponseParser, get_dialect
from ...reference.types import FinalResult
from ..chunkings import ENDINGS


class ReferenceSession:
    """One response parsed by the reference parser, or by ``package``: a copy of it (the
    mutation suite's copies with one planted fault each)."""

    def __init__(
        self, dialect: str, request: dict[str, Any], package: ModuleType | None = None
    ) -> None:
        reference = package or _reference
        self._transport = importlib.import_module(f"{reference.__name__}.transport")
        self._dialect = reference.get_dialect(dialect)
        self._request = reference.Request.from_openai(request)

    @cached_property
    def _parser(self) -> ResponseParser:
        """The streaming parser, made on the first feed: a session opened for ``parse``
        alone (the fuzzer's complete parse, once per execution) never needs one."""
        return self._dialect.new_parser(self._request)

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        pairs = self._parser.stream_chunk(text, token_ids or ())
        return [message.to_openai() for message, _ in pairs]

    def finish(
        self, text: str = "", token_ids: list[int] | None = None, *, finish_reason: str = "stop"
    ) -> list[dict[str, Any]]:
        """The last engine chunk through the seed's ChatRunner: it carries the client's
        finish reason on the last delta (``stop`` becomes ``tool_calls`` after a call)."""
        chunk = self._transport.EngineChunk(text, token_ids or (), finish_reason=finish_reason)
        out = []
        for delta in self._transport.ChatRunner(self._parser).feed(chunk):
            message = delta.message.to_openai()
            if delta.finish_reason is not None:
                message["finish_reason"] = delta.finish_reason
            out.append(message)
        return out

    def parse(self, text: str) -> dict[str, Any]:
        result: FinalResult = self._dialect.new_parser(self._request).parse_complete(text)
        return {
            "content": result.content,
            "reasoning_content": result.reasoning,
            "tool_calls": [call.to_openai() for call in result.calls],
        }


def reference_factory(
    dialect: str, request: dict[str, Any], *, tokenizer_family: str | None = None
) -> ReferenceSession:
    """Factory of the built-in reference adapter (token ids are accepted and not needed)."""
    try:
        get_dialect(dialect)
    except KeyError as error:
        raise LookupError(error.args[0]) from None
    return ReferenceSession(dialect, request)


reference_factory.implementation = {  # type: ignore[attr-defined]
    "name": "toolconform-reference",
    "version": __version__,
    "language": "python",
    "homepage": "https://github.com/toolconform/toolconform",
}
reference_factory.dialects = None  # type: ignore[attr-defined]  # every registered dialect
reference_factory.endings = ENDINGS  # type: ignore[attr-defined]
