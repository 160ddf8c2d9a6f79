"""JSON values compared as JSON: numbers by their exact decimal value, strings by value.

Parsers are written in many languages, and each serializer spells a number its own way: a
JavaScript or Go parser writes the double 6.009211221254147e16 as ``60092112212541470``,
Python as ``6.009211221254147e+16``. Both texts are the same JSON number, so comparing
``int`` against ``float`` exactly (as Python does after ``json.loads``) would blame a correct
parser. Here every number becomes a ``Decimal`` read from its text — exact, so ``0.1`` and
``0.1000000000000000055511151231257827`` stay different — and booleans stay booleans (in
Python ``True == 1``; in JSON they are different values).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any


class NotJson:
    """Text that does not parse as JSON: equal only to the same text."""

    __slots__ = ("raw",)

    def __init__(self, raw: str) -> None:
        self.raw = raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NotJson) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"NotJson({self.raw!r})"


class _Constant:
    """``NaN``, ``Infinity``, ``-Infinity``: not JSON, but ``json.loads`` accepts them; each
    equals only itself (a ``Decimal('NaN')`` would not even equal itself)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Constant) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def parse(text: str, *, pairs: bool = False) -> Any:
    """The JSON value of ``text`` in comparable form, or ``NotJson(text)``.

    With ``pairs`` objects become ordered lists of ``(key, value)`` pairs, duplicates kept:
    for cases where key order and repeated keys are part of the contract.
    """
    hook: Callable[[list[tuple[str, Any]]], Any] | None = list if pairs else None
    try:
        return json.loads(
            text,
            parse_float=Decimal,
            parse_int=Decimal,
            parse_constant=_Constant,
            object_pairs_hook=hook,
        )
    except (ValueError, TypeError, RecursionError):
        return NotJson(text)


def comparable(value: Any) -> Any:
    """A Python value already decoded (an expectation from the corpus) in the form ``parse``
    gives: numbers as exact decimals of their shortest representation."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value)) if value == value and abs(value) != float("inf") else value
    if isinstance(value, dict):
        return {key: comparable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [comparable(item) for item in value]
    return value


def same(actual: Any, expected: Any) -> bool:
    """Whether two comparable values are the same JSON value (booleans never equal numbers)."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(
            same(actual[key], expected[key]) for key in actual
        )
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(
            same(a, b) for a, b in zip(actual, expected, strict=True)
        )
    if isinstance(actual, tuple) and isinstance(expected, tuple):  # (key, value) pairs
        return len(actual) == len(expected) and all(
            same(a, b) for a, b in zip(actual, expected, strict=True)
        )
    if isinstance(actual, dict | list | tuple) or isinstance(expected, dict | list | tuple):
        return False
    return type(actual) is type(expected) and actual == expected


def arguments_value(arguments: str) -> Any:
    """A call's arguments as a JSON value, or ``NotJson`` of the text when they are not JSON."""
    try:
        return json.loads(arguments)
    except (ValueError, TypeError, RecursionError):
        return NotJson(arguments)
