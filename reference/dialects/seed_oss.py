"""ByteDance Seed-OSS: Qwen3-Coder's XML calls in ``<seed:tool_call>``, ``<seed:think>`` reasoning.

::

    <seed:think>Paris needs a forecast.</seed:think>Let me check.<seed:tool_call>
    <function=get_weather>
    <parameter=city>
    Paris
    </parameter>
    </function>
    </seed:tool_call>

Only the four wrapper tags differ from Qwen3-Coder (vLLM 0.33's ``seed_oss`` parser is its
Qwen3 grammar with these four strings replaced): ``<function=…>`` and ``<parameter=…>`` are
the same, and so are the value layout (one leading and one trailing newline) and the way a
missing close tag is read. SGLang 0.5.23 has no Seed-OSS detector.

Reasoning: the model writes ``<seed:think>`` itself — Seed-OSS's template ends the prompt
with the assistant header and leaves thinking (and its budget reflections) to the model —
so the output starts as content. A tool block inside reasoning resumes reasoning, as in
Qwen3. vLLM's Qwen3 grammar starts inside reasoning when thinking is on, so an answer the
model begins without ``<seed:think>`` is reasoning there: ``seed_oss/impl/answer-without-think``.

No PyPI wheel ships the Seed-OSS tokenizer: the dialect is cut with the tag-aligned model.
Its four wrapper tags are declared single tokens (they are special tokens of the Seed-OSS
vocabulary, like ``<seed:bos>``); the inner tags have Qwen3-Coder's prefixes.
"""

from __future__ import annotations

from ..reasoning import ModelOpensReasoningParser
from ..registry import Dialect, register
from .qwen3_coder import FUNCTION_CLOSE, PARAMETER_OPEN, Qwen3CoderToolParser


class SeedOssToolParser(Qwen3CoderToolParser):
    open_tag = "<seed:tool_call>"
    close_tag = "</seed:tool_call>"
    arg_value_end_tags = (PARAMETER_OPEN, FUNCTION_CLOSE, "</seed:tool_call>")


class SeedOssReasoningParser(ModelOpensReasoningParser):
    """``<seed:think>`` … ``</seed:think>``, opened by the model."""

    open_tag = "<seed:think>"
    close_tag = "</seed:think>"


register(
    Dialect(
        name="seed_oss",
        description="Seed-OSS: Qwen3-Coder XML in <seed:tool_call>, <seed:think> by the model",
        tool_parser=SeedOssToolParser,
        reasoning_parser=SeedOssReasoningParser,
    )
)
