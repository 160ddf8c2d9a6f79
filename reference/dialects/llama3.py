"""Llama 3.x JSON tool calls: ``<|python_tag|>{"name", "parameters"}`` with no close tag.

The block ends where the JSON envelope ends; what follows is content again. Meta's prompt
format names the field ``parameters``, but Llama models also write ``arguments`` (the
OpenAI name the tool definitions and the previous turns use); vLLM's ``llama3_json`` and
SGLang's ``llama3`` parsers read either, so the reference does too rather than turn such a
call into ``{}``: the first of the two fields in an envelope is the arguments.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register


class Llama3JsonToolParser(JsonToolParser):
    open_tag = "<|python_tag|>"
    close_tag = None
    argument_field = "parameters"
    argument_field_aliases = ("arguments",)


register(
    Dialect(
        name="llama3_json",
        description="Llama 3.1-3.3: <|python_tag|> then one JSON object with 'parameters'",
        tool_parser=Llama3JsonToolParser,
        tokenizer_families=("llama3.1",),
    )
)
