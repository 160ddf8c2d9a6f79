"""dots.llm: MiniMax-M2's invokes in one ``<dots_function_call>`` block per turn.

``render("dots", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<dots_function_call>\\n<invoke name="f">\\n<parameter name="a">1</parameter>\\n
</invoke>\\n</dots_function_call>'``.

Values are written inline and typed by the tool's schema. The model opens ``<think>``
itself; a block inside reasoning leaves the model reasoning.
"""

from __future__ import annotations

from typing import Any

from ...reference import Request
from ..responses import Response
from . import register
from .minimax_m2 import MiniMaxM2Renderer


class DotsRenderer(MiniMaxM2Renderer):
    dialect = "dots"
    layout = "reasoning, content, MiniMax-M2's invokes in one `<dots_function_call>` block per turn"
    open_tag = "<dots_function_call>"
    close_tag = "</dots_function_call>"
    reasoning_open = "<think>"

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """Any request: reasoning is where the model opens it."""
        return Request(tools=tools)


register(DotsRenderer())
