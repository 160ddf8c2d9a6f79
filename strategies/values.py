"""Tool definitions and argument values: the data a tool call carries.

Schemas use the types real tool definitions use (nested objects, arrays, enums, nullable
types, ``anyOf``); values drawn from them favour what breaks streaming parsers: quotes,
backslashes, escapes, non-BMP characters, right-to-left text, combining marks, fragments of
protocol tags and long strings. Values are written here rather than with a generic JSON
Schema generator because those cannot be steered toward such strings.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

JsonValue = Any

#: Characters that stress tokenizers and decoders: CJK, emoji (non-BMP, ZWJ sequences,
#: skin tones), right-to-left scripts, combining marks, odd whitespace.
_SPECIAL_CHARACTERS = (
    "東京",
    "你好",
    "ありがとう",
    "한국어",
    "🙂",
    "🧑🏿‍💻",
    "👨‍👩‍👧",
    "🇯🇵",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "שלום",
    "مرحبا",
    "é",
    "e\u0301",
    "ñ",
    "\u00a0",
    "\u3000",
    "\t",
    "\r\n",
    "\u200b",
    "\u2028",
)
#: Fragments that JSON and XML payloads must carry through intact.
_FRAGMENTS = ('"', "'", "\\", "\\n", "\\u00e9", "{", "}", "[", "]", ":", ",", "<", ">", "</", "/>")
#: Near-misses of common protocol tags (never the exact tag of a dialect's content).
_LOOK_ALIKES = (
    "</tag>",
    "<tool_call",
    "</tool_call >",
    "< /think>",
    "<function=",
    "</parameter",
    "<|python_tag|",
    "[TOOL_CALLS",
    "<｜DSML｜",
    "functions.",
    "```json",
)

_WORDS = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=6
)


def text_pieces(*, look_alikes: Iterable[str] = ()) -> st.SearchStrategy[str]:
    """Short pieces that ``texts`` joins: words, special characters, fragments, look-alikes."""
    extra = tuple(look_alikes)
    return st.one_of(
        _WORDS,
        st.sampled_from(_SPECIAL_CHARACTERS),
        st.sampled_from(_FRAGMENTS),
        st.sampled_from(_LOOK_ALIKES + extra),
        st.sampled_from((" ", "\n", "\n\n", "  ")),
    )


def texts(
    *,
    min_size: int = 0,
    max_size: int = 12,
    avoid: Iterable[str] = (),
    look_alikes: Iterable[str] = (),
) -> st.SearchStrategy[str]:
    """NFC text joined from 0 … ``max_size`` pieces, containing none of ``avoid``.

    ``texts(avoid=["<tool_call>"])`` → ``'東京 </tool_call >🙂\\n'``. Text is NFC because
    several families normalize it (a model can never emit anything else there).
    """
    if min_size < 0:
        raise InvalidArgument(f"min_size={min_size} must be at least 0")
    if max_size < min_size:
        raise InvalidArgument(f"max_size={max_size} must be at least min_size={min_size}")
    forbidden = tuple(tag for tag in avoid if tag)
    return (
        st.lists(text_pieces(look_alikes=look_alikes), max_size=max_size)
        .map(lambda pieces: unicodedata.normalize("NFC", "".join(pieces)))
        .filter(lambda text: len(text) >= min_size and not any(tag in text for tag in forbidden))
    )


def long_texts() -> st.SearchStrategy[str]:
    """Hundreds to a couple of thousand characters: one piece repeated, then NFC."""
    return st.builds(
        lambda piece, count: unicodedata.normalize("NFC", piece * count),
        text_pieces().filter(bool),
        st.integers(min_value=50, max_value=300),
    )


def string_values(*, look_alikes: Iterable[str] = ()) -> st.SearchStrategy[str]:
    """Argument strings: mostly short and hostile, sometimes long."""
    extra = tuple(look_alikes)
    return st.one_of(texts(look_alikes=extra), long_texts())


_NAME_HEAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_TAIL = _NAME_HEAD + "0123456789"


def identifiers() -> st.SearchStrategy[str]:
    """Tool and parameter names as real APIs spell them: ``get_weather``, ``q2``."""
    return st.builds(
        lambda head, tail: head + tail,
        st.sampled_from(_NAME_HEAD),
        st.text(alphabet=_NAME_TAIL, max_size=16),
    )


_SCALAR_SCHEMAS = st.one_of(
    st.just({"type": "string"}),
    st.just({"type": "integer"}),
    st.just({"type": "number"}),
    st.just({"type": "boolean"}),
    st.lists(texts(max_size=3), min_size=1, max_size=4, unique=True).map(
        lambda options: {"type": "string", "enum": options}
    ),
)


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if isinstance(schema.get("type"), str) and "enum" not in schema:
        return {**schema, "type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _object_schema(properties: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        fields = draw(st.dictionaries(identifiers(), properties, max_size=4))
        required = sorted(name for name in fields if draw(st.booleans()))
        return {"type": "object", "properties": fields, "required": required}

    return build()


def json_schemas(*, max_depth: int = 2) -> st.SearchStrategy[dict[str, Any]]:
    """JSON Schemas of one parameter: scalars, enums, arrays, objects, nullable, ``anyOf``.

    ``json_schemas()`` → ``{'type': 'array', 'items': {'type': ['integer', 'null']}}``.
    """
    if max_depth < 0:
        raise InvalidArgument(f"max_depth={max_depth} must be at least 0")

    def extend(inner: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        return st.one_of(
            inner.map(lambda items: {"type": "array", "items": items}),
            _object_schema(inner),
            inner.map(_nullable),
            st.lists(inner, min_size=2, max_size=3).map(lambda options: {"anyOf": options}),
        )

    schemas = _SCALAR_SCHEMAS
    for _ in range(max_depth):
        schemas = st.one_of(_SCALAR_SCHEMAS, extend(schemas))
    return schemas


def parameter_schemas(*, max_depth: int = 2) -> st.SearchStrategy[dict[str, Any]]:
    """The ``parameters`` object of a tool: an object schema with 0 … 4 properties."""
    return _object_schema(json_schemas(max_depth=max_depth))


def tools(*, min_size: int = 1, max_size: int = 4) -> st.SearchStrategy[list[dict[str, Any]]]:
    """OpenAI tool definitions with distinct names.

    ``tools()`` → ``[{'type': 'function', 'function': {'name': 'get_weather',
    'parameters': {'type': 'object', 'properties': {...}, 'required': [...]}}}]``.
    """
    if min_size < 0:
        raise InvalidArgument(f"min_size={min_size} must be at least 0")
    if max_size < min_size:
        raise InvalidArgument(f"max_size={max_size} must be at least min_size={min_size}")
    return st.lists(
        st.builds(
            lambda name, parameters: {
                "type": "function",
                "function": {"name": name, "parameters": parameters},
            },
            identifiers(),
            parameter_schemas(),
        ),
        min_size=min_size,
        max_size=max_size,
        unique_by=lambda tool: tool["function"]["name"],
    )


_TYPE_VALUES: dict[str, st.SearchStrategy[JsonValue]] = {
    "integer": st.integers(min_value=-(2**53), max_value=2**53),
    "number": st.floats(allow_nan=False, allow_infinity=False),
    "boolean": st.booleans(),
    "null": st.none(),
}
_SUPPORTED = frozenset({"type", "enum", "items", "properties", "required", "anyOf", "description"})


def arguments(
    schema: Mapping[str, Any], *, look_alikes: Iterable[str] = ()
) -> st.SearchStrategy[JsonValue]:
    """Values valid for ``schema`` (the subset ``json_schemas`` produces).

    ``arguments({'type': 'object', 'properties': {'city': {'type': 'string'}},
    'required': ['city']})`` → ``{'city': '東京"\\\\'}``. Unknown keywords raise
    ``InvalidArgument`` at once.
    """
    unknown = set(schema) - _SUPPORTED
    if unknown:
        raise InvalidArgument(
            f"schema keyword(s) {sorted(unknown)} are not supported; use "
            f"{sorted(_SUPPORTED)} (the subset json_schemas() draws)"
        )
    extra = tuple(look_alikes)
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    if "anyOf" in schema:
        return st.one_of([arguments(option, look_alikes=extra) for option in schema["anyOf"]])
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        return st.one_of([arguments({**schema, "type": k}, look_alikes=extra) for k in kind])
    if kind == "string":
        return string_values(look_alikes=extra)
    if kind == "array":
        return st.lists(arguments(schema.get("items", {}), look_alikes=extra), max_size=4)
    if kind == "object":
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {k: arguments(v, look_alikes=extra) for k, v in properties.items() if k in required},
            optional={
                k: arguments(v, look_alikes=extra)
                for k, v in properties.items()
                if k not in required
            },
        )
    if kind in _TYPE_VALUES:
        return _TYPE_VALUES[kind]
    raise InvalidArgument(f"schema type {kind!r} is not supported")
