"""InternLM2 / 2.5: ``<|action_start|><|plugin|>\\n{"name", "parameters"}<|action_end|>``."""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import blocks


class InternLMRenderer(Renderer):
    dialect = "internlm"
    layout = 'content, `<|action_start|><|plugin|>\\n{"name", "parameters"}<|action_end|>`'
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, "<|action_start|><|plugin|>\n", "<|action_end|>", "parameters")


register(InternLMRenderer())
