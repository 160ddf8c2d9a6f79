"""Hunyuan-A13B: ``<think>R</think>\n<answer>\nA<tool_calls>[…]</tool_calls>\n</answer>``.

The model writes the think block itself (none when the request does not think) and wraps
the whole answer, its tool block included, in ``<answer>`` … ``</answer>``; every call goes
into one ``<tool_calls>`` array. The wrapper's newlines are layout, so an answer of newlines
alone, or newlines alone before or after the block, do not read back.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register
from .json_blocks import envelope_array


class HunyuanA13BRenderer(Renderer):
    dialect = "hunyuan_a13b"
    layout = (
        "`<think>R</think>`, `<answer>` content with a `<tool_calls>[…]</tool_calls>` block "
        "`</answer>`"
    )
    grammar = "json"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "<tool_calls>" + envelope_array(calls) + "</tool_calls>" if calls else ""

    def render(self, response: Response, variant: str | None = None) -> str:
        text = ""
        if response.reasoning is not None:
            text = "<think>" + response.reasoning + "</think>\n"
        answer = self.content_text(response, variant)
        return text + "<answer>\n" + answer + "\n</answer>"

    def carries(self, response: Response) -> bool:
        """Newlines alone as the answer, before the block or after it, are the wrapper's
        layout (``<answer>\n\n<tool_calls>`` reads back no content before the block)."""
        return all(
            part.strip("\n") != "" or not part
            for part in (
                response.content + response.content_tail,
                response.content if response.calls else "",
                response.content_tail,
            )
        )


register(HunyuanA13BRenderer())
