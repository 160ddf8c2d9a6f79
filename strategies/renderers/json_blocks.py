"""The JSON-envelope tool block shared by hermes, InternLM and Llama 3 renderers."""

from __future__ import annotations

import json
from collections.abc import Iterable

from ..responses import Call


def envelope(call: Call, argument_field: str) -> str:
    """``{"name": …, "<argument_field>": {…}}`` as models write it (UTF-8 kept, ``", "``)."""
    return json.dumps({"name": call.name, argument_field: dict(call.arguments)}, ensure_ascii=False)


def blocks(calls: Iterable[Call], open_tag: str, close_tag: str, argument_field: str) -> str:
    """One block per call, consecutive blocks separated by a newline (dropped by parsers)."""
    return "\n".join(open_tag + envelope(call, argument_field) + close_tag for call in calls)
