"""PLaMo 3: a section of requests, each a name and a JSON object between their markers.

``render("plamo3", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>'
'<|plamo:begin_tool_name:plamo|>f<|plamo:end_tool_name:plamo|>'
'<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"a": 1}'
'<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>'
'<|plamo:end_tool_requests:plamo|>'``.

The output starts inside reasoning (closed by ``<|plamo:end_think:plamo|>``) when the
response reasons; a section inside reasoning would end it, so calls come after it only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register

# Written out from vLLM's grammar (vllm/parser/plamo3.py), not taken from the reference.
BEGIN_REQUESTS = "<|plamo:begin_tool_requests:plamo|>"
END_REQUESTS = "<|plamo:end_tool_requests:plamo|>"
BEGIN_REQUEST = "<|plamo:begin_tool_request:plamo|>"
END_REQUEST = "<|plamo:end_tool_request:plamo|>"
BEGIN_NAME = "<|plamo:begin_tool_name:plamo|>"
END_NAME = "<|plamo:end_tool_name:plamo|>"
BEGIN_ARGUMENTS = "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>"
END_ARGUMENTS = "<|plamo:end_tool_arguments:plamo|>"
END_THINK = "<|plamo:end_think:plamo|>"


class Plamo3Renderer(Renderer):
    dialect = "plamo3"
    layout = "content, a section of requests, each a name and a JSON object between their markers"
    grammar = "section"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        requests = "".join(
            f"{BEGIN_REQUEST}{BEGIN_NAME}{call.name}{END_NAME}{BEGIN_ARGUMENTS}"
            f"{json.dumps(dict(call.arguments), ensure_ascii=False)}{END_ARGUMENTS}{END_REQUEST}"
            for call in calls
        )
        return BEGIN_REQUESTS + requests + END_REQUESTS

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = "" if response.reasoning is None else response.reasoning + END_THINK
        return reasoning + response.content + self.block(response.calls) + response.content_tail


register(Plamo3Renderer())
