"""Apertus: ``<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>``, one block for every call.

Reasoning, when there is some, comes first in ``<|inner_prefix|>`` … ``<|inner_suffix|>``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register


class ApertusRenderer(Renderer):
    dialect = "apertus"
    layout = (
        '`<|inner_prefix|>…<|inner_suffix|>` reasoning, content, `<|tools_prefix|>[{"NAME": '
        "{…}}, …]<|tools_suffix|>`, one block for every call"
    )
    grammar = "json"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        envelopes = [{call.name: dict(call.arguments)} for call in calls]
        return "<|tools_prefix|>" + json.dumps(envelopes, ensure_ascii=False) + "<|tools_suffix|>"

    def render(self, response: Response, variant: str | None = None) -> str:
        text = ""
        if response.reasoning is not None:
            text = "<|inner_prefix|>" + response.reasoning + "<|inner_suffix|>"
        return text + self.content_text(response, variant)


register(ApertusRenderer())
