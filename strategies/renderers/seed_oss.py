"""Seed-OSS: Qwen3-Coder's layout in ``<seed:tool_call>`` blocks, ``<seed:think>`` by the model.

``render("seed_oss", Response(reasoning="r", calls=(Call("f", {"a": 1}),)))`` →
``'<seed:think>r</seed:think><seed:tool_call>\\n<function=f>\\n<parameter=a>\\n1\\n
</parameter>\\n</function>\\n</seed:tool_call>'``.

The model opens reasoning itself (the template does not), may call tools inside it
(reasoning goes on after the block) and closes it with ``</seed:think>``.
"""

from __future__ import annotations

from typing import Any

from ...reference import Request
from ..responses import Response
from . import register
from .qwen3_coder import Qwen35Renderer


class SeedOssRenderer(Qwen35Renderer):
    dialect = "seed_oss"
    layout = (
        "`<seed:think>…</seed:think>` by the model, content, Qwen3-Coder's layout in "
        "`<seed:tool_call>` blocks"
    )
    open_tag = "<seed:tool_call>"
    close_tag = "</seed:tool_call>"
    reasoning_open = "<seed:think>"
    reasoning_close = "</seed:think>"

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """Any request: reasoning is where the model opens it."""
        return Request(tools=tools)


register(SeedOssRenderer())
