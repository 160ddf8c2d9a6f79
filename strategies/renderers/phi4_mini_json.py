"""Phi-4-mini: ``functools[{"name", "arguments"}, …]``, one array for every call."""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import envelope_array


class Phi4MiniJsonRenderer(Renderer):
    dialect = "phi4_mini_json"
    layout = 'content, `functools[{"name", "arguments"}, …]`, one array for every call'
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "functools" + envelope_array(calls) if calls else ""


register(Phi4MiniJsonRenderer())
