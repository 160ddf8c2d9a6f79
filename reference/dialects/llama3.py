"""Llama 3.x JSON tool calls: ``<|python_tag|>{"name", "parameters"}`` with no close tag.

The block ends where the JSON envelope ends; what follows is content again.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register


class Llama3JsonToolParser(JsonToolParser):
    open_tag = "<|python_tag|>"
    close_tag = None
    argument_field = "parameters"


register(
    Dialect(
        name="llama3_json",
        description="Llama 3.1-3.3: <|python_tag|> then one JSON object with 'parameters'",
        tool_parser=Llama3JsonToolParser,
        tokenizer_families=("llama3.1",),
    )
)
