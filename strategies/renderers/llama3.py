"""Llama 3.1-3.3 JSON tools: ``<|python_tag|>{"name", "parameters"}``, no close tag.

The engine stops at ``<|eom_id|>`` / ``<|eot_id|>`` and does not stream it, so the rendered
text ends with the JSON (or with text the model wrote after it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import blocks


class Llama3JsonRenderer(Renderer):
    dialect = "llama3_json"
    layout = (
        'content, `<|python_tag|>{"name", "parameters"}` per call (the engine does not '
        "stream `<|eom_id|>`)"
    )
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, "<|python_tag|>", "", "parameters")


register(Llama3JsonRenderer())
