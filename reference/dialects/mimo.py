"""Xiaomi MiMo: Qwen3-Coder's ``<function=…><parameter=…>`` calls, values written inline.

::

    <tool_call>
    <function=execute_bash>
    <parameter=command>pwd && ls</parameter>
    </function>
    </tool_call>

MiMo writes each value directly between ``<parameter=K>`` and ``</parameter>``, with no
layout newlines, so a value is exactly the text between its tags (vLLM 0.33's ``mimo``
parser and SGLang 0.5.23's ``mimo`` detector both keep it verbatim; Qwen3-Coder's would
strip a newline). Everything else is Qwen3-Coder's grammar.

The engines disagree on types: vLLM's ``mimo`` converter returns every value as a string,
SGLang's detector types it by the tool's schema (Qwen3-Coder's converter). MiMo's chat
template writes a non-string argument as JSON, as Qwen3-Coder's does, so reading it back by
the schema is the inverse of the template and the reference types it; the corpus lists
both outcomes (``mimo/impl/typed-value``).

Reasoning: ``<think>`` … ``</think>``, opened by the template when thinking is on (vLLM's
``mimo`` reasoning parser starts in reasoning unless ``enable_thinking`` is false; a
``<think>`` the model repeats is protocol, policy reasoning-open-repeated). SGLang's
``mimo`` reasoning detector starts as content instead: ``mimo/impl/answer-without-think``.

No PyPI wheel ships MiMo's tokenizer: the dialect is cut with the tag-aligned model, with
Qwen3-Coder's tag prefixes.
"""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from ..xml_tool_parser import KEEP_WHITESPACE
from .qwen3_coder import Qwen3CoderToolParser


class MiMoToolParser(Qwen3CoderToolParser):
    value_whitespace = KEEP_WHITESPACE


register(
    Dialect(
        name="mimo",
        description="MiMo: Qwen3-Coder XML with inline values, <think> that starts open",
        tool_parser=MiMoToolParser,
        reasoning_parser=ReasoningParser,
    )
)
