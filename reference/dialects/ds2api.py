"""ds2api: DSML and legacy XML tool calls with drift tolerance, parsed by their own engine.

Seed 003 is the specification; ``reference/ds2api/`` holds the engine (its package docstring
lists the modules in the order the text flows) and ``docs/ds2api.md`` the semantics.
"""

from __future__ import annotations

from ..ds2api.parser import Ds2apiResponseParser, Ds2apiToolParser
from ..registry import Dialect, register

register(
    Dialect(
        name="ds2api",
        description=(
            "ds2api: DSML <|DSML|tool_calls> and legacy <tool_calls> XML, drift-tolerant shells, "
            "fenced and inline code inert, unknown names kept"
        ),
        tool_parser=Ds2apiToolParser,
        response_parser=Ds2apiResponseParser,
        tokenizer_families=("deepseek-v4",),
    )
)
