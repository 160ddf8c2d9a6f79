"""LongCat-Flash: ``<longcat_tool_call>\n{"name", "arguments"}\n</longcat_tool_call>`` per call."""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import blocks


class LongcatRenderer(Renderer):
    dialect = "longcat"
    layout = 'content, `<longcat_tool_call> {"name", "arguments"} </longcat_tool_call>` per call'
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, "<longcat_tool_call>\n", "\n</longcat_tool_call>", "arguments")


register(LongcatRenderer())
