"""DeepSeek-R1 and Holo2: the chat template opens ``<think>``; the model writes reasoning, then
``</think>``, then the answer. No tool syntax in these dialects. Holo2 writes the same text
as DeepSeek-R1, with Qwen3's tokenizer."""

from __future__ import annotations

from ..responses import Response
from . import REASONING, Renderer, register


class DeepSeekR1Renderer(Renderer):
    dialect = "deepseek_r1"
    layout = "reasoning (the template opened `<think>`), `</think>`, content"
    grammar = "reasoning"
    supports = frozenset({REASONING})

    def render(self, response: Response, variant: str | None = None) -> str:
        if response.reasoning is None:
            return response.content
        return response.reasoning + "</think>" + response.content


class Holo2Renderer(DeepSeekR1Renderer):
    dialect = "holo2"
    layout = "reasoning (the template opened `<think>`), `</think>`, content"


register(DeepSeekR1Renderer())
register(Holo2Renderer())
