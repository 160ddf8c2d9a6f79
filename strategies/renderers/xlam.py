"""Salesforce xLAM: ``[{"name", "arguments"}, …]``, a bare array for every call."""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import envelope_array


class XlamRenderer(Renderer):
    dialect = "xlam"
    layout = 'content, `[{"name", "arguments"}, …]`, a bare array for every call'
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return envelope_array(calls) if calls else ""

    def render(self, response: Response, variant: str | None = None) -> str:
        return response.content + self.block(response.calls) + response.content_tail


register(XlamRenderer())
