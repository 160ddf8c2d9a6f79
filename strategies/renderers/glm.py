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


class Glm47Renderer(Renderer):
    """GLM-4.7's layout; the dialects of the same pairs set the attributes below."""

    dialect = "glm47"
    layout = (
        "reasoning (opened by the template), `</think>`, content, "
        "`<tool_call>N<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>` back to back"
    )
    grammar = "xml"
    supports = frozenset({REASONING, REASONING_CALLS, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    #: The layout between the tags of a call, and between consecutive blocks.
    line_break: ClassVar[str] = ""
    #: The layout after the function name.
    name_break: ClassVar[str] = ""
    #: The block's tags.
    open_tag: ClassVar[str] = "<tool_call>"
    close_tag: ClassVar[str] = "</tool_call>"
    #: The pair tags (K2 Horizon spells them ``<ifm|arg_key>`` …).
    arg_key_tags: ClassVar[tuple[str, str]] = ("<arg_key>", "</arg_key>")
    arg_value_tags: ClassVar[tuple[str, str]] = ("<arg_value>", "</arg_value>")

    def render(self, response: Response, variant: str | None = None) -> str:
        reasoning = ""
        if response.reasoning is not None:
            reasoning = self.reasoning_open + response.reasoning
            # A tool call ends reasoning by itself; otherwise the model closes it.
            reasoning += self.block(response.reasoning_calls) or self.reasoning_close
        return reasoning + self.content_text(response, variant)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """One block per call."""
        return self.line_break.join(self._block(call) for call in calls)

    def _block(self, call: Call) -> str:
        return f"{self.open_tag}{call.name}{self.name_break}{self._pairs(call)}{self.close_tag}"

    def _pairs(self, call: Call) -> str:
        """The call's arguments as key and value pairs, each followed by a line break."""
        n = self.line_break
        (key_open, key_close), (value_open, value_close) = self.arg_key_tags, self.arg_value_tags
        return "".join(
            f"{key_open}{key}{key_close}{n}{value_open}{value_text(value)}{value_close}{n}"
            for key, value in call.arguments.items()
        )

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        pair_ends = (self.arg_value_tags[1], self.arg_key_tags[0])
        return fit_typed_call(call, parameters, value_end_tags=(*pair_ends, *self.value_end_tags()))

    def value_end_tags(self) -> tuple[str, ...]:
        """The tags of the block that end a value, besides the pair tags."""
        return (self.close_tag,)

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
    layout = (
        "`<think>…</think>`, content, "
        "`<tool_call>N\\n<arg_key>K</arg_key>\\n<arg_value>V</arg_value>\\n</tool_call>` per "
        "call, separated by `\\n`"
    )
    reasoning_open = "<think>"
    line_break = "\n"
    name_break = "\n"


register(Glm45Renderer())
register(Glm47Renderer())
