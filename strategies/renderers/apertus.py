"""Apertus: ``<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>``, one block for every call.

Reasoning, when there is some, comes first in ``<|inner_prefix|>`` … ``<|inner_suffix|>``.
"""

from __future__ import annotations

import json

from ..responses import Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register


class ApertusRenderer(Renderer):
    dialect = "apertus"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def render(self, response: Response, variant: str | None = None) -> str:
        text = ""
        if response.reasoning is not None:
            text = "<|inner_prefix|>" + response.reasoning + "<|inner_suffix|>"
        calls = ""
        if response.calls:
            envelopes = [{call.name: dict(call.arguments)} for call in response.calls]
            calls = "<|tools_prefix|>" + json.dumps(envelopes, ensure_ascii=False)
            calls += "<|tools_suffix|>"
        return text + response.content + calls + response.content_tail


register(ApertusRenderer())
