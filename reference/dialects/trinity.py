"""Arcee Trinity: Qwen2.5's hermes tool blocks, and ``<think>`` blocks the model writes.

SGLang's ``trinity`` detector is its Qwen2.5 detector run on the text with every ``<think>``
and ``</think>`` removed, so that a tool block written while thinking is still a call. The
reference reads the think block as reasoning (the answer starts as content: the model
writes the open tag) and a tool block inside it as a call after which reasoning resumes, as
for Qwen3; the detector alone, without a reasoning parser, leaves the thinking text in
content (``trinity/impl/think-block-without-reasoning-parser``). The tags are single tokens
in Trinity's vocabulary as in Qwen's; no PyPI wheel ships it: the tag-aligned model.
"""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from .hermes import HermesToolParser


class TrinityReasoningParser(ReasoningParser):
    """``<think>`` … ``</think>`` written by the model: the output starts as content."""

    def starts_in_reasoning(self) -> bool:
        return False


register(
    Dialect(
        name="trinity",
        description="Arcee Trinity: hermes JSON tool blocks, <think> blocks the model writes",
        tool_parser=HermesToolParser,
        reasoning_parser=TrinityReasoningParser,
    )
)
