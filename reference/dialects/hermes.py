"""Hermes JSON tool blocks: ``<tool_call>{"name", "arguments"}</tool_call>``.

The format of NousResearch's Hermes 2 Pro and Hermes 3 (``hermes``), which Qwen2.5 and
Qwen3 took over (``qwen25``, ``qwen3``). Hermes models write the arguments first
(``{"arguments": {…}, "name": …}``, as their function-calling prompt shows it); the envelope
is read in any field order, the name emitted before the arguments. In the Qwen vocabularies
and in Hermes 2 Pro's ``<tool_call>``, ``</tool_call>``, ``<think>`` and ``</think>`` are
single added tokens, so none of them can be cut by a chunk boundary: no prefixes to hold.
``hermes`` has no tokenizer family (no PyPI wheel ships a Hermes tokenizer): it is cut with
the tag-aligned model.

``trinity`` (Arcee Trinity): Qwen2.5's blocks and ``<think>`` blocks the model writes itself.
SGLang's ``trinity`` detector is its Qwen2.5 detector run on the text with every ``<think>``
and ``</think>`` removed, so that a tool block written while thinking is still a call. The
reference reads the think block as reasoning (the answer starts as content: the model
writes the open tag) and a tool block inside it as a call after which reasoning resumes, as
for Qwen3; the detector alone, without a reasoning parser, leaves the thinking text in
content (``trinity/impl/think-block-without-reasoning-parser``). The tags are single tokens
in Trinity's vocabulary as in Qwen's; no PyPI wheel ships it: the tag-aligned model.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..reasoning import ModelOpensReasoningParser, ReasoningParser
from ..registry import Dialect, register


class HermesToolParser(JsonToolParser):
    open_tag = "<tool_call>"
    close_tag = "</tool_call>"


class TrinityReasoningParser(ModelOpensReasoningParser):
    """``<think>`` … ``</think>`` written by the model: the output starts as content."""


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
register(
    Dialect(
        name="trinity",
        description="Arcee Trinity: hermes JSON tool blocks, <think> blocks the model writes",
        tool_parser=HermesToolParser,
        reasoning_parser=TrinityReasoningParser,
    )
)
