"""The JSON-envelope tool blocks shared by the hermes, InternLM, Llama 3, Granite, Jamba,
Hunyuan, Phi-4-mini and Apertus renderers."""

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


def envelope_array(calls: Iterable[Call]) -> str:
    """``[{"name": …, "arguments": {…}}, …]``: every call in one JSON array (Jamba, Granite)."""
    return json.dumps(
        [{"name": call.name, "arguments": dict(call.arguments)} for call in calls],
        ensure_ascii=False,
    )
