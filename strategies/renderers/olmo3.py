"""OLMo 3: reasoning (the template opened ``<think>``), ``</think>``, the answer, and the
calls one per line in ``<function_calls>`` … ``</function_calls>``, JSON literals as OLMo
writes them.

``render("olmo3", Response(calls=(Call("f", {"a": None}), Call("g", {}))))`` →
``'<function_calls>f(a=null)\\ng()</function_calls>'``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register
from .python_calls import call_literal, holds

_CLOSE = "</function_calls>"


class Olmo3Renderer(Renderer):
    dialect = "olmo3"
    layout = (
        "reasoning (opened by the template), `</think>`, content, `<function_calls>` with one "
        "call literal per line"
    )
    grammar = "pythonic"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        lines = "\n".join(call_literal(call, json_literals=True) for call in calls)
        return f"<function_calls>{lines}{_CLOSE}"

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = "" if response.reasoning is None else response.reasoning + "</think>"
        return reasoning + self.content_text(response, variant)

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        return None if holds(dict(call.arguments), _CLOSE) else call


register(Olmo3Renderer())
