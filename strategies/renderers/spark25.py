"""Spark 2.5: a name line, then GLM's pairs on one line; no reasoning channel.

``render("spark25", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_call>f\\n<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>'``.
"""

from __future__ import annotations

from ..responses import Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, register
from .glm import Glm47Renderer


class Spark25Renderer(Glm47Renderer):
    dialect = "spark25"
    layout = "content, a name line, then GLM's pairs on one line; no reasoning channel"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    name_break = "\n"

    def render(self, response: Response, variant: str | None = None) -> str:
        """No reasoning channel: GLM's reasoning layout does not apply."""
        return self.content_text(response, variant)


register(Spark25Renderer())
