"""The request the engine adapter unit tests send: two tools, one with typed arguments.

The engines' conformance is the corpus certified against each engine's expectations file
(``reports/certification/certify_engine.py``, run by its tox environment after these
tests); these tests pin what the adapters themselves must do.
"""

from __future__ import annotations

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        },
    },
}
TIME = {
    "type": "function",
    "function": {
        "name": "get_time",
        "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}},
    },
}
TOOLS = {"tools": [WEATHER, TIME]}
