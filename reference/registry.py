"""Dialect registry: a dialect name resolves to the parts that parse it.

A *dialect* is a named wire format plus its reasoning convention and tokenizer families
(``qwen3`` = hermes JSON tool blocks + ``<think>`` reasoning, tokenized by the Qwen3 vocabulary).
Names are stable: every other part of the suite (corpus, strategies, harness, reports) keys on
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .reasoning import ReasoningParser
from .response_parser import ResponseParser
from .tags import longest_first
from .tool_parser import ToolParser
from .types import Request


@dataclass(frozen=True)
class Dialect:
    """One registered wire format and how to parse it."""

    name: str
    description: str
    tool_parser: type[ToolParser] | None = None
    reasoning_parser: type[ReasoningParser] | None = None
    #: A dedicated response parser, for formats whose channel semantics the plain /
    #: reasoning / tool machine cannot express (seed 000: Harmony).
    response_parser: type[ResponseParser] = ResponseParser
    #: Tokenizer families whose vocabulary this dialect is emitted in.
    tokenizer_families: tuple[str, ...] = ()

    def new_parser(self, request: Request | None = None, **options: Any) -> ResponseParser:
        """A fresh response parser for one response."""
        return self.response_parser(
            request,
            tool_parser=self.tool_parser,
            reasoning_parser=self.reasoning_parser,
            **options,
        )

    @property
    def filters_unknown_names(self) -> bool:
        """Whether calls to tools the request did not offer are dropped (a policy per dialect)."""
        return self.tool_parser is not None and self.tool_parser.filters_unknown_names

    def protocol_tags(self) -> dict[str, tuple[str, ...]]:
        """Every protocol tag of the dialect with the proper prefixes that can end a chunk."""
        tags: dict[str, tuple[str, ...]] = {}
        if self.reasoning_parser is not None:
            r = self.reasoning_parser
            tags[r.open_tag] = r.open_prefixes
            tags[r.close_tag] = r.close_prefixes
            tags.update(r.answer_tags)
        if self.tool_parser is not None:
            tags.update(self.tool_parser.protocol_tags())
        tags.update(self.response_parser.protocol_tags())
        return {tag: longest_first(prefixes) for tag, prefixes in tags.items()}


_DIALECTS: dict[str, Dialect] = {}
_UNLISTED: set[str] = set()


def register(dialect: Dialect, *, listed: bool = True) -> Dialect:
    """Add a dialect; names are unique.

    An unlisted dialect resolves by name but stays out of ``dialect_names()``: a private
    variant a test or a user's own suite needs, which the built-in reports should not show.
    """
    existing = _DIALECTS.get(dialect.name)
    if existing is not None and _origin(existing) != _origin(dialect):
        raise ValueError(f"dialect {dialect.name!r} is already registered")
    # The same definition again is its module being imported anew (a reload, or a test
    # runner that restores sys.modules): the new classes replace the old ones.
    _DIALECTS[dialect.name] = dialect
    if not listed:
        _UNLISTED.add(dialect.name)
    return dialect


def _origin(dialect: Dialect) -> tuple[str | None, ...]:
    """Where a dialect's parts are defined: equal for a re-import of the same module."""
    parts = (dialect.tool_parser, dialect.reasoning_parser, dialect.response_parser)
    return tuple(None if p is None else f"{p.__module__}.{p.__qualname__}" for p in parts)


def _load() -> None:
    from . import dialects  # noqa: F401  (importing registers every built-in dialect)


def get_dialect(name: str) -> Dialect:
    """The dialect called ``name``; ``KeyError`` naming the known ones otherwise."""
    _load()
    try:
        return _DIALECTS[name]
    except KeyError:
        known = ", ".join(dialect_names())
        raise KeyError(f"unknown dialect {name!r}; known dialects: {known}") from None


def dialect_names() -> list[str]:
    """All registered (listed) dialect names, sorted."""
    _load()
    return sorted(set(_DIALECTS) - _UNLISTED)
