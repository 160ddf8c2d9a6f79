"""Step-3.5 / 3.7 and Step-5: Qwen3-Coder's blocks after template-opened reasoning.

``render("step3p5", Response(calls=(Call("f", {"a": 1}),)))`` →
``'</think><tool_call>\\n<function=f>\\n<parameter=a>\\n1\\n</parameter>\\n</function>\\n
</tool_call>'``.

Step-3.5's template always prefills ``<think>\\n``, so every answer begins with reasoning,
closed at once when there is nothing to think. Step-5 is read as Qwen3.5 is (reasoning
opened by the template unless thinking is off).
"""

from __future__ import annotations

from ..responses import Response
from . import register
from .qwen3_coder import Qwen35Renderer


class Step3p5Renderer(Qwen35Renderer):
    dialect = "step3p5"
    layout = "reasoning (opened by the template), `</think>`, then as `qwen3_coder`"

    def render(self, response: Response, variant: str | None = None) -> str:
        if response.reasoning is None:  # the channel is always open: close it at once
            return "</think>" + super().render(response)
        return super().render(response)


class Step5Renderer(Qwen35Renderer):
    dialect = "step5"
    layout = "reasoning (opened by the template), `</think>`, then as `qwen3_coder`"


register(Step3p5Renderer())
register(Step5Renderer())
