"""Tencent Hy3 and Hy4: every call of a turn in one ``<tool_calls>`` block.

``render("hy_v3", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_calls>\\n<tool_call>f<tool_sep>\\n<arg_key>a</arg_key>\\n<arg_value>1</arg_value>
\\n</tool_call>\\n</tool_calls>'``.

Hy3 ends the name with ``<tool_sep>`` and lays the tags out on lines (SGLang's ``hunyuan``
docstring); Hy4 runs the name into the first ``<arg_key>``, all on one line (vLLM's
``hy_v4``). Values are typed by the tool's schema. A ``<tool_calls>`` block inside
reasoning ends reasoning (no ``</think>`` follows). Hy3's model opens ``<think>`` itself,
Hy4's template opens it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..responses import Call
from . import register
from .glm import Glm47Renderer


class Hy3Renderer(Glm47Renderer):
    dialect = "hy_v3"
    layout = "reasoning, content, every call of a turn in one `<tool_calls>` block"
    reasoning_open = "<think>"
    open_tag = "<tool_calls>"
    close_tag = "</tool_calls>"
    line_break = "\n"
    #: What ends the name (Hy3's ``<tool_sep>`` and its line break).
    name_end: ClassVar[str] = "<tool_sep>\n"
    #: The tags of each call in the block.
    call_tags: ClassVar[tuple[str, str]] = ("<tool_call>", "</tool_call>")

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """All the calls in one block ("" for none)."""
        calls = list(calls)
        if not calls:
            return ""
        n = self.line_break
        inner = "".join(f"{self._call(call)}{n}" for call in calls)
        return f"{self.open_tag}{n}{inner}{self.close_tag}"

    def _call(self, call: Call) -> str:
        call_open, call_close = self.call_tags
        return f"{call_open}{call.name}{self.name_end}{self._pairs(call)}{call_close}"

    def value_end_tags(self) -> tuple[str, ...]:
        return (*reversed(self.call_tags), self.close_tag)


class Hy4Renderer(Hy3Renderer):
    dialect = "hy_v4"
    layout = "reasoning, content, every call of a turn in one `<tool_calls>` block"
    reasoning_open = ""
    line_break = ""
    name_end = ""


register(Hy3Renderer())
register(Hy4Renderer())
