"""MiniMax-M2 tool calls: ``<minimax:tool_call><invoke name="…"><parameter name="…">``.

::

    <minimax:tool_call>
    <invoke name="get_weather">
    <parameter name="city">Tokyo</parameter>
    </invoke>
    </minimax:tool_call>

One block holds any number of invokes. As in the parser of MiniMax's tool-calling guide,
names may be quoted with ``"`` or ``'`` or not at all. A value is exactly the text between
``<parameter name="K">`` and ``</parameter>``: the chat template writes it inline there,
with no layout around it, so its whitespace is the value's own (code indentation, a
trailing newline). The guide's parser strips it and so did vLLM's until it kept values
verbatim (vllm-project/vllm#48846); typed values are read as JSON without it all the same.
That parser matches ``<parameter name=(.*?)</parameter>`` inside
``<invoke name=(.*?)</invoke>``: a value runs to the next ``</parameter>``, even across a
``<parameter name=``; where it would drop a parameter whose ``</parameter>`` never comes,
the value ends at ``</invoke>`` or ``</minimax:tool_call>`` instead.

The outer tags and ``<think>`` / ``</think>`` are single tokens of the MiniMax-M2
vocabulary; ``<invoke name=``, ``</invoke>``, ``<parameter name=`` and ``</parameter>`` are
plain text cut at ``<`` · ``invoke`` · `` name`` · ``=`` (offline-tokenizers §4). The chat
template ends every prompt with ``<think>\\n`` and has no thinking switch, so the output
always starts inside reasoning.
"""

from __future__ import annotations

from typing import ClassVar

from ..markup import skip_stray_text, skip_whitespace, tag_at, unquote
from ..reasoning import AlwaysReasoningParser
from ..registry import Dialect, register
from ..xml_tool_parser import (
    ARG_NAME,
    ARG_START,
    DONE,
    FUNCTION,
    XmlToolParser,
)

INVOKE_OPEN = "<invoke name="
INVOKE_CLOSE = "</invoke>"
PARAMETER_OPEN = "<parameter name="
PARAMETER_CLOSE = "</parameter>"
BLOCK_CLOSE = "</minimax:tool_call>"


class MiniMaxM2ToolParser(XmlToolParser):
    """MiniMax-M2's payload; the dialects that wrap the same invokes in other outer tags
    (dots.llm's ``<dots_function_call>``) or spell them otherwise (Step-3's
    ``<steptml:invoke name=``) set the tag attributes: every hook reads its tags from the
    class."""

    open_tag = "<minimax:tool_call>"
    close_tag = BLOCK_CLOSE
    invoke_open: ClassVar[str] = INVOKE_OPEN
    invoke_close: ClassVar[str] = INVOKE_CLOSE
    parameter_open: ClassVar[str] = PARAMETER_OPEN
    arg_value_close_tag = PARAMETER_CLOSE
    arg_value_end_tags = (INVOKE_CLOSE, BLOCK_CLOSE)
    payload_starts = (INVOKE_OPEN,)
    #: What every tag of the payload begins with: stray text is skipped up to the next one.
    tag_lead: ClassVar[str] = "<"
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        INVOKE_OPEN: ("<invoke name", "<invoke", "<"),
        INVOKE_CLOSE: ("</invoke", "</"),
        PARAMETER_OPEN: ("<parameter name", "<parameter", "<"),
        PARAMETER_CLOSE: ("</parameter", "</"),
    }

    def _consume_function(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        if self._search.open:  # the rest of a header that began in an earlier chunk
            return self._invoke_header(payload, pos, final)
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (self.invoke_open, self.close_tag))
        if tag == self.invoke_open:
            return self._invoke_header(payload, pos + len(tag), final)
        if tag == self.close_tag:
            return pos, None, DONE
        if tag is None:
            return skip_stray_text(payload, pos, self.tag_lead), None, FUNCTION
        return (len(payload), None, DONE) if final else None

    def _invoke_header(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        header = self._search.header(payload, pos)
        if header is None:
            # An unfinished name at the end of the input is no name: invent none.
            return (len(payload), None, DONE) if final else None
        end, name = header
        return (end, None, FUNCTION) if name is None else (end, unquote(name), ARG_START)

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        pos = skip_whitespace(payload, pos)
        tags = (self.parameter_open, self.invoke_close, self.close_tag, self.invoke_open)
        tag = tag_at(payload, pos, tags)
        if tag == self.parameter_open:
            return pos + len(tag), ARG_NAME
        if tag == self.invoke_close:
            return pos + len(tag), DONE
        if tag:  # the block's end or the next invoke: this invoke's </invoke> is missing
            return pos, DONE
        if tag is None:
            return skip_stray_text(payload, pos, self.tag_lead), ARG_START
        return None

    def _consume_arg_name(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        header = self._search.header(payload, pos)
        if header is None:
            return None
        end, name = header
        return end, None if name is None else unquote(name)


register(
    Dialect(
        name="minimax_m2",
        description='MiniMax-M2: <minimax:tool_call><invoke name="…"><parameter name="…">, '
        "always reasoning first",
        tool_parser=MiniMaxM2ToolParser,
        reasoning_parser=AlwaysReasoningParser,
        tokenizer_families=("minimax-m2",),
    )
)
