"""Gemma's call grammar: ``functiongemma`` and ``gemma4``.

``render("gemma4", Response(calls=(Call("f", {"a": "x", "n": 42}),)))`` →
``'<|tool_call>call:f{a:<|"|>x<|"|>,n:42}<tool_call|>'``. One block per call, back to
back; strings between two delimiter tokens, other values bare, objects with bare keys.
Gemma 4's thought channel is ``<|channel>thought\\n`` … ``<channel|>`` before the answer.

A string that holds the delimiter or the close tag cannot be written (both are dedicated
tokens that end what they meet), nor an object key that is no bare word.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, REASONING, Renderer, register
from .python_calls import holds

_KEY_STOPS = frozenset(":,)]} \t\r\n")


def _value(value: Any, delimiter: str) -> str:
    if isinstance(value, str):
        return delimiter + value + delimiter
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_value(v, delimiter)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_value(item, delimiter) for item in value) + "]"
    return json.dumps(value)


def _bare_keys(value: Any) -> bool:
    if isinstance(value, dict):
        return all(
            key and not _KEY_STOPS.intersection(key) and _bare_keys(item)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return all(_bare_keys(item) for item in value)
    return True


class GemmaRenderer(Renderer):
    dialect = "functiongemma"
    layout = (
        "(Gemma 4: `<|channel>thought\\n…<channel|>`), content, one `call:N{k:v,…}` block per "
        'call, strings between `<escape>` / `<|"|>`, bare keys'
    )
    grammar = "pythonic"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    open_tag: ClassVar[str] = "<start_function_call>"
    close_tag: ClassVar[str] = "<end_function_call>"
    delimiter: ClassVar[str] = "<escape>"

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "".join(
            f"{self.open_tag}call:{call.name}{_value(dict(call.arguments), self.delimiter)}"
            f"{self.close_tag}"
            for call in calls
        )

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        arguments = dict(call.arguments)
        if holds(arguments, self.delimiter) or holds(arguments, self.close_tag):
            return None
        return call if _bare_keys(arguments) else None


class Gemma4Renderer(GemmaRenderer):
    dialect = "gemma4"
    layout = (
        "(Gemma 4: `<|channel>thought\\n…<channel|>`), content, one `call:N{k:v,…}` block per "
        'call, strings between `<escape>` / `<|"|>`, bare keys'
    )
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    open_tag = "<|tool_call>"
    close_tag = "<tool_call|>"
    delimiter = '<|"|>'

    def render(self, response: Response, variant: str | None = None) -> str:
        thought = ""
        if response.reasoning is not None:
            thought = "<|channel>thought\n" + response.reasoning + "<channel|>"
        return thought + super().render(response, variant)


register(GemmaRenderer())
register(Gemma4Renderer())
