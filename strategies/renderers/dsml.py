"""DeepSeek V3.2 and V4: DSML blocks opened by a blank line, values that say their type.

``render("deepseek_v4", Response(calls=(Call("f", {"a": 1}),)))`` →
``'\\n\\n<｜DSML｜tool_calls>\\n<｜DSML｜invoke name="f">\\n<｜DSML｜parameter name="a"
string="false">1</｜DSML｜parameter>\\n</｜DSML｜invoke>\\n</｜DSML｜tool_calls>'``.

As DeepSeek's encoders (``encoding_dsv32.py``, ``encoding_dsv4.py``) write an assistant
turn: ``"\\n\\n<｜DSML｜function_calls>\\n"`` (``tool_calls`` for V4), the invokes joined by
newlines, each ``<｜DSML｜invoke name="N">\\n`` + parameters joined by newlines +
``\\n</｜DSML｜invoke>``, then ``"\\n</｜DSML｜function_calls>"``. A string value is written
as is with ``string="true"``, anything else as JSON with ``string="false"``; no schema is
read, so every value is carried unless its text holds a DSML tag that ends a value.

Reasoning follows the request's thinking flag: the template opens ``<think>`` in thinking
mode, the model closes it; a block inside reasoning leaves the model reasoning.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...reference import Request
from ..responses import Call, Response
from . import (
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    REASONING_TAIL,
    Renderer,
    register,
)

DSML = "｜DSML｜"


class DeepSeekV4Renderer(Renderer):
    """DeepSeek-V4's layout; the dialects of the same markup set the attributes below."""

    dialect = "deepseek_v4"
    layout = (
        "reasoning (thinking mode), `</think>`, content, one `\\n\\n<｜DSML｜function_calls>` "
        '(`tool_calls`) block of invokes, `string="true"` strings and `string="false"` JSON'
    )
    grammar = "dsml"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )
    #: The block's tag name.
    block_name: ClassVar[str] = "tool_calls"
    #: What stands between ``<`` and every tag's name.
    marker: ClassVar[str] = DSML
    #: What comes before the block's open tag (DeepSeek's blank line).
    block_lead: ClassVar[str] = "\n\n"

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """Thinking mode exactly when the response reasons (the template opens ``<think>``)."""
        return Request(tools=tools, thinking=response.reasoning is not None)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """All the calls in one block, blank line first ("" for none)."""
        if not calls:
            return ""
        m = self.marker
        invokes = "\n".join(map(self._invoke, calls))
        return f"{self.block_lead}<{m}{self.block_name}>\n{invokes}\n</{m}{self.block_name}>"

    def _invoke(self, call: Call) -> str:
        m = self.marker
        parameters = "\n".join(self._parameter(key, value) for key, value in call.arguments.items())
        return f'<{m}invoke name="{call.name}">\n{parameters}\n</{m}invoke>'

    def _parameter(self, key: str, value: Any) -> str:
        if isinstance(value, str):
            kind, text = "true", value
        else:
            kind, text = "false", json.dumps(value, ensure_ascii=False)
        m = self.marker
        return f'<{m}parameter name="{key}" string="{kind}">{text}</{m}parameter>'

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        """Every value, as long as its text holds no tag that ends a value."""
        m = self.marker
        ends = (
            f"</{m}parameter>",
            f"<{m}parameter",
            f"</{m}invoke>",
            f"<{m}invoke",
            f"</{m}{self.block_name}>",
        )
        for value in call.arguments.values():
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            if any(end in text for end in ends):
                return None
        return call


class DeepSeekV32Renderer(DeepSeekV4Renderer):
    dialect = "deepseek_v32"
    layout = (
        "reasoning (thinking mode), `</think>`, content, one `\\n\\n<｜DSML｜function_calls>` "
        '(`tool_calls`) block of invokes, `string="true"` strings and `string="false"` JSON'
    )
    block_name = "function_calls"


register(DeepSeekV32Renderer())
register(DeepSeekV4Renderer())
