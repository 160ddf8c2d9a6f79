"""Dialects that only separate reasoning from content, with no tool syntax."""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register

register(
    Dialect(
        name="deepseek_r1",
        description="DeepSeek-R1: reasoning only; output starts inside <think>",
        reasoning_parser=ReasoningParser,
        tokenizer_families=("deepseek-r1",),
    )
)
