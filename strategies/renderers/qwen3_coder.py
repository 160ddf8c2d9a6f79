"""Qwen3-Coder and Qwen3.5 / 3.6: XML-like calls, one ``<tool_call>`` block per call.

``render("qwen3_coder", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_call>\\n<function=f>\\n<parameter=a>\\n1\\n</parameter>\\n</function>\\n</tool_call>'``.

The layout is the chat template's: ``<function=NAME>``, then per argument
``<parameter=KEY>\\nVALUE\\n</parameter>``, every tag on its own line; the newline after
``<parameter=KEY>`` and the one before ``</parameter>`` are layout, not value. Consecutive
blocks are separated by a newline (the template's, dropped by the parser). Values are
typed by the tool's schema (``typed_values``); a string ending in ``\\r`` is not carried,
since the layout newline after it would make a ``\\r\\n`` that the parser strips whole.

Qwen3.5's template ends the prompt inside ``<think>``: the model writes its reasoning, may
call tools in it (reasoning goes on after the block), and closes it with ``</think>``
(Granite 4.2: ``</think>`` and a newline).
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

#: What ends a value in this format, so no value may contain it (besides the block's close).
VALUE_END_TAGS = ("</parameter>", "<parameter=", "</function>")


def _without_trailing_carriage_return(value: str) -> str | None:
    return None if value.endswith("\r") else value


class Qwen3CoderRenderer(Renderer):
    """Qwen3-Coder's layout; the dialects of the same grammar set the attributes below."""

    dialect = "qwen3_coder"
    layout = (
        "content, "
        "`<tool_call>\\n<function=N>\\n<parameter=K>\\nV\\n</parameter>"
        "\\n</function>\\n</tool_call>` "
        "per call, separated by `\\n`"
    )
    grammar = "xml"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    #: The block's tags.
    open_tag: ClassVar[str] = "<tool_call>"
    close_tag: ClassVar[str] = "</tool_call>"
    #: What stands between a parameter's tags and its value (the template's newline;
    #: MiMo writes values inline).
    value_layout: ClassVar[str] = "\n"

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """One block per call, consecutive blocks separated by a newline."""
        return "\n".join(self._block(call) for call in calls)

    def _block(self, call: Call) -> str:
        n = self.value_layout
        parameters = "".join(
            f"<parameter={key}>{n}{value_text(value)}{n}</parameter>\n"
            for key, value in call.arguments.items()
        )
        return f"{self.open_tag}\n<function={call.name}>\n{parameters}</function>\n{self.close_tag}"

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        return fit_typed_call(
            call,
            parameters,
            value_end_tags=(*VALUE_END_TAGS, self.close_tag),
            fit_string=_without_trailing_carriage_return if self.value_layout else None,
        )


class Qwen35Renderer(Qwen3CoderRenderer):
    """Qwen3.5's template opens ``<think>``; the model reasons, may call tools in it
    (reasoning goes on after the block) and closes it."""

    dialect = "qwen35"
    layout = "reasoning (the template opened `<think>`), `</think>`, then as `qwen3_coder`"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)


class Nemotron3Renderer(Qwen35Renderer):
    """NVIDIA Nemotron 3 writes Qwen3.5's text (its template opens ``<think>`` too)."""

    dialect = "nemotron3"
    layout = "reasoning (the template opened `<think>`), `</think>`, then as `qwen3_coder`"


class Granite42Renderer(Qwen35Renderer):
    """IBM Granite 4.2 writes Nemotron 3's text with the template's newline after
    ``</think>``. That newline and any the answer begins with are layout, so an answer that
    begins with a newline after reasoning does not read back."""

    dialect = "granite42"
    layout = (
        "as `nemotron3`, with the template's `</think>\\n` (the answer must not begin with a "
        "newline: it would be layout)"
    )
    reasoning_close = "</think>\n"

    def carries(self, response: Response) -> bool:
        return response.reasoning is None or not self.content_text(response).startswith("\n")


register(Qwen3CoderRenderer())
register(Qwen35Renderer())
register(Nemotron3Renderer())
register(Granite42Renderer())
