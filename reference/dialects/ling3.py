"""Ling 3 (inclusionAI): GLM-4.7's ``<tool_call>NAME<arg_key>K</arg_key><arg_value>V…``.

vLLM 0.33's ``ling3`` parser is its GLM-4.7 grammar (``Ling3Parser(Glm47MoeParser)``) and
SGLang 0.5.23's ``ling3`` detector a GLM variant: the payload is GLM-4.7's, with GLM's
rules for a missing close tag and values typed by the tool's schema.

Reasoning follows the request's thinking flag: Ling 3's template defaults thinking off
(vLLM reads ``thinking`` / ``enable_thinking`` and has no reasoning channel without one),
and with thinking on it opens ``<think>`` in the prompt, so the output starts inside
reasoning. A ``<tool_call>`` inside reasoning ends reasoning, as in GLM (both engines).

No PyPI wheel ships the Ling 3 tokenizer: the dialect is cut with the tag-aligned model.
Its tags are declared single tokens, as GLM's are (vLLM matches ``<tool_call>`` and
``</tool_call>`` as token ids for Ling 3 as for GLM).
"""

from __future__ import annotations

from ..reasoning import ThinkingFlagReasoningParser
from ..registry import Dialect, register
from .glm import Glm47ToolParser


class Ling3ReasoningParser(ThinkingFlagReasoningParser):
    """Reasoning only with thinking on (the template opens ``<think>``); a tool call ends it."""

    tool_open_ends_reasoning = True


register(
    Dialect(
        name="ling3",
        description="Ling 3: GLM-4.7 <tool_call>NAME<arg_key>K…, <think> only with thinking on",
        tool_parser=Glm47ToolParser,
        reasoning_parser=Ling3ReasoningParser,
    )
)
