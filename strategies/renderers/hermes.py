"""Qwen2.5 / Qwen3 (hermes): ``<tool_call>\\n{"name", "arguments"}\\n</tool_call>``.

Qwen3 writes reasoning inside ``<think>`` … ``</think>`` (the model emits the open tag
itself) and may call tools while reasoning; Qwen2.5 has no reasoning.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

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
from .json_blocks import blocks


class Qwen25Renderer(Renderer):
    dialect = "qwen25"
    layout = "content, hermes blocks"
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, "<tool_call>\n", "\n</tool_call>", "arguments")


class Qwen3Renderer(Qwen25Renderer):
    dialect = "qwen3"
    layout = (
        '`<think>…</think>`, content, `<tool_call>\\n{"name", "arguments"}\\n</tool_call>` '
        "blocks separated by `\\n`"
    )
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )
    reasoning_open = "<think>"

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)


class TrinityRenderer(Qwen3Renderer):
    dialect = "trinity"
    layout = "`<think>…</think>` by the model, content, hermes blocks"


class HermesRenderer(Renderer):
    dialect = "hermes"
    layout = "content, hermes blocks (Hermes 2/3's own template)"
    grammar = "json"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "\n".join(
            "<tool_call>\n"
            + json.dumps({"arguments": dict(call.arguments), "name": call.name}, ensure_ascii=False)
            + "\n</tool_call>"
            for call in calls
        )


register(Qwen25Renderer())
register(Qwen3Renderer())
register(TrinityRenderer())
register(HermesRenderer())
