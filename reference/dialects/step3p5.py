"""StepFun Step-3.5 / 3.7 and Step-5: Qwen3-Coder's XML calls after ``<think>`` reasoning.

Both use Qwen3-Coder's ``<tool_call><function=…><parameter=…>`` grammar unchanged (vLLM
0.33's ``step3p5`` and ``step5`` parsers are its Qwen3 grammar; SGLang 0.5.23 binds
``step3p5`` to its ``qwen3_coder`` detector).

Reasoning:

- ``step3p5``: the chat template always prefills ``<think>\\n`` and has no switch to turn
  thinking off (vLLM's ``step3p5`` ignores ``enable_thinking``), so the output always starts
  inside reasoning, and the model closes it with ``\\n</think>\\n``. vLLM strips the
  reasoning's trailing whitespace, SGLang's ``step3p5`` detector (DeepSeek-R1's) keeps it;
  the template says nothing about it, so the reference keeps the text as written and the
  corpus lists both (``step3p5/impl/reasoning-trailing-newline``).
- ``step5``: vLLM's ``step5`` reasoning parser is DeepSeek-R1's, read as the
  ``deepseek_r1`` dialect reads it: the output starts in reasoning, ``<think>`` may be
  repeated, ``</think>`` ends it, and ``thinking: false`` turns the channel off.

A tool block inside reasoning resumes reasoning, as in Qwen3. No PyPI wheel ships the
StepFun tokenizers: both are cut with the tag-aligned model, with Qwen3-Coder's prefixes.
"""

from __future__ import annotations

from ..reasoning import AlwaysReasoningParser, ReasoningParser
from ..registry import Dialect, register
from .qwen3_coder import Qwen3CoderToolParser

register(
    Dialect(
        name="step3p5",
        description="Step-3.5/3.7: Qwen3-Coder XML, <think> always prefilled by the template",
        tool_parser=Qwen3CoderToolParser,
        reasoning_parser=AlwaysReasoningParser,
    )
)
register(
    Dialect(
        name="step5",
        description="Step-5: Qwen3-Coder XML, DeepSeek-R1 reasoning (starts inside <think>)",
        tool_parser=Qwen3CoderToolParser,
        reasoning_parser=ReasoningParser,
    )
)
