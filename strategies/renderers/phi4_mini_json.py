"""Phi-4-mini: ``functools[{"name", "arguments"}, …]``, one array for every call."""

from __future__ import annotations

from ..responses import Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import envelope_array


class Phi4MiniJsonRenderer(Renderer):
    dialect = "phi4_mini_json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def render(self, response: Response, variant: str | None = None) -> str:
        calls = "functools" + envelope_array(response.calls) if response.calls else ""
        return response.content + calls + response.content_tail


register(Phi4MiniJsonRenderer())
