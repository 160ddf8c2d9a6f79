"""Inkling: one typed message block per part of the response.

``render("inkling", Response(content="Hi", calls=(Call("f", {"a": 1}),)))`` →
``'<|message_model|><|content_text|>Hi<|end_message|><|message_model|>f'
'<|content_invoke_tool_json|>{"name": "f", "args": {"a": 1}}<|end_message|>'``.

Reasoning is a thinking block, content and the text after the calls are text blocks, each
call a tool block that names its function before the content kind (as SGLang's detector
writes it). Text made only of newlines is not carried: a text block's markers are
protocol, and newlines between them and another marker are layout.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register

# Written out from vLLM's grammar (vllm/parser/inkling.py), not taken from the reference.
MESSAGE_MODEL = "<|message_model|>"
CONTENT_TEXT = "<|content_text|>"
CONTENT_THINKING = "<|content_thinking|>"
CONTENT_TOOL_JSON = "<|content_invoke_tool_json|>"
END_MESSAGE = "<|end_message|>"


def _text_block(text: str) -> str:
    return f"{MESSAGE_MODEL}{CONTENT_TEXT}{text}{END_MESSAGE}" if text else ""


class InklingRenderer(Renderer):
    dialect = "inkling"
    layout = "one typed message block per part of the response (reasoning, content, each call)"
    grammar = "json"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "".join(
            f"{MESSAGE_MODEL}{call.name}{CONTENT_TOOL_JSON}"
            + json.dumps({"name": call.name, "args": dict(call.arguments)}, ensure_ascii=False)
            + END_MESSAGE
            for call in calls
        )

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = ""
        if response.reasoning is not None:
            reasoning = f"{MESSAGE_MODEL}{CONTENT_THINKING}{response.reasoning}{END_MESSAGE}"
        return (
            reasoning
            + _text_block(response.content)
            + self.block(response.calls)
            + _text_block(response.content_tail)
        )

    def carries(self, response: Response) -> bool:
        return all(
            text == "" or text.strip("\r\n") != ""
            for text in (response.content, response.content_tail)
        )


register(InklingRenderer())
