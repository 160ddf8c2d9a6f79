"""Ling 3: GLM-4.7's one-line calls; reasoning only in thinking mode.

``render("ling3", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>'``.

With thinking on the template opens ``<think>``; a tool call ends reasoning (no
``</think>`` follows it), as in GLM-4.7.
"""

from __future__ import annotations

from typing import Any

from ...reference import Request
from ..responses import Response
from . import register
from .glm import Glm47Renderer


class Ling3Renderer(Glm47Renderer):
    dialect = "ling3"
    layout = "reasoning (thinking mode only), content, GLM-4.7's one-line calls"

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """Thinking mode exactly when the response reasons (the template opens ``<think>``)."""
        return Request(tools=tools, thinking=response.reasoning is not None)


register(Ling3Renderer())
