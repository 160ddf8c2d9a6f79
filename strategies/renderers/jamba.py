"""AI21 Jamba: ``<tool_calls>[{"name", "arguments"}, …]</tool_calls>``, one block for every call."""

from __future__ import annotations

from ..responses import Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import envelope_array


class JambaRenderer(Renderer):
    dialect = "jamba"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def render(self, response: Response, variant: str | None = None) -> str:
        calls = ""
        if response.calls:
            calls = "<tool_calls>" + envelope_array(response.calls) + "</tool_calls>"
        return response.content + calls + response.content_tail


register(JambaRenderer())
