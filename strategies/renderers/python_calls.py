"""Python call literals, as the pythonic dialects' models write them.

``call_literal(Call("f", {"a": 1, "b": "x"}))`` → ``'f(a=1, b="x")'``. Strings are written
double-quoted with JSON's escapes, which Python reads alike (``\\n``, ``\\"``, ``\\u00e9``);
``json_literals`` writes ``true`` / ``false`` / ``null`` instead of ``True`` / ``False`` /
``None`` (OLMo 3 does).
"""

from __future__ import annotations

import json
from typing import Any

from ..responses import Call

_PYTHON = {True: "True", False: "False", None: "None"}
_JSON = {True: "true", False: "false", None: "null"}


def literal(value: Any, *, json_literals: bool = False) -> str:
    """One argument value as Python source."""
    if value is None or isinstance(value, bool):
        return (_JSON if json_literals else _PYTHON)[value]
    if isinstance(value, str | int | float):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        items = (
            f"{json.dumps(key, ensure_ascii=False)}: {literal(item, json_literals=json_literals)}"
            for key, item in value.items()
        )
        return "{" + ", ".join(items) + "}"
    return "[" + ", ".join(literal(item, json_literals=json_literals) for item in value) + "]"


def call_literal(call: Call, *, json_literals: bool = False) -> str:
    """``NAME(key=value, …)``."""
    arguments = ", ".join(
        f"{key}={literal(value, json_literals=json_literals)}"
        for key, value in call.arguments.items()
    )
    return f"{call.name}({arguments})"


def holds(value: Any, text: str) -> bool:
    """Whether ``text`` occurs in any string (key or value) inside ``value``."""
    if isinstance(value, str):
        return text in value
    if isinstance(value, dict):
        return any(text in key or holds(item, text) for key, item in value.items())
    if isinstance(value, list):
        return any(holds(item, text) for item in value)
    return False
