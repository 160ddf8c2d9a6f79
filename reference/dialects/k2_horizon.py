"""K2 Horizon (IFM): Hunyuan's block of several GLM-style calls, every tag ``<ifm|…>``.

::

    <ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Oslo</ifm|arg_value></ifm|tool_call></ifm|tool_calls>

vLLM 0.33's ``k2_horizon`` parser and SGLang 0.5.23's ``k2_horizon`` detector read one
``<ifm|tool_calls>`` block of ``<ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>
<ifm|arg_value>V</ifm|arg_value>…</ifm|tool_call>`` calls: the name is the stripped text
before the first key, values are typed by the tool's schema (string values kept as
written). The reference reads it with the Hunyuan reading of the GLM driver (a call whose
close tag is missing ends at the next call or at the block's end; a value whose close tag
is missing ends at the next key or call tag).

The engines' ``xml_typed`` variant (a request's ``tool_call_format``) writes
``<ifm|arg_type>T</ifm|arg_type>`` between a key and its value. The reference reads a type
tag where it stands there and skips it: the value is typed by the tool's schema, as in
the default format (vLLM lets the written type narrow a union schema; a type tag in the
default format makes vLLM reject the whole block): ``k2_horizon/impl/typed-argument``.

Where the engines differ from the reference: both emit the block whole when it closes, and
vLLM rejects the whole block (it becomes content) when one call names a tool the request
does not offer, where the reference drops only that call (seed 000 过滤与保留).

Reasoning: ``<ifm|think>`` … ``</ifm|think>`` (the ``high`` reasoning effort's tags; the
lower efforts' ``<ifm|think_fast>`` and ``<ifm|think_faster>`` are the same grammar with
other tags). The template opens it (vLLM's parser is DeepSeek-R1's, SGLang's detector
forces reasoning), ``thinking: false`` turns it off, and ``<ifm|tool_calls>`` ends it.

No PyPI wheel ships the K2 Horizon tokenizer: the dialect is cut with the tag-aligned model,
its tags declared single tokens (vLLM looks ``<ifm|tool_calls>`` up as one vocabulary id).
"""

from __future__ import annotations

from ..markup import skip_stray_text
from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from ..types import Request
from ..xml_tool_parser import ARG_START
from .hunyuan import HunyuanToolParser

BLOCK_OPEN = "<ifm|tool_calls>"
BLOCK_CLOSE = "</ifm|tool_calls>"
CALL_OPEN = "<ifm|tool_call>"
CALL_CLOSE = "</ifm|tool_call>"
ARG_KEY_OPEN = "<ifm|arg_key>"
ARG_KEY_CLOSE = "</ifm|arg_key>"
ARG_TYPE_OPEN = "<ifm|arg_type>"
ARG_TYPE_CLOSE = "</ifm|arg_type>"
ARG_VALUE_OPEN = "<ifm|arg_value>"
ARG_VALUE_CLOSE = "</ifm|arg_value>"
#: The longest type a type tag holds (``string``, ``array[integer]``): text without its
#: close tag within this many characters is no type, and the search for it stays bounded.
TYPE_LIMIT = 64


class K2HorizonToolParser(HunyuanToolParser):
    open_tag = BLOCK_OPEN
    close_tag = BLOCK_CLOSE
    call_open_tag = CALL_OPEN
    call_close_tag = CALL_CLOSE
    arg_key_open = ARG_KEY_OPEN
    arg_key_close = ARG_KEY_CLOSE
    value_repeated_open = ARG_VALUE_OPEN
    arg_value_close_tag = ARG_VALUE_CLOSE
    arg_value_end_tags = (ARG_KEY_OPEN, CALL_CLOSE, BLOCK_CLOSE, CALL_OPEN)
    payload_starts = (CALL_OPEN,)
    name_ends = (ARG_KEY_OPEN,)
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        CALL_OPEN: (),
        CALL_CLOSE: (),
        ARG_KEY_OPEN: (),
        ARG_KEY_CLOSE: (),
        ARG_TYPE_OPEN: (),
        ARG_TYPE_CLOSE: (),
        ARG_VALUE_OPEN: (),
        ARG_VALUE_CLOSE: (),
    }

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        #: A type tag was dropped: the stray text after it is skipped up to the next tag.
        self._dropped_type = False

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._dropped_type = False

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        if self._dropped_type:
            end = skip_stray_text(payload, pos - 1)  # the next "<" at or after pos
            if end == len(payload):
                return (end, ARG_START) if end > pos else None
            self._dropped_type = False
            if end > pos:
                # The stray text is consumed on its own: were the tag after it undecided,
                # the text would be read again with ``_dropped_type`` already cleared (a
                # value, when the stream went on; dropped, when the text came whole).
                return end, ARG_START
        return super()._consume_arg_start(payload, pos)

    def _between_key_and_value(self) -> tuple[str, ...]:
        return (*super()._between_key_and_value(), ARG_TYPE_OPEN)

    def _consume_between_tag(self, payload: str, pos: int, tag: str) -> tuple[int, str] | None:
        """``<ifm|arg_type>T</ifm|arg_type>`` is skipped whole; a type tag whose close tag
        does not come within ``TYPE_LIMIT`` characters is dropped with the stray text after
        it, up to the next tag (the value's open tag, most likely)."""
        start = pos + len(tag)
        window = start + TYPE_LIMIT + len(ARG_TYPE_CLOSE)
        end = payload.find(ARG_TYPE_CLOSE, start, window)
        if end >= 0:
            return end + len(ARG_TYPE_CLOSE), ARG_START
        if len(payload) < window:
            return None  # the type may still close: at most TYPE_LIMIT characters are held
        self._dropped_type = True
        return start, ARG_START


class K2HorizonReasoningParser(ReasoningParser):
    """``<ifm|think>`` opened by the template; the tool block ends reasoning."""

    open_tag = "<ifm|think>"
    close_tag = "</ifm|think>"
    tool_open_ends_reasoning = True


register(
    Dialect(
        name="k2_horizon",
        description="K2 Horizon: <ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K…, "
        "<ifm|think> that starts open",
        tool_parser=K2HorizonToolParser,
        reasoning_parser=K2HorizonReasoningParser,
    )
)
