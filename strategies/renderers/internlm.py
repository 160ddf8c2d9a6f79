"""InternLM2 / 2.5: ``<|action_start|><|plugin|>\\n{"name", "parameters"}<|action_end|>``."""

from __future__ import annotations

from ..responses import Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import blocks


class InternLMRenderer(Renderer):
    dialect = "internlm"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def render(self, response: Response) -> str:
        calls = blocks(
            response.calls, "<|action_start|><|plugin|>\n", "<|action_end|>", "parameters"
        )
        return response.content + calls + response.content_tail


register(InternLMRenderer())
