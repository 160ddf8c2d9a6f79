"""Typing raw argument text by the tool's JSON Schema (XML-like formats).

XML-like formats write every argument value as bare text: ``<parameter=days>3</parameter>``
says nothing about whether ``3`` is a number or a string. The tool's JSON Schema decides
(seed 000, "根据 schema 做标量类型转换"): a value whose schema allows only strings, or which
has no schema, is a string and can stream as it arrives; any other value is held until its
close tag and converted as a whole. A conversion that fails keeps the text as a string, so
the model's output is never lost.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: JSON Schema type names this module understands.
JSON_TYPES = frozenset(("string", "integer", "number", "boolean", "null", "object", "array"))
_STRING_ONLY = frozenset(("string",))
#: Type names tool definitions write for the JSON ones (``float``, ``int``, ``bool``, …), as
#: the parser shipped with Qwen3-Coder reads them (``qwen3coder_tool_parser.py``: prefixes
#: ``int``/``uint``/``long``/``short``/``unsigned`` and ``num``/``float``); vLLM's and
#: SGLang's XML parsers read them the same way, so a ``"float"`` 3.14 is a number.
_TYPE_ALIASES = {
    "str": "string",
    "text": "string",
    "varchar": "string",
    "char": "string",
    "enum": "string",
    "bool": "boolean",
    "binary": "boolean",
    "dict": "object",
    "map": "object",
    "list": "array",
}
_INTEGER_PREFIXES = ("int", "uint", "long", "short", "unsigned")
_NUMBER_PREFIXES = ("num", "float", "double", "decimal")


def _json_type_name(name: str) -> str:
    """The JSON Schema type a declared type name stands for (itself when it is one)."""
    name = name.strip().lower()
    if name in JSON_TYPES:
        return name
    if name in _TYPE_ALIASES:
        return _TYPE_ALIASES[name]
    if name.startswith(_INTEGER_PREFIXES):
        return "integer"
    if name.startswith(_NUMBER_PREFIXES):
        return "number"
    return name


def value_types(schema: object) -> frozenset[str]:
    """The JSON types a value of ``schema`` may take; empty when the schema does not say.

    Reads ``type`` (a name or a list; ``float``, ``int``, ``bool``, ``dict``, ``list`` … read as
    the JSON types they stand for), ``anyOf`` / ``oneOf`` (the union of their members),
    ``nullable``, and, when no type is given, ``enum`` / ``const`` values, ``properties``
    (an object) and ``items`` (an array).
    """
    if not isinstance(schema, Mapping):
        return frozenset()
    types: set[str] = set()
    declared = schema.get("type")
    if isinstance(declared, str):
        types.add(_json_type_name(declared))
    elif isinstance(declared, list):
        types.update(_json_type_name(name) for name in declared if isinstance(name, str))
    for key in ("anyOf", "oneOf"):
        members = schema.get(key)
        if isinstance(members, list):
            for member in members:
                types |= value_types(member)
    if not types:
        literals = list(schema.get("enum") or ())
        if "const" in schema:
            literals.append(schema["const"])
        types.update(json_type(literal) for literal in literals)
        if "properties" in schema:
            types.add("object")
        if "items" in schema:
            types.add("array")
    if schema.get("nullable") is True and types:
        types.add("null")
    return frozenset(types & JSON_TYPES)


def streams_as_string(types: frozenset[str]) -> bool:
    """Whether a value of these types is a plain string that may stream unconverted."""
    return not types or types == _STRING_ONLY


def convert_value(text: str, types: frozenset[str]) -> str:
    """The JSON text of a held value: typed by the schema, or the text as a JSON string.

    The stripped text is read as JSON; the result is kept when its type is allowed (a JSON
    string is allowed when strings are, or when the schema does not say). Booleans and null
    are also recognised case-insensitively (``True``, ``NULL``). Anything else becomes the
    original text as a string.
    """
    candidate = text.strip()
    try:
        value = json.loads(candidate, parse_constant=_reject_constant)
    except ValueError:
        pass
    else:
        if _allowed(value, types):
            try:
                return json.dumps(value, ensure_ascii=False, allow_nan=False)
            except ValueError:  # an overflowing number such as 1e400
                pass
    lowered = candidate.lower()
    if "boolean" in types and lowered in ("true", "false"):
        return lowered
    if "null" in types and lowered == "null":
        return "null"
    return json.dumps(text, ensure_ascii=False)


def _allowed(value: Any, types: frozenset[str]) -> bool:
    if isinstance(value, str):
        return not types or "string" in types
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, int):
        return "integer" in types or "number" in types
    if isinstance(value, float):
        return "number" in types or ("integer" in types and value.is_integer())
    return json_type(value) in types


def json_type(value: Any) -> str:
    """The JSON Schema type name of a decoded JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return "unknown"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
