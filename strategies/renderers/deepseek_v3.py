"""DeepSeek V3 and V3.1: a section of calls between special tokens.

``render("deepseek_v31", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1}<｜tool▁call▁end｜>
<｜tool▁calls▁end｜>'``.

As the chat templates write an assistant turn: V3 names the type before the separator and
puts the name and a fenced JSON object after it,
``<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\\n```json\\n{…}\\n```<｜tool▁call▁end｜>``,
calls separated by a newline; V3.1 writes ``<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}
<｜tool▁call▁end｜>``, calls back to back. Arguments are JSON, so every value is carried.

V3 does not reason. V3.1 reasons when the request asks for it (the template opens
``<think>``), and a section inside reasoning leaves it reasoning.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ...reference import Request
from ..responses import Call, Response
from . import (
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    REASONING_TAIL,
    Renderer,
    register,
)

SECTION_BEGIN = "<｜tool▁calls▁begin｜>"
SECTION_END = "<｜tool▁calls▁end｜>"
CALL_BEGIN = "<｜tool▁call▁begin｜>"
SEPARATOR = "<｜tool▁sep｜>"
CALL_END = "<｜tool▁call▁end｜>"


def _arguments(call: Call) -> str:
    return json.dumps(dict(call.arguments), ensure_ascii=False)


def _v3_section(calls: Sequence[Call]) -> str:
    if not calls:
        return ""
    entries = "\n".join(
        f"{CALL_BEGIN}function{SEPARATOR}{call.name}\n```json\n{_arguments(call)}\n```{CALL_END}"
        for call in calls
    )
    return SECTION_BEGIN + entries + SECTION_END


def _v31_section(calls: Sequence[Call]) -> str:
    if not calls:
        return ""
    entries = "".join(
        f"{CALL_BEGIN}{call.name}{SEPARATOR}{_arguments(call)}{CALL_END}" for call in calls
    )
    return SECTION_BEGIN + entries + SECTION_END


class DeepSeekV3Renderer(Renderer):
    dialect = "deepseek_v3"
    layout = (
        "content, `<｜tool▁calls▁begin｜>` section of "
        "`function<｜tool▁sep｜>N\\n```json\\n{…}\\n```` calls separated by `\\n`"
    )
    grammar = "section"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return _v3_section(calls)


class DeepSeekV31Renderer(Renderer):
    dialect = "deepseek_v31"
    layout = (
        "reasoning (thinking mode), `</think>`, content, a section of `N<｜tool▁sep｜>{…}` calls"
    )
    grammar = "section"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return _v31_section(calls)

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """Thinking mode exactly when the response reasons (the template opens ``<think>``)."""
        return Request(tools=tools, thinking=response.reasoning is not None)


register(DeepSeekV3Renderer())
register(DeepSeekV31Renderer())
