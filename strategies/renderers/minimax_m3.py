"""MiniMax-M3: ``]<]minimax[>[``-namespaced invokes whose arguments are nested elements.

``render("minimax_m3", Response(calls=(Call("f", {"a": 1}),)))`` →
``']<]minimax[>[<tool_call>\\n]<]minimax[>[<invoke name="f">]<]minimax[>[<a>1]<]minimax[>[
</a>]<]minimax[>[</invoke>\\n]<]minimax[>[</tool_call>'``.

As MiniMax-M3's chat template writes a turn (its ``to_xml`` macro; the template text as a
llama.cpp fork stores it, ``models/templates/MiniMax-M3.jinja``, read, not copied):
``<mm:think>`` reasoning ``</mm:think>`` with no layout, the answer, then one block: a
newline after ``<tool_call>`` and after each ``</invoke>``, nothing between elements. A
string is written verbatim, a number or boolean as JSON, a mapping as one element per key,
a list as ``<item>`` elements. What the format cannot carry is not drawn: a ``None`` (the
template leaves it out), an empty container or string where the schema does not tell which
it was (all three are an empty element), a value the schema does not type as what it is
(without a schema every leaf reads back as a string), and any text holding the marker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..responses import Call, Response
from . import CALLS, MULTIPLE_CALLS, REASONING, Renderer, register
from .typed_values import reads_back, schema_types, value_text

NS = "]<]minimax[>["


def _xml(value: Any) -> str:
    if isinstance(value, Mapping):
        return "".join(f"{NS}<{key}>{_xml(item)}{NS}</{key}>" for key, item in value.items())
    if isinstance(value, list):
        return "".join(f"{NS}<item>{_xml(item)}{NS}</item>" for item in value)
    return value_text(value)


def _member(schema: Any, kind: str) -> Mapping[str, Any]:
    """The ``anyOf`` member (or the schema itself) that allows JSON type ``kind``."""
    if not isinstance(schema, Mapping):
        return {}
    for option in schema.get("anyOf") or ():
        if kind in schema_types(option):
            return _member(option, kind)
    return schema if kind in schema_types(schema) else {}


def _element_name(key: str) -> bool:
    return bool(key) and key == key.strip() and not key.startswith("/") and ">" not in key


def _carried(value: Any, schema: Any) -> bool:
    """Whether the parser, typing by ``schema``, reads ``value`` back from ``_xml(value)``."""
    types = schema_types(schema)
    if value is None:
        return False
    if isinstance(value, str):
        if NS in value:
            return False
        if types <= {"string"}:
            return True
        return "string" in types and bool(value.strip()) and reads_back(value, schema)
    if isinstance(value, list):
        if "array" not in types or (not value and "string" in types):
            return False
        items = _member(schema, "array").get("items")
        return all(_carried(item, items) for item in value)
    if isinstance(value, Mapping):
        keys = list(value)
        if "object" not in types or ("array" in types and (not keys or set(keys) == {"item"})):
            return False
        if not keys and "string" in types:
            return False
        properties = _member(schema, "object").get("properties") or {}
        return all(
            _element_name(key) and NS not in key and _carried(item, properties.get(key))
            for key, item in value.items()
        )
    return bool(types) and reads_back(value, schema)


class MiniMaxM3Renderer(Renderer):
    dialect = "minimax_m3"
    layout = (
        "`<mm:think>` reasoning `</mm:think>` (the model opens it: no thinking flag), content, "
        'one `]<]minimax[>[<tool_call>` block of `<invoke name="N">` calls whose arguments '
        "are elements named after their keys (`<item>` for list members, nested), nothing "
        "between elements; every tag behind the `]<]minimax[>[` marker"
    )
    grammar = "xml"
    supports = frozenset({REASONING, CALLS, MULTIPLE_CALLS})
    reasoning_open = "<mm:think>"
    reasoning_close = "</mm:think>"

    def render(self, response: Response, variant: str | None = None) -> str:
        return self.reasoning_text(response) + self.content_text(response, variant)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        if not calls:
            return ""
        invokes = "".join(
            f'{NS}<invoke name="{call.name}">{_xml(call.arguments)}{NS}</invoke>\n'
            for call in calls
        )
        return f"{NS}<tool_call>\n{invokes}{NS}</tool_call>"

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        schema = parameters if parameters is not None else {"type": "object"}
        if NS in call.name or not _carried(call.arguments, schema):
            return None
        return call

    def fit_text(self, text: str) -> str:
        return text.replace(NS, "")


register(MiniMaxM3Renderer())
