"""poolside Laguna: GLM's pairs after a name line, reasoning opened by the template.

``render("poolside_v1", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_call>f\\n<arg_key>a</arg_key>\\n<arg_value>1</arg_value>\\n</tool_call>'``.

A tool call ends reasoning (no ``</think>`` follows it).
"""

from __future__ import annotations

from . import register
from .glm import Glm47Renderer


class PoolsideV1Renderer(Glm47Renderer):
    dialect = "poolside_v1"
    layout = "reasoning (opened by the template), content, GLM's pairs after a name line"
    line_break = "\n"
    name_break = "\n"


register(PoolsideV1Renderer())
