"""Hermes JSON tool blocks (Qwen2.5, Qwen3): ``<tool_call>{"name", "arguments"}</tool_call>``.

In the Qwen vocabularies ``<tool_call>``, ``</tool_call>``, ``<think>`` and ``</think>`` are
single added tokens, so none of them can be cut by a chunk boundary: no prefixes to hold.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..reasoning import ReasoningParser
from ..registry import Dialect, register


class HermesToolParser(JsonToolParser):
    open_tag = "<tool_call>"
    close_tag = "</tool_call>"


register(
    Dialect(
        name="qwen3",
        description="Qwen3: hermes JSON tool blocks, <think> reasoning that may start open",
        tool_parser=HermesToolParser,
        reasoning_parser=ReasoningParser,
        tokenizer_families=("qwen3",),
    )
)
register(
    Dialect(
        name="qwen25",
        description="Qwen2.5: hermes JSON tool blocks, no reasoning",
        tool_parser=HermesToolParser,
        tokenizer_families=("qwen2.5",),
    )
)
