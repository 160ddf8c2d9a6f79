"""The JSON-lines adapter protocol: its version, its message schema, its validator."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

PROTOCOL_VERSION = 1


@cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of every message (requests and responses)."""
    text = (resources.files(__package__) / "schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _validator(kind: str) -> jsonschema.protocols.Validator:
    root = schema()
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": root["$defs"]})


def problems(kind: str, message: Any) -> list[str]:
    """Why ``message`` is not a valid ``kind`` (a ``$defs`` name of the schema), if it is not."""
    return [
        f"{'/'.join(map(str, error.path)) or '(message)'}: {error.message}"
        for error in _validator(kind).iter_errors(message)
    ]
