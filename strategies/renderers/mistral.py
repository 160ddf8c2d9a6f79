"""Mistral: ``[TOOL_CALLS]`` and a JSON array, or one ``[TOOL_CALLS]NAME[ARGS]{…}`` per call.

``render("mistral", Response(calls=(Call("f", {"a": 1}),)), "name-args")`` →
``'[TOOL_CALLS]f[ARGS]{"a": 1}'``.

Three layouts, as mistral-common encodes an assistant turn for each tokenizer generation:

- ``array`` (tokenizers v2 to v7: Mistral 7B v0.3, NeMo, Small 3): one block,
  ``[TOOL_CALLS][{"name": "f", "arguments": {…}}, …]``;
- ``name-args`` (v11 and later: Small 3.1+, Devstral, Magistral): ``[TOOL_CALLS]f[ARGS]{…}``
  per call, back to back;
- ``call-id``: the same with the call's id, ``[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{…}``.

There is no close tag: a block ends with its JSON, and text after it is content again.
Arguments are JSON, so every value is carried. The dialect has no reasoning channel.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register

ARRAY = "array"
NAME_ARGS = "name-args"
CALL_ID = "call-id"


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _call_id(index: int) -> str:
    """Nine alphanumeric characters, the shape of Mistral's call ids."""
    return f"call{index:05d}"


def blocks(calls: Sequence[Call], variant: str) -> str:
    """The calls in ``variant``'s layout ("" for none)."""
    if not calls:
        return ""
    if variant == ARRAY:
        envelopes = [{"name": call.name, "arguments": dict(call.arguments)} for call in calls]
        return "[TOOL_CALLS]" + _json(envelopes)
    return "".join(
        "[TOOL_CALLS]"
        + call.name
        + (f"[CALL_ID]{_call_id(index)}" if variant == CALL_ID else "")
        + "[ARGS]"
        + _json(dict(call.arguments))
        for index, call in enumerate(calls)
    )


class MistralRenderer(Renderer):
    dialect = "mistral"
    layout = (
        'content, then by variant `[TOOL_CALLS][{"name", "arguments"}, …]` (`array`), '
        "`[TOOL_CALLS]N[ARGS]{…}` per call (`name-args`) or "
        "`[TOOL_CALLS]N[CALL_ID]ID[ARGS]{…}` (`call-id`)"
    )
    grammar = "mistral"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    variants = (ARRAY, NAME_ARGS, CALL_ID)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return blocks(calls, variant or ARRAY)


register(MistralRenderer())
