"""IBM Granite: hermes blocks (Granite 4), ``<|tool_call|>[…]`` (3.x), ``<function_call> {…}``.

- ``granite4``: ``<tool_call>\n{"name", "arguments"}\n</tool_call>`` per call, a newline between;
- ``granite``: ``<|tool_call|>[{"name", "arguments"}, …]``, one array for every call;
- ``granite_20b_fc``: ``<function_call> {"name", "arguments"}`` per call, a space between.

None has a close tag but Granite 4's; text after the JSON is content. No reasoning channel.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .json_blocks import blocks, envelope, envelope_array


class Granite4Renderer(Renderer):
    dialect = "granite4"
    layout = "content, then hermes blocks, one per call, a newline between"
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, "<tool_call>\n", "\n</tool_call>", "arguments")


class GraniteRenderer(Renderer):
    dialect = "granite"
    layout = 'content, then `<|tool_call|>[{"name", "arguments"}, …]`, one array for every call'
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "<|tool_call|>" + envelope_array(calls) if calls else ""


class Granite20bFCRenderer(Renderer):
    dialect = "granite_20b_fc"
    layout = 'content, then `<function_call> {"name", "arguments"}` per call, a space between'
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return " ".join("<function_call> " + envelope(call, "arguments") for call in calls)


register(Granite4Renderer())
register(GraniteRenderer())
register(Granite20bFCRenderer())
