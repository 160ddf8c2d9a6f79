"""Dialects that only separate reasoning from content, with no tool syntax.

``deepseek_r1`` and ``holo2`` (H Company's Holo2, a Qwen3-VL model whose actions are
content): the template opens ``<think>``, the output starts in reasoning, and ``thinking:
false`` turns the channel off (vLLM's ``holo2`` parser is its DeepSeek-V3 one defaulting to
thinking: R1's with thinking on, none with it off). ``kimi_vl``: the model writes the
markers itself.
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


class KimiThinkingReasoningParser(ReasoningParser):
    """``◁think▷`` … ``◁/think▷``, written by the model itself: the output starts as content.

    Kimi's thinking models (Kimi-VL-A3B-Thinking, the SGLang ``kimi`` reasoning parser)
    open the block in their own output rather than in the chat template, so text before
    ``◁think▷`` is content and a response without it has no reasoning. The template has no
    thinking switch, so the request's flag changes nothing (SGLang's parser ignores it too).
    """

    open_tag = "◁think▷"
    close_tag = "◁/think▷"

    def enabled(self) -> bool:
        return True

    def starts_in_reasoning(self) -> bool:
        return False


register(
    Dialect(
        name="kimi_vl",
        description="Kimi thinking models (Kimi-VL): reasoning only, ◁think▷ … ◁/think▷ "
        "in the output",
        reasoning_parser=KimiThinkingReasoningParser,
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
