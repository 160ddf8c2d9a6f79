"""Nanbeige: written as Qwen3.5 writes (Qwen3-Coder's blocks, template-opened ``<think>``).

``render("nanbeige", Response(reasoning="r", calls=(Call("f", {"a": 1}),)))`` →
``'r</think><tool_call>\\n<function=f>\\n<parameter=a>\\n1\\n</parameter>\\n</function>\\n
</tool_call>'``.
"""

from __future__ import annotations

from . import register
from .qwen3_coder import Qwen35Renderer


class NanbeigeRenderer(Qwen35Renderer):
    dialect = "nanbeige"
    layout = "reasoning (opened by the template), `</think>`, then as `qwen3_coder`"


register(NanbeigeRenderer())
