"""Reasoning only, the template opening ``<think>``: DeepSeek-R1 and Holo2.

``deepseek_r1`` and ``holo2`` (H Company's Holo2, a Qwen3-VL model whose actions are
content): the template opens ``<think>``, the output starts in reasoning, and ``thinking:
false`` turns the channel off (vLLM's ``holo2`` parser is its DeepSeek-V3 one defaulting to
thinking: R1's with thinking on, none with it off). No tool syntax in either.
"""

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
register(
    Dialect(
        name="holo2",
        description="H Company Holo2: reasoning only; <think> that starts open unless "
        "thinking is off",
        reasoning_parser=ReasoningParser,
        tokenizer_families=("qwen3",),
    )
)
