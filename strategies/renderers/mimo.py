"""MiMo: Qwen3-Coder's blocks with values written inline (``<parameter=K>V</parameter>``).

``render("mimo", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<tool_call>\\n<function=f>\\n<parameter=a>1</parameter>\\n</function>\\n</tool_call>'``.

A value is exactly the text between its tags, typed by the tool's schema. Reasoning is
Qwen3.5's: the template opens ``<think>``, the model closes it.
"""

from __future__ import annotations

from . import register
from .qwen3_coder import Qwen35Renderer


class MiMoRenderer(Qwen35Renderer):
    dialect = "mimo"
    layout = (
        "reasoning, content, Qwen3-Coder's blocks with values written inline "
        "(`<parameter=K>V</parameter>`)"
    )
    value_layout = ""


register(MiMoRenderer())
