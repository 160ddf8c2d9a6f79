"""IQuest Q1 (SGLang's ``iquest_q1``): GLM-4.7's pairs in ``<iquest_tool_call>`` blocks.

::

    <iquest_tool_call>get_weather<arg_key>city</arg_key><arg_value>Oslo</arg_value></iquest_tool_call>

SGLang 0.5.23's ``IQuestQ1Detector`` is its GLM-4.7 detector with these outer tags (the
name is the stripped text before the first ``<arg_key>``, values typed by the schema and
string values kept verbatim); vLLM 0.33 has no IQuest Q1 parser. GLM's rules for a missing
close tag apply.

Reasoning: SGLang's ``iquest_q1`` reasoning detector starts inside ``<think>`` (the
template opens it) and only ``</think>`` ends it; a block inside reasoning resumes
reasoning, as for the other dialects whose template opens it (Qwen3).

No PyPI wheel ships the IQuest tokenizer: the dialect is cut with the tag-aligned model,
its tags declared single tokens, as GLM's are.
"""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from .glm import ARG_KEY_OPEN, Glm45ToolParser

BLOCK_CLOSE = "</iquest_tool_call>"


class IQuestQ1ToolParser(Glm45ToolParser):
    """GLM-4.5's reading (a name line or a name run into ``<arg_key>``) in IQuest's tags."""

    open_tag = "<iquest_tool_call>"
    close_tag = BLOCK_CLOSE
    arg_value_end_tags = (ARG_KEY_OPEN, BLOCK_CLOSE)


register(
    Dialect(
        name="iquest_q1",
        description="IQuest Q1: GLM pairs in <iquest_tool_call>, <think> that starts open",
        tool_parser=IQuestQ1ToolParser,
        reasoning_parser=ReasoningParser,
    )
)
