"""Renderers: structured responses → the text a model of each dialect emits.

A renderer is the inverse of a dialect's parser: ``render(response)`` writes the reasoning,
content and calls of a ``Response`` with the dialect's protocol text, following the chat
template conventions of the models that speak it, and ``request(response, tools)`` gives
the chat request that makes the parser read it that way (tools, thinking flag).

Not every value survives every format: an XML-like format types bare text by the tool's
schema (``"3"`` comes back as ``3`` where integers are allowed), a value may not contain the
tag that ends it, a layout may eat surrounding whitespace. ``fit_call``, ``fit_text`` and
``carries`` keep the drawn responses to what the format carries, so the response stays the
oracle. A format with several layouts that parse alike lists them in ``variants``.

A renderer also writes a run of calls on its own (``block``): what ``render`` puts after the
content, and what the fuzzer splices between arbitrary pieces of output, whole or broken in
one place. Its ``grammar`` names the family of wire formats it belongs to; dialects of one
grammar are fuzzed together (``harness.fuzzing.grammars``).

Adding a renderer for a new dialect is one module in this package, found by itself (every
module here is imported on first use; no list to keep), named as the dialect's module in
``reference/dialects/`` (the two are the dialect's bundle): create
``strategies/renderers/<name>.py`` with a ``Renderer`` subclass that sets ``dialect`` (the
registered dialect name), ``layout`` (what the model writes, for docs/dialects.md),
``grammar``, ``supports`` (what its responses may contain) and
implements ``block`` when it supports calls, and ``render`` where the layout is not the
content, the calls' block and the text after it (``content_text``), preceded, where the
format reasons, by ``reasoning_text``; then call ``register(MyRenderer())`` at the bottom.

The round-trip tests then cover the dialect with every tokenizer family it declares.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from hypothesis.errors import InvalidArgument

from ...reference import Request
from ..responses import Call, Response

#: What a response may contain, as a renderer declares it.
REASONING = "reasoning"  # a reasoning channel
CALLS = "calls"  # tool calls after the content
MULTIPLE_CALLS = "multiple_calls"  # more than one call in a row
REASONING_CALLS = "reasoning_calls"  # tool blocks inside reasoning
REASONING_TAIL = "reasoning_tail"  # reasoning that goes on after those blocks
CONTENT_TAIL = "content_tail"  # text after the tool blocks
#: Each of them in words, in the order a response is written (docs/dialects.md says them).
FEATURES = {
    REASONING: "reasoning",
    REASONING_CALLS: "calls while reasoning",
    REASONING_TAIL: "reasoning after a call",
    CALLS: "calls",
    MULTIPLE_CALLS: "several calls",
    CONTENT_TAIL: "text after the calls",
}

#: What the response parsers drop between two consecutive tool blocks (seed 000).
BLOCK_SEPARATORS = "\r\n"


class Renderer:
    """Base of every dialect's renderer."""

    #: The registered dialect name this renderer writes.
    dialect: ClassVar[str]
    #: What the model writes in this dialect, in a line of Markdown: the documentation of
    #: the dialect (``toolconform dialects --format markdown`` makes docs/dialects.md of it).
    layout: ClassVar[str]
    #: The family of wire formats that share this one's grammar (``json``, ``xml`` …):
    #: they are fuzzed together, with the same fragments.
    grammar: ClassVar[str]
    #: The response features this dialect can express (see the constants above).
    supports: ClassVar[frozenset[str]] = frozenset()
    #: Alternative layouts of the format that the parser reads alike (Mistral's array and
    #: ``NAME[ARGS]`` forms); the first is the default. Empty: one layout.
    variants: ClassVar[tuple[str, ...]] = ()
    #: What the model writes to open reasoning ("": the chat template already did) and to
    #: close it, in ``reasoning_text``.
    reasoning_open: ClassVar[str] = ""
    reasoning_close: ClassVar[str] = "</think>"

    def render(self, response: Response, variant: str | None = None) -> str:
        """The model output text for ``response``, in ``variant`` (default: the first).

        By default ``content_text``, the layout of a format without reasoning; most formats
        with reasoning write ``reasoning_text`` before it. Only a layout unlike these is
        written by its own renderer.
        """
        return self.content_text(response, variant)

    def reasoning_text(self, response: Response) -> str:
        """The reasoning channel as the model writes it: ``reasoning_open``, the reasoning,
        the block of the calls in it, the reasoning after them, ``reasoning_close`` ("" for a
        response without reasoning, as every response of a format without it is)."""
        if response.reasoning is None:
            return ""
        return (
            self.reasoning_open
            + response.reasoning
            + self.block(response.reasoning_calls)
            + response.reasoning_tail
            + self.reasoning_close
        )

    def content_text(self, response: Response, variant: str | None = None) -> str:
        """The answer after the reasoning: the content, the block of its calls, the text
        after them."""
        return response.content + self.block(response.calls, variant) + response.content_tail

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """The protocol text of ``calls`` alone, in ``variant`` ("" for none): what ``render``
        writes for the calls after the content, and a stretch that may stand between any
        two pieces of text. Only formats that support ``calls`` have one.

        ``get_renderer("qwen25").block((Call("f", {}),))`` →
        ``'<tool_call>\\n{"name": "f", "arguments": {}}\\n</tool_call>'``.
        """
        raise InvalidArgument(f"dialect {self.dialect!r} has no tool calls to write")

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """The request under which the parser reads ``render(response)`` back.

        By default reasoning is switched off when the response has none, so that dialects
        whose output starts inside reasoning read it as content.
        """
        return Request(tools=tools, thinking=False if response.reasoning is None else None)

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        """``call`` as this format can carry it, or ``None`` when it cannot.

        ``parameters`` is the called tool's parameters schema (``None``: a tool the request
        does not offer). The result is the call itself, or the call with values the layout
        would change normalized (MiniMax strips a value's surrounding whitespace); ``None``
        makes the strategy draw another call. By default every call is carried.
        """
        return call

    def fit_text(self, text: str) -> str:
        """Free text as this format carries it around its blocks (by default unchanged)."""
        return text

    def carries(self, response: Response) -> bool:
        """Whether the format reads ``response`` back as written, where no single call or
        text decides it (``False`` makes the strategy draw another). By default, always."""
        return True


_RENDERERS: dict[str, Renderer] = {}
_LOADED: list[bool] = []


def register(renderer: Renderer) -> Renderer:
    """Add the renderer of one dialect; one renderer per dialect."""
    if renderer.dialect in _RENDERERS:
        raise ValueError(f"a renderer for dialect {renderer.dialect!r} is already registered")
    _RENDERERS[renderer.dialect] = renderer
    return renderer


def _load() -> None:
    """Import every module of this package once: each renderer registers itself."""
    if _LOADED:
        return
    _LOADED.append(True)
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


def renderer_names() -> list[str]:
    """The dialects that have a renderer, sorted."""
    _load()
    return sorted(_RENDERERS)


def get_renderer(dialect: str) -> Renderer:
    """The renderer of ``dialect``; ``InvalidArgument`` naming the rendered dialects otherwise."""
    _load()
    try:
        return _RENDERERS[dialect]
    except KeyError:
        known = ", ".join(sorted(_RENDERERS))
        raise InvalidArgument(
            f"dialect {dialect!r} has no renderer; dialects with one: {known}"
        ) from None


def render(dialect: str, response: Response, variant: str | None = None) -> str:
    """``response`` as a model of ``dialect`` writes it, in one of the renderer's
    ``variants`` (default: the first)."""
    renderer = get_renderer(dialect)
    if variant is not None and variant not in renderer.variants:
        known = ", ".join(renderer.variants) or "none"
        raise InvalidArgument(
            f"variant={variant!r} is not a layout of {dialect!r}; its variants: {known}"
        )
    return renderer.render(response, variant)
