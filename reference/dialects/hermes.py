"""Hermes JSON tool blocks: ``<tool_call>{"name", "arguments"}</tool_call>``.

The format of NousResearch's Hermes 2 Pro and Hermes 3 (``hermes``), which Qwen2.5 and
Qwen3 took over (``qwen25``, ``qwen3``). Hermes models write the arguments first
(``{"arguments": {…}, "name": …}``, as their function-calling prompt shows it); the envelope
is read in any field order, the name emitted before the arguments. In the Qwen vocabularies
and in Hermes 2 Pro's ``<tool_call>``, ``</tool_call>``, ``<think>`` and ``</think>`` are
single added tokens, so none of them can be cut by a chunk boundary: no prefixes to hold.
``hermes`` has no tokenizer family (no PyPI wheel ships a Hermes tokenizer): it is cut with
the tag-aligned model.
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
register(
    Dialect(
        name="hermes",
        description="Hermes 2 Pro / Hermes 3: hermes JSON tool blocks, no reasoning",
        tool_parser=HermesToolParser,
    )
)
