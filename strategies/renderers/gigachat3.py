"""GigaChat 3 / 3.1: the content, then one call after its header; the turn ends with it.

``render("gigachat31", Response(content="Hi", calls=(Call("f", {"a": 1}),)))`` →
``'Hi<|function_call|>{"name": "f", "arguments": {"a": 1}}'``. One call per response and
no text after it: the formats have no more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..responses import Call, Response
from . import CALLS, Renderer, register
from .json_blocks import envelope


class GigaChat3Renderer(Renderer):
    dialect = "gigachat3"
    layout = "content, then one call after its header; the turn ends with it"
    grammar = "json"
    supports = frozenset({CALLS})
    header: ClassVar[str] = "<|message_sep|>\n\nfunction call<|role_sep|>\n"

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "".join(self.header + envelope(call, "arguments") for call in calls)

    def render(self, response: Response, variant: str | None = None) -> str:
        return response.content + self.block(response.calls)


class GigaChat31Renderer(GigaChat3Renderer):
    dialect = "gigachat31"
    layout = "content, then one call after its header; the turn ends with it"
    header = "<|function_call|>"


register(GigaChat3Renderer())
register(GigaChat31Renderer())
