"""Kimi K2 / K2.5: a section of calls whose header is the call id ``functions.NAME:IDX``.

``render("kimi_k2", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>
{"a": 1}<|tool_call_end|><|tool_calls_section_end|>'``.

The id counts the response's calls from 0, as Kimi's models number them within a turn;
calls sit back to back in one section. Arguments are JSON, so every value is carried.

Reasoning: the model opens ``<think>`` (the parser also reads a response that starts in
reasoning without it) and closes it with ``</think>``; a tool section inside reasoning ends
reasoning, so the text after it is the answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..responses import Call, Response
from . import (
    BLOCK_SEPARATORS,
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    Renderer,
    register,
)


def section(calls: Sequence[Call], first_index: int) -> str:
    """The calls in one section, numbered from ``first_index`` ("" for none)."""
    if not calls:
        return ""
    entries = "".join(
        f"<|tool_call_begin|>functions.{call.name}:{index}<|tool_call_argument_begin|>"
        f"{json.dumps(dict(call.arguments), ensure_ascii=False)}<|tool_call_end|>"
        for index, call in enumerate(calls, first_index)
    )
    return f"<|tool_calls_section_begin|>{entries}<|tool_calls_section_end|>"


class KimiK2Renderer(Renderer):
    dialect = "kimi_k2"
    layout = (
        "`<think>…</think>`, content, a `<|tool_calls_section_begin|>` section of "
        "`functions.N:IDX<|tool_call_argument_begin|>{…}` calls (IDX counts the response's "
        "calls)"
    )
    grammar = "section"
    supports = frozenset({REASONING, REASONING_CALLS, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return section(calls, 0)

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = ""
        if response.reasoning is not None:
            # A tool section ends reasoning by itself; otherwise the model closes it.
            reasoning = "<think>" + response.reasoning
            reasoning += section(response.reasoning_calls, 0) or "</think>"
        calls = section(response.calls, len(response.reasoning_calls))
        return reasoning + response.content + calls + response.content_tail

    def carries(self, response: Response) -> bool:
        """Not an answer of newlines alone between the reasoning's section and its own: the
        parser takes newlines between two consecutive sections for their separator."""
        return not (
            response.reasoning_calls
            and response.calls
            and response.content
            and not response.content.strip(BLOCK_SEPARATORS)
        )


register(KimiK2Renderer())
