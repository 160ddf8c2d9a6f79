"""gpt-oss: OpenAI Harmony channels, parsed by their own response parser.

Analysis is reasoning, final is content, a message addressed to ``functions.NAME`` is a
call (``reference/harmony.py`` has the grammar and the routing). Every Harmony marker is one
special token of o200k_harmony; the recipient `` to=functions.`` is text and can end a chunk
after `` to``, `` to=`` or `` to=functions``.
"""

from __future__ import annotations

from ..harmony import HarmonyResponseParser, HarmonyToolParser
from ..registry import Dialect, register

register(
    Dialect(
        name="gpt_oss",
        description="gpt-oss: Harmony channels (analysis, commentary to=functions.NAME, final)",
        tool_parser=HarmonyToolParser,
        response_parser=HarmonyResponseParser,
        tokenizer_families=("gpt-oss",),
    )
)
