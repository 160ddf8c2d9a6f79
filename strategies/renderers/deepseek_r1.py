"""DeepSeek-R1: the chat template opens ``<think>``; the model writes reasoning, then
``</think>``, then the answer. No tool syntax in this dialect."""

from __future__ import annotations

from ..responses import Response
from . import REASONING, Renderer, register


class DeepSeekR1Renderer(Renderer):
    dialect = "deepseek_r1"
    grammar = "reasoning"
    supports = frozenset({REASONING})

    def render(self, response: Response, variant: str | None = None) -> str:
        if response.reasoning is None:
            return response.content
        return response.reasoning + "</think>" + response.content


register(DeepSeekR1Renderer())
