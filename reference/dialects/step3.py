"""StepFun Step-3: ``<steptml:invoke>`` calls inside DeepSeek-style section tokens.

::

    <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>
    <steptml:invoke name="get_weather">
    <steptml:parameter name="city">Oslo</steptml:parameter>
    </steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>

(one line: the break after ``<｜tool_sep｜>`` is only for reading). vLLM 0.33's ``step3``
parser and SGLang 0.5.23's ``step3`` detector read one section of calls, each
``<｜tool_call_begin｜>function<｜tool_sep｜>`` and one invoke. The invoke is MiniMax-M2's
with the ``steptml:`` namespace, so the reference reads it with the MiniMax driver: the
section's own call tokens and the ``function`` type between them are the stray text
between invokes, skipped (vLLM skips a call whose type is not ``function``).

Values: a value is the text between its tags, as for MiniMax-M2, typed by the tool's
schema. Both engines strip a value's surrounding whitespace (``step3/impl/value-whitespace``),
and vLLM types only integers, numbers, booleans and null by the schema, keeping arrays and
objects as the strings written (``step3/impl/array-value``).

Reasoning: everything before ``</think>`` is reasoning (vLLM's ``step3``; SGLang's is
DeepSeek-R1's with reasoning forced): the output always starts inside reasoning.

No PyPI wheel ships the Step-3 tokenizer: the dialect is cut with the tag-aligned model,
the section tokens declared single tokens and the ``steptml`` tags cut as MiniMax-M2's.
"""

from __future__ import annotations

from ..reasoning import AlwaysReasoningParser
from ..registry import Dialect, register
from .minimax_m2 import MiniMaxM2ToolParser

BLOCK_OPEN = "<｜tool_calls_begin｜>"
BLOCK_CLOSE = "<｜tool_calls_end｜>"
CALL_BEGIN = "<｜tool_call_begin｜>"
CALL_END = "<｜tool_call_end｜>"
TOOL_SEP = "<｜tool_sep｜>"
INVOKE_OPEN = "<steptml:invoke name="
INVOKE_CLOSE = "</steptml:invoke>"
PARAMETER_OPEN = "<steptml:parameter name="
PARAMETER_CLOSE = "</steptml:parameter>"


class Step3ToolParser(MiniMaxM2ToolParser):
    open_tag = BLOCK_OPEN
    close_tag = BLOCK_CLOSE
    invoke_open = INVOKE_OPEN
    invoke_close = INVOKE_CLOSE
    parameter_open = PARAMETER_OPEN
    arg_value_close_tag = PARAMETER_CLOSE
    arg_value_end_tags = (INVOKE_CLOSE, CALL_END, BLOCK_CLOSE)
    payload_starts = (CALL_BEGIN,)
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        CALL_BEGIN: (),
        CALL_END: (),
        TOOL_SEP: (),
        INVOKE_OPEN: ("<steptml:invoke name", "<steptml:invoke", "<steptml:", "<"),
        INVOKE_CLOSE: ("</steptml:invoke", "</steptml:", "</"),
        PARAMETER_OPEN: ("<steptml:parameter name", "<steptml:parameter", "<steptml:", "<"),
        PARAMETER_CLOSE: ("</steptml:parameter", "</steptml:", "</"),
    }


register(
    Dialect(
        name="step3",
        description='Step-3: <｜tool_calls_begin｜>…<steptml:invoke name="…">, '
        "always reasoning first",
        tool_parser=Step3ToolParser,
        reasoning_parser=AlwaysReasoningParser,
    )
)
