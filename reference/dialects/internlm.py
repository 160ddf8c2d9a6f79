"""InternLM2 / 2.5 tool blocks: ``<|action_start|><|plugin|>{"name", "parameters"}<|action_end|>``.

The open tag is two special tokens, so a chunk may end between them; the close tag is one.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register


class InternLMToolParser(JsonToolParser):
    open_tag = "<|action_start|><|plugin|>"
    close_tag = "<|action_end|>"
    open_prefixes = ("<|action_start|>",)
    argument_field = "parameters"


register(
    Dialect(
        name="internlm",
        description="InternLM2/2.5: <|action_start|><|plugin|> JSON with 'parameters'",
        tool_parser=InternLMToolParser,
    )
)
