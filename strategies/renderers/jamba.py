"""AI21 Jamba: ``<tool_calls>[{"name", "arguments"}, …]</tool_calls>``, one block for every call."""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import envelope_array


class JambaRenderer(Renderer):
    dialect = "jamba"
    layout = (
        'content, `<tool_calls>[{"name", "arguments"}, …]</tool_calls>`, one block for every call'
    )
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "<tool_calls>" + envelope_array(calls) + "</tool_calls>" if calls else ""


register(JambaRenderer())
