"""Reading the files users hand to the command line, with errors that name the problem."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .errors import UsageError


def read_text(path: str) -> str:
    """The text of ``path``, or of standard input for ``-``."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise UsageError(f"cannot read {path}: not UTF-8 text ({error.reason})") from None


def read_json(path: str, *, what: str) -> Any:
    """The JSON value in ``path``; ``what`` names the file's role in error messages."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(
            f"{what} {path} is not valid JSON: {error.msg} at line {error.lineno} "
            f"column {error.colno}"
        ) from None


def read_tools(path: str) -> list[dict[str, Any]]:
    """A JSON list of OpenAI tool objects (``{"type": "function", "function": {...}}``)."""
    tools = read_json(path, what="tools file")
    if not isinstance(tools, list):
        raise UsageError(f"tools file {path} must hold a JSON list of tool objects")
    for position, tool in enumerate(tools):
        function = tool.get("function", tool) if isinstance(tool, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise UsageError(
                f"tools file {path}: item {position} is not an OpenAI tool object with "
                'a function name ({"type": "function", "function": {"name": ...}})'
            )
    return tools


def read_chunks(path: str) -> list[str]:
    """A JSON list of strings: the engine chunks of one response."""
    chunks = read_json(path, what="chunks file")
    if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
        raise UsageError(f"chunks file {path} must hold a JSON list of strings")
    return chunks
