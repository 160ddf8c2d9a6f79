"""poolside Laguna (``poolside_v1``): GLM's ``<tool_call>NAME\\n<arg_key>K</arg_key>…`` pairs.

::

    <tool_call>get_weather
    <arg_key>city</arg_key>
    <arg_value>Oslo</arg_value>
    </tool_call>

vLLM 0.33 documents the name followed by a newline (``<tool_call>NAME\\n<arg_key>K
</arg_key><arg_value>V</arg_value></tool_call>``), SGLang 0.5.23's ``poolside_v1``
detector the same with a newline between every tag; GLM-4.5's reading accepts both (the
name ends at its line's end or at the first ``<arg_key>``, layout between tags is skipped).

Values: vLLM's converter returns every value as the string between its tags, SGLang's
detector types it by the tool's schema. The model writes non-string values as JSON (its
template is GLM's), so the reference types them, and the corpus lists both readings
(``poolside_v1/impl/typed-value``).

Reasoning: ``<think>`` … ``</think>``, the template opening it unless thinking is off (vLLM
starts inside reasoning unless ``thinking`` / ``enable_thinking`` is false); a tool call
ends reasoning. SGLang's ``poolside_v1`` reasoning detector starts as content instead
(``poolside_v1/impl/answer-without-think``).

No PyPI wheel ships the Laguna tokenizer: the dialect is cut with the tag-aligned model,
its tags declared single tokens (vLLM matches them as token ids).
"""

from __future__ import annotations

from ..registry import Dialect, register
from .glm import Glm45ToolParser, Glm47ReasoningParser

register(
    Dialect(
        name="poolside_v1",
        description="poolside Laguna: <tool_call>NAME\\n<arg_key>K…, reasoning that starts open",
        tool_parser=Glm45ToolParser,
        reasoning_parser=Glm47ReasoningParser,
    )
)
