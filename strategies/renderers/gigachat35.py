"""GigaChat 3.5: DSML's layout with the ``｜GCML｜`` marker and no blank line before.

``render("gigachat35", Response(calls=(Call("f", {"a": 1}),)))`` →
``'</think><｜GCML｜tool_calls>\\n<｜GCML｜invoke name="f">\\n<｜GCML｜parameter name="a"
string="false">1</｜GCML｜parameter>\\n</｜GCML｜invoke>\\n</｜GCML｜tool_calls>'``.

The template opens ``<think>`` (SGLang's detector for it is DeepSeek-R1's): an answer
without reasoning closes it at once; a block inside reasoning leaves the model reasoning.
"""

from __future__ import annotations

from typing import Any

from ...reference import Request
from ..responses import Response
from . import register
from .dsml import DeepSeekV4Renderer


class GigaChat35Renderer(DeepSeekV4Renderer):
    dialect = "gigachat35"
    layout = "DSML's layout with the `｜GCML｜` marker and no blank line before the block"
    marker = "｜GCML｜"
    block_lead = ""

    def render(self, response: Response, variant: str | None = None) -> str:
        if response.reasoning is None:  # the template opened reasoning: close it at once
            return "</think>" + super().render(response)
        return super().render(response)

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        return Request(tools=tools)


register(GigaChat35Renderer())
