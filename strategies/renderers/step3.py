"""StepFun Step-3: every call of a turn in one section, each a ``steptml`` invoke.

``render("step3", Response(calls=(Call("f", {"a": 1}),)))`` →
``'</think><｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>
<steptml:invoke name="f">\\n<steptml:parameter name="a">1</steptml:parameter>\\n
</steptml:invoke>\\n<｜tool_call_end｜><｜tool_calls_end｜>'`` (one string).

MiniMax-M2's invoke layout in the ``steptml`` namespace, each call wrapped in the section's
call tokens; values inline, typed by the tool's schema. The output always starts inside
reasoning, closed by ``</think>``, as for MiniMax-M2.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..responses import Call
from . import register
from .minimax_m2 import MiniMaxM2Renderer


class Step3Renderer(MiniMaxM2Renderer):
    dialect = "step3"
    layout = "reasoning, content, every call of a turn in one section, each a `steptml` invoke"
    open_tag = "<｜tool_calls_begin｜>"
    close_tag = "<｜tool_calls_end｜>"
    invoke_tag = "steptml:invoke"
    parameter_tag = "steptml:parameter"

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        inner = "".join(
            f"<｜tool_call_begin｜>function<｜tool_sep｜>{self.invoke(call)}<｜tool_call_end｜>"
            for call in calls
        )
        return f"{self.open_tag}{inner}{self.close_tag}"

    def value_end_tags(self) -> tuple[str, ...]:
        return (*super().value_end_tags(), "<｜tool_call_end｜>")


register(Step3Renderer())
