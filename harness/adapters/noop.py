"""The built-in ``noop`` adapter: takes every chunk and parses nothing.

It is the floor of every throughput report: what one call per chunk through the adapter
contract costs before any parsing. It certifies nothing (it returns no deltas at all).
"""

from __future__ import annotations

from typing import Any

from ... import __version__


class NoopSession:
    def __init__(self) -> None:
        self.chunks: list[str] = []

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        self.chunks.append(text)
        return []

    def finish(self) -> list[dict[str, Any]]:
        return []


def noop_factory(
    dialect: str, request: dict[str, Any], *, tokenizer_family: str | None = None
) -> NoopSession:
    return NoopSession()


noop_factory.implementation = {  # type: ignore[attr-defined]
    "name": "noop",
    "version": __version__,
    "language": "python",
}
