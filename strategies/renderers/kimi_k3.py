"""Kimi K3: XTML channels, ``think``, ``response`` and ``tools``, from three special tokens.

``render("kimi_k3", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="a"
type="integer"<|sep|>1<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>'``.

The layout of a turn as vLLM's ``kimi_k3`` tool parser describes the template's output (its
module docstring; no wheel ships the template): the reasoning in the think channel (the
template opened it), the answer in a response channel, which always precedes the one tools
channel, whose calls count from 1 (vLLM's renderer numbers tool results so). Channels are
written back to back here (that example indents them for reading). A string value is
written raw with ``type="string"``, any other value as JSON with its JSON type; attribute
values are escaped (``&amp;``, ``&quot;``). A value, name or key holding a channel marker is
not carried, nor an answer that is nothing but newlines (layout next to the response
markers).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ...reference.schema_values import json_type
from ..responses import Call, Response
from . import CALLS, MULTIPLE_CALLS, REASONING, Renderer, register

MARKERS = ("<|open|>", "<|close|>", "<|sep|>")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;")


class KimiK3Renderer(Renderer):
    dialect = "kimi_k3"
    layout = (
        "reasoning (the template opened the think channel), `<|close|>think<|sep|>`, the "
        "answer in `<|open|>response<|sep|>` … `<|close|>response<|sep|>`, one "
        "`<|open|>tools<|sep|>` channel of `call` / typed `argument` elements"
    )
    grammar = "dsml"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS})
    reasoning_close = "<|close|>think<|sep|>"

    def render(self, response: Response, variant: str | None = None) -> str:
        answer = ""
        if response.content:
            answer = f"<|open|>response<|sep|>{response.content}<|close|>response<|sep|>"
        return self.reasoning_text(response) + answer + self.block(response.calls)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        body = "".join(
            f'<|open|>call tool="{_escape(call.name)}" index="{index}"<|sep|>'
            + "".join(self._argument(key, value) for key, value in call.arguments.items())
            + "<|close|>call<|sep|>"
            for index, call in enumerate(calls, 1)
        )
        return f"<|open|>tools<|sep|>{body}<|close|>tools<|sep|>"

    def _argument(self, key: str, value: Any) -> str:
        if isinstance(value, str):
            kind, text = "string", value
        else:
            kind, text = json_type(value), json.dumps(value, ensure_ascii=False)
        header = f'<|open|>argument key="{_escape(key)}" type="{kind}"<|sep|>'
        return f"{header}{text}<|close|>argument<|sep|>"

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        texts = [call.name, *call.arguments]
        texts += [v if isinstance(v, str) else json.dumps(v) for v in call.arguments.values()]
        if any(marker in text for text in texts for marker in MARKERS):
            return None
        return call

    def carries(self, response: Response) -> bool:
        return response.content == "" or response.content.strip("\n") != ""


register(KimiK3Renderer())
