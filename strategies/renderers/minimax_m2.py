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
from typing import Any, ClassVar

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


class MiniMaxM2Renderer(Renderer):
    """MiniMax-M2's layout; the dialects of the same invokes set the block's tags."""

    dialect = "minimax_m2"
    layout = (
        "reasoning (always: the template opened `<think>`), `</think>`, content, one "
        '`<minimax:tool_call>` block of `<invoke name="N">` / `<parameter '
        'name="K">V</parameter>` lines'
    )
    grammar = "xml"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )
    open_tag: ClassVar[str] = "<minimax:tool_call>"
    close_tag: ClassVar[str] = "</minimax:tool_call>"
    #: The invoke's and the parameter's tag names (Step-3 writes ``steptml:invoke`` …).
    invoke_tag: ClassVar[str] = "invoke"
    parameter_tag: ClassVar[str] = "parameter"

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = (
            (response.reasoning or "")
            + self.block(response.reasoning_calls)
            + response.reasoning_tail
            + "</think>"
        )
        return reasoning + self.content_text(response, variant)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """All the calls in one block ("" for none)."""
        if not calls:
            return ""
        return f"{self.open_tag}\n" + "".join(map(self.invoke, calls)) + self.close_tag

    def invoke(self, call: Call) -> str:
        """One invoke, each parameter on its own line, values inline."""
        invoke, parameter = self.invoke_tag, self.parameter_tag
        parameters = "".join(
            f'<{parameter} name="{key}">{value_text(value)}</{parameter}>\n'
            for key, value in call.arguments.items()
        )
        return f'<{invoke} name="{call.name}">\n{parameters}</{invoke}>\n'

    def value_end_tags(self) -> tuple[str, ...]:
        """What ends a value, so no value may contain it."""
        return (f"</{self.parameter_tag}>", f"</{self.invoke_tag}>", self.close_tag)

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        return fit_typed_call(call, parameters, value_end_tags=self.value_end_tags())


register(MiniMaxM2Renderer())
