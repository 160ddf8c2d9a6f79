"""rednote dots.llm: MiniMax-M2's invokes in a ``<dots_function_call>`` block.

::

    <dots_function_call>
    <invoke name="get_weather">
    <parameter name="city">Oslo</parameter>
    </invoke>
    </dots_function_call>

vLLM 0.33's ``dots`` parser and SGLang 0.5.23's ``dots`` detector read the invokes and
parameters of MiniMax-M2 (names quoted or not) inside these outer tags, any number of
invokes per block, values typed by the tool's schema. The reference reads them with the
MiniMax-M2 driver: a value is the text between its tags, as the template writes it
inline. Both engines strip a value's surrounding whitespace, which no template writes
(``dots/impl/value-whitespace``), and both also accept a JSON object
(``{"name", "arguments"}``) as the block's payload, a fallback outside the format: to the
reference a block that does not begin with ``<invoke name=`` is prose, its tag text
(``dots/impl/json-payload``).

Reasoning: ``<think>`` … ``</think>`` written by the model (SGLang binds dots to its Qwen3
reasoning detector without forced reasoning); the output starts as content.

No PyPI wheel ships the dots.llm tokenizer: the dialect is cut with the tag-aligned model,
with MiniMax-M2's inner-tag prefixes and single-token outer tags.
"""

from __future__ import annotations

from ..reasoning import ModelOpensReasoningParser
from ..registry import Dialect, register
from .minimax_m2 import INVOKE_CLOSE, MiniMaxM2ToolParser

BLOCK_CLOSE = "</dots_function_call>"


class DotsToolParser(MiniMaxM2ToolParser):
    open_tag = "<dots_function_call>"
    close_tag = BLOCK_CLOSE
    arg_value_end_tags = (INVOKE_CLOSE, BLOCK_CLOSE)


register(
    Dialect(
        name="dots",
        description='dots.llm: <dots_function_call><invoke name="…"><parameter name="…">, '
        "<think> by the model",
        tool_parser=DotsToolParser,
        reasoning_parser=ModelOpensReasoningParser,
    )
)
