"""Argument values of the XML-like formats, whose parsers type bare text by the tool's schema.

The chat templates of Qwen3-Coder, GLM and MiniMax-M2 write a string value verbatim and any
other value as JSON (``<parameter=days>\\n3\\n</parameter>``); nothing in the markup says
which. The parser reads the text back by the parameter's JSON Schema (docs/xml-dsml-
dialects.md, "Arguments"): a string-only parameter streams as text unless its first visible
character is a quote, and any other parameter is read as JSON of an allowed type, ``true`` /
``null`` also in any letter case, else as the text itself. So a string is carried only where
that reading cannot turn it into something else: ``"3"`` for an ``["string", "integer"]``
parameter comes back as ``3``, ``"\\"Paris\\""`` for a string parameter as ``Paris``.

These rules are written from the documentation, not taken from the reference parser, so a
parser that types a value wrongly fails the round trip instead of silently narrowing what
is generated. They are conservative (a string that is any JSON at all is not drawn where
the schema allows more than strings): losing a few strings costs nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..responses import Call

#: The whitespace the parsers skip before a value's first visible character.
_LAYOUT_WHITESPACE = " \t\r\n"


def value_text(value: Any) -> str:
    """How the templates write an argument value: a string as is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def schema_types(schema: Any) -> frozenset[str]:
    """The JSON types a parameter of ``schema`` may take (the subset ``json_schemas`` draws:
    ``type`` as a name or a list, ``anyOf``); empty when the schema does not say."""
    if not isinstance(schema, Mapping):
        return frozenset()
    declared = schema.get("type")
    types = {declared} if isinstance(declared, str) else set(declared or ())
    for member in schema.get("anyOf") or ():
        types |= schema_types(member)
    return frozenset(types)


def reads_back(value: Any, schema: Any) -> bool:
    """Whether a parser typing by ``schema`` returns ``value`` from ``value_text(value)``.

    ``schema`` is the parameter's schema, ``None`` for a parameter the tool does not
    declare: its value is read as text. A non-string value reads back where the schema
    allows its JSON type, or does not say which types it allows.
    """
    if not isinstance(value, str):
        if schema is None:
            return False
        types = schema_types(schema)
        return not types or bool(_json_types(value) & types)
    stripped = value.strip()
    if schema_types(schema) <= {"string"}:
        # Streamed as text, unless it starts with a quote: then it is decoded when JSON.
        return not (value.lstrip(_LAYOUT_WHITESPACE).startswith('"') and _is_json(stripped))
    return not (_is_json(stripped) or stripped.lower() in ("true", "false", "null"))


def _json_types(value: Any) -> frozenset[str]:
    """The JSON Schema types a (non-string) value is an instance of."""
    if value is None:
        return frozenset({"null"})
    if isinstance(value, bool):
        return frozenset({"boolean"})
    if isinstance(value, int):
        return frozenset({"integer", "number"})
    if isinstance(value, float):
        return frozenset({"number"})
    return frozenset({"array" if isinstance(value, list) else "object"})


def fit_typed_call(
    call: Call,
    parameters: Mapping[str, Any] | None,
    *,
    value_end_tags: Iterable[str],
    fit_string: Callable[[str], str | None] | None = None,
) -> Call | None:
    """``call`` if every value is carried: its text holds none of ``value_end_tags`` and, for
    a tool the request offers, it reads back by the parameter's schema.

    ``fit_string`` (a ``str -> str | None``) first normalizes each string value the way the
    dialect's layout would (``None``: the layout cannot carry it). Calls to tools the request
    does not offer are dropped by the parser, but their values must still not end early:
    they would change how the rest of the block is read.
    """
    tags = tuple(value_end_tags)
    properties = (parameters or {}).get("properties") or {}
    arguments: dict[str, Any] = {}
    for key, value in call.arguments.items():
        if fit_string is not None and isinstance(value, str):
            value = fit_string(value)
            if value is None:
                return None
        text = value_text(value)
        if any(tag in text for tag in tags):
            return None
        if parameters is not None and not reads_back(value, properties.get(key)):
            return None
        arguments[key] = value
    return Call(call.name, arguments)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
