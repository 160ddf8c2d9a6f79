"""Pythonic call lists: ``pythonic`` (Llama 3.2, ToolACE), ``llama4_pythonic``, ``lfm2``.

``render("pythonic", Response(content="Hi ", calls=(Call("f", {"a": 1}),)))`` →
``'Hi [f(a=1)]'``. All calls of a response are one list; ``llama4_pythonic`` wraps it in
``<|python_start|>`` … ``<|python_end|>``, ``lfm2`` in ``<|tool_call_start|>`` …
``<|tool_call_end|>``. A value that holds the close tag is refused: the dedicated token
ends the block wherever it stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .python_calls import call_literal, holds


class PythonicRenderer(Renderer):
    dialect = "pythonic"
    layout = (
        "content, a bare list `[N(k=v, …), …]` of Python call literals (`repr` strings, "
        "`True`/`None`), text after it"
    )
    grammar = "pythonic"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    #: The markers around the list ("" for a bare list).
    open_tag: ClassVar[str] = ""
    close_tag: ClassVar[str] = ""

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        listed = ", ".join(call_literal(call) for call in calls)
        return f"{self.open_tag}[{listed}]{self.close_tag}"

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        if self.close_tag and holds(dict(call.arguments), self.close_tag):
            return None
        return call


class Llama4PythonicRenderer(PythonicRenderer):
    dialect = "llama4_pythonic"
    layout = (
        "content, the list inside `<|python_start|>` … `<|python_end|>` / "
        "`<|tool_call_start|>` … `<|tool_call_end|>`"
    )
    open_tag = "<|python_start|>"
    close_tag = "<|python_end|>"


class Lfm2Renderer(PythonicRenderer):
    dialect = "lfm2"
    layout = (
        "content, the list inside `<|python_start|>` … `<|python_end|>` / "
        "`<|tool_call_start|>` … `<|tool_call_end|>`"
    )
    open_tag = "<|tool_call_start|>"
    close_tag = "<|tool_call_end|>"


register(PythonicRenderer())
register(Llama4PythonicRenderer())
register(Lfm2Renderer())
