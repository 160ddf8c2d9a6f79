"""IQuest Q1: GLM-4.7's one-line pairs in ``<iquest_tool_call>`` blocks.

``render("iquest_q1", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<iquest_tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></iquest_tool_call>'``.

The template opens ``<think>``; a block inside reasoning leaves the model reasoning (only
``</think>`` ends it).
"""

from __future__ import annotations

from ..responses import Response
from . import (
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    REASONING_TAIL,
    register,
)
from .glm import Glm47Renderer


class IQuestQ1Renderer(Glm47Renderer):
    dialect = "iquest_q1"
    layout = "reasoning, content, GLM-4.7's one-line pairs in `<iquest_tool_call>` blocks"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )
    open_tag = "<iquest_tool_call>"
    close_tag = "</iquest_tool_call>"

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)


register(IQuestQ1Renderer())
