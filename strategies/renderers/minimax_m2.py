"""MiniMax-M2: ``<minimax:tool_call>`` blocks of ``<invoke name="…">`` calls.

``render("minimax_m2", Response(calls=(Call("f", {"a": 1}),)))`` →
``'</think><minimax:tool_call>\\n<invoke name="f">\\n<parameter name="a">1</parameter>\\n
</invoke>\\n</minimax:tool_call>'``.

As the chat template writes them: one block holds every call of a turn, each invoke and
parameter on its own line, values typed by the tool's schema (``typed_values``) and written
inline between their tags, whitespace and all: the parser keeps a value verbatim.

The template ends every prompt with ``<think>\\n`` and has no thinking switch: the output
is always reasoning first, closed by ``</think>`` (right away when the model has nothing to
think), and a tool block inside reasoning leaves the model reasoning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..responses import Call, Response
from . import (
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    REASONING_TAIL,
    Renderer,
    register,
)
from .typed_values import fit_typed_call, value_text

#: What ends a value in this format, so no value may contain it.
VALUE_END_TAGS = ("</parameter>", "</invoke>", "</minimax:tool_call>")


def _invoke(call: Call) -> str:
    parameters = "".join(
        f'<parameter name="{key}">{value_text(value)}</parameter>\n'
        for key, value in call.arguments.items()
    )
    return f'<invoke name="{call.name}">\n{parameters}</invoke>\n'


def block(calls: Sequence[Call]) -> str:
    """All the calls in one block ("" for none)."""
    if not calls:
        return ""
    return "<minimax:tool_call>\n" + "".join(map(_invoke, calls)) + "</minimax:tool_call>"


class MiniMaxM2Renderer(Renderer):
    dialect = "minimax_m2"
    grammar = "xml"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return block(calls)

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = (
            (response.reasoning or "")
            + self.block(response.reasoning_calls)
            + response.reasoning_tail
            + "</think>"
        )
        return reasoning + response.content + self.block(response.calls) + response.content_tail

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        return fit_typed_call(call, parameters, value_end_tags=VALUE_END_TAGS)


register(MiniMaxM2Renderer())
