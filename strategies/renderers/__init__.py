"""Renderers: structured responses → the text a model of each dialect emits.

A renderer is the inverse of a dialect's parser: ``render(response)`` writes the reasoning,
content and calls of a ``Response`` with the dialect's protocol text, following the chat
template conventions of the models that speak it, and ``request(response, tools)`` gives
the chat request that makes the parser read it that way (tools, thinking flag).

Adding a renderer for a new dialect is one module in this package:

1. create ``strategies/renderers/<name>.py`` with a ``Renderer`` subclass that sets
   ``dialect`` (the registered dialect name), ``supports`` (what its responses may contain)
   and implements ``render``; call ``register(MyRenderer())`` at the bottom;
2. add the module to ``_MODULES`` below.

The round-trip tests then cover the dialect with every tokenizer family it declares.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from hypothesis.errors import InvalidArgument

from ...reference import Request
from ..responses import Response

#: What a response may contain, as a renderer declares it.
REASONING = "reasoning"  # a reasoning channel
CALLS = "calls"  # tool calls after the content
MULTIPLE_CALLS = "multiple_calls"  # more than one call in a row
REASONING_CALLS = "reasoning_calls"  # tool blocks inside reasoning
CONTENT_TAIL = "content_tail"  # text after the tool blocks


class Renderer:
    """Base of every dialect's renderer."""

    #: The registered dialect name this renderer writes.
    dialect: ClassVar[str]
    #: The response features this dialect can express (see the constants above).
    supports: ClassVar[frozenset[str]] = frozenset()

    def render(self, response: Response) -> str:
        """The model output text for ``response``."""
        raise NotImplementedError

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """The request under which the parser reads ``render(response)`` back.

        By default reasoning is switched off when the response has none, so that dialects
        whose output starts inside reasoning read it as content.
        """
        return Request(tools=tools, thinking=False if response.reasoning is None else None)


_RENDERERS: dict[str, Renderer] = {}
_MODULES = ("hermes", "internlm", "llama3", "deepseek_r1")


def register(renderer: Renderer) -> Renderer:
    """Add the renderer of one dialect; one renderer per dialect."""
    if renderer.dialect in _RENDERERS:
        raise ValueError(f"a renderer for dialect {renderer.dialect!r} is already registered")
    _RENDERERS[renderer.dialect] = renderer
    return renderer


def _load() -> None:
    for module in _MODULES:
        importlib.import_module(f"{__name__}.{module}")


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


def render(dialect: str, response: Response) -> str:
    """``response`` as a model of ``dialect`` writes it."""
    return get_renderer(dialect).render(response)
