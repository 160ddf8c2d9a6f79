"""ERNIE-4.5 Thinking: ``R</think>\n\n<response>\nA\n</response>``, hermes blocks after it.

The template opens reasoning, so the text starts with it; ``</think>`` always comes (with
nothing before it when the model has nothing to think). The answer is wrapped in
``<response>`` … ``</response>``; tool blocks follow it, a blank line before each group, as
the model writes ``</think>\n\n\n<tool_call>``. The newlines of the wrapper are layout, so
an answer of newlines alone does not read back.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register
from .json_blocks import blocks


class Ernie45Renderer(Renderer):
    dialect = "ernie45"
    layout = (
        "reasoning (opened by the template), `</think>`, `<response>` content `</response>`, "
        "hermes blocks after it"
    )
    grammar = "json"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, "<tool_call>\n", "\n</tool_call>", "arguments")

    def render(self, response: Response, variant: str | None = None) -> str:
        text = (response.reasoning or "") + "</think>"
        if response.content:
            text += "\n\n<response>\n" + response.content + "\n</response>"
        if response.calls:
            text += "\n\n" + self.block(response.calls)
        return text + response.content_tail

    def carries(self, response: Response) -> bool:
        return response.content.strip("\n") != "" or response.content == ""


register(Ernie45Renderer())
