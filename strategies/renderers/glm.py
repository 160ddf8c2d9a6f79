"""GLM-4.5 / 4.6 and GLM-4.7 / GLM-5: ``<tool_call>NAME<arg_key>K</arg_key><arg_value>V…``.

``render("glm47", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>'``.

GLM-4.5's template lays a call out on lines (``<tool_call>NAME\\n<arg_key>K</arg_key>\\n
<arg_value>V</arg_value>\\n</tool_call>``, blocks separated by a newline); GLM-4.7's writes
it on one line, blocks back to back. A value is exactly the text between its tags, typed by
the tool's schema (``typed_values``).

Reasoning: GLM-4.5 opens ``<think>`` itself, GLM-4.7's template opens it in the prompt. A
tool call inside reasoning ends reasoning (no ``</think>`` follows; what comes after the
block is the answer), so reasoning never goes on after a block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..responses import Call, Response
from . import (
    BLOCK_SEPARATORS,
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    Renderer,
    register,
)
from .typed_values import fit_typed_call, value_text

#: What ends a value in this format (each is one token), so no value may contain it.
VALUE_END_TAGS = ("</arg_value>", "<arg_key>", "</tool_call>")


class Glm47Renderer(Renderer):
    dialect = "glm47"
    grammar = "xml"
    supports = frozenset({REASONING, REASONING_CALLS, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    #: What the model writes to open reasoning ("": the template already did).
    reasoning_open: ClassVar[str] = ""
    #: The layout between the tags of a call, and between consecutive blocks.
    line_break: ClassVar[str] = ""

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = ""
        if response.reasoning is not None:
            reasoning = self.reasoning_open + response.reasoning
            # A tool call ends reasoning by itself; otherwise the model closes it.
            reasoning += self.block(response.reasoning_calls) or "</think>"
        return reasoning + response.content + self.block(response.calls) + response.content_tail

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """One block per call."""
        return self.line_break.join(self._call_block(call) for call in calls)

    def _call_block(self, call: Call) -> str:
        n = self.line_break
        arguments = "".join(
            f"<arg_key>{key}</arg_key>{n}<arg_value>{value_text(value)}</arg_value>{n}"
            for key, value in call.arguments.items()
        )
        return f"<tool_call>{call.name}{n}{arguments}</tool_call>"

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        return fit_typed_call(call, parameters, value_end_tags=VALUE_END_TAGS)

    def carries(self, response: Response) -> bool:
        """Not an answer of newlines alone between the reasoning's blocks and its own: the
        parser takes newlines between two consecutive blocks for their separator."""
        return not (
            response.reasoning_calls
            and response.calls
            and response.content
            and not response.content.strip(BLOCK_SEPARATORS)
        )


class Glm45Renderer(Glm47Renderer):
    dialect = "glm45"
    reasoning_open = "<think>"
    line_break = "\n"


register(Glm45Renderer())
register(Glm47Renderer())
