"""Reasoning only, the model writing its own markers: Kimi's thinking models (``kimi_vl``).

No tool syntax in this dialect.
"""

from __future__ import annotations

from ..reasoning import AlwaysReasoningParser, ModelOpensReasoningParser
from ..registry import Dialect, register


class KimiThinkingReasoningParser(AlwaysReasoningParser, ModelOpensReasoningParser):
    """``◁think▷`` … ``◁/think▷``, written by the model itself: the output starts as content.

    Kimi's thinking models (Kimi-VL-A3B-Thinking, the SGLang ``kimi`` reasoning parser)
    open the block in their own output rather than in the chat template, so text before
    ``◁think▷`` is content and a response without it has no reasoning. The template has no
    thinking switch, so the request's flag changes nothing (SGLang's parser ignores it too).
    """

    open_tag = "◁think▷"
    close_tag = "◁/think▷"


register(
    Dialect(
        name="kimi_vl",
        description="Kimi thinking models (Kimi-VL): reasoning only, ◁think▷ … ◁/think▷ "
        "in the output",
        reasoning_parser=KimiThinkingReasoningParser,
    )
)
