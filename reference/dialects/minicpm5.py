"""MiniCPM-4/5 tool calls: ``<function name="…"><param name="…">…</param></function>``.

::

    <function name="get_weather"><param name="city">Oslo</param></function>
    <function name="write"><param name="text"><![CDATA[two
    lines </param> and all]]></param></function>

One block is one call, the function element itself; several calls are blocks one after the
other (the newline between them is dropped as a separator). It is MiniMax-M2's invoke
without a wrapper, so the reference reads it with the MiniMax driver: the open tag
``<function name=`` is followed by the name's header, the parameters are MiniMax's under
``<param name=`` / ``</param>``, and ``</function>`` closes both the call and the block. A
``<function name=`` inside a block whose ``</function>`` never came starts the next call.

Values are written inline, as MiniMax-M2's, typed by the tool's schema; a value that holds
markup is wrapped in a CDATA section, which both engines unwrap: its text is the value,
verbatim, and ``</param>`` inside it is value text. The engines also strip a value's
surrounding whitespace where the reference keeps it (``minicpm5/impl/value-whitespace``),
and drop a call whose parameters the schema does not declare or whose required ones are
missing, leaving its markup as content (``minicpm5/impl/undeclared-parameter``).

No PyPI wheel ships the MiniCPM tokenizer: the tag-aligned model. vLLM's parser says the
tool tags are special tokens of MiniCPM5 (it turns ``skip_special_tokens`` off for them):
``<function``, ``</function>``, ``<param`` and ``</param>`` are taken as single tokens, so a
chunk may end after ``<function`` or ``<param`` and after the `` name`` that follows, never
inside one of them. The CDATA markup is text, cut after ``<``, ``<![`` or ``<![CDATA``
and inside ``]]>``. vLLM 0.33 and SGLang 0.5.23 bind no reasoning parser to
this format: the dialect has no reasoning channel.
"""

from __future__ import annotations

from ..markup import json_string_piece, skip_stray_text, skip_whitespace, tag_at
from ..registry import Dialect, register
from ..schema_values import convert_value, streams_as_string
from ..types import DeltaToolCall, Request
from ..xml_tool_parser import _HOLD, _STREAM, ARG_NAME, ARG_START, DONE, FUNCTION
from .minimax_m2 import MiniMaxM2ToolParser

FUNCTION_OPEN = "<function name="
FUNCTION_CLOSE = "</function>"
PARAM_OPEN = "<param name="
PARAM_CLOSE = "</param>"
CDATA_OPEN = "<![CDATA["
CDATA_CLOSE = "]]>"

# Where the current value stands towards a CDATA section.
_UNKNOWN, _PLAIN, _INSIDE, _AFTER = range(4)


class MiniCPM5ToolParser(MiniMaxM2ToolParser):
    open_tag = FUNCTION_OPEN
    close_tag = FUNCTION_CLOSE
    open_prefixes = ("<function name", "<function")
    close_prefixes = ()
    invoke_open = FUNCTION_OPEN
    invoke_close = FUNCTION_CLOSE
    parameter_open = PARAM_OPEN
    arg_value_close_tag = PARAM_CLOSE
    arg_value_end_tags = (FUNCTION_CLOSE,)
    payload_starts = ()  # the open tag ends in the name's attribute: nothing to decide
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        PARAM_OPEN: ("<param name", "<param"),
        PARAM_CLOSE: (),
        CDATA_OPEN: ("<![CDATA", "<![", "<"),
        CDATA_CLOSE: ("]]", "]"),
    }

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._named = False
        self._cdata = _UNKNOWN

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._named = False

    # ------------------------------------------------------------ calls and parameters

    def _consume_function(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        if self._search.open:  # the rest of a header that began in an earlier chunk
            return self._invoke_header(payload, pos, final)
        if not self._named:  # the open tag was the call's own: its name comes first
            self._named = True
            return self._invoke_header(payload, pos, final)
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (FUNCTION_CLOSE, FUNCTION_OPEN))
        if tag == FUNCTION_CLOSE:
            return pos, None, DONE
        if tag == FUNCTION_OPEN:  # the previous call's </function> is missing
            return self._invoke_header(payload, pos + len(tag), final)
        if tag is None:
            return skip_stray_text(payload, pos), None, FUNCTION
        return (len(payload), None, DONE) if final else None

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (PARAM_OPEN, FUNCTION_CLOSE, FUNCTION_OPEN))
        if tag == PARAM_OPEN:
            return pos + len(tag), ARG_NAME
        if tag:  # the call's end (the block's close tag, left to it) or the next call
            return pos, DONE
        if tag is None:
            return skip_stray_text(payload, pos), ARG_START
        return None

    # ------------------------------------------------------------ CDATA values

    def _start_value(self, name: str) -> None:
        super()._start_value(name)
        self._cdata = _UNKNOWN

    def _consume_arg_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        if self._cdata == _UNKNOWN:
            if text.startswith(CDATA_OPEN, pos):
                pos += len(CDATA_OPEN)
                self._cdata = _INSIDE
                state = self._state
                state.value_mode = _STREAM if streams_as_string(state.value_types) else _HOLD
            elif not final and CDATA_OPEN.startswith(text[pos : pos + len(CDATA_OPEN)]):
                return pos, False  # the value may still open a CDATA section
            else:
                self._cdata = _PLAIN
        if self._cdata == _PLAIN:
            return super()._consume_arg_value(text, pos, deltas, final)
        return self._consume_cdata(text, pos, deltas, final)

    def _consume_streamed_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        if self._cdata == _PLAIN:
            return super()._consume_streamed_value(text, pos, deltas, final)
        return self._consume_cdata(text, pos, deltas, final)

    def _consume_cdata(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        """A CDATA value: verbatim up to ``]]>``, then layout up to its ``</param>``."""
        state = self._state
        streamed = state.value_mode == _STREAM
        n = len(text)
        if self._cdata == _INSIDE:
            end = text.find(CDATA_CLOSE, pos)
            if end < 0 and not final:
                stable = n
                while stable > pos and n - stable < 2 and text[stable - 1] == "]":
                    stable -= 1  # the start of a "]]>" to come
                if stable > pos:
                    piece = text[pos:stable] if pos or stable < n else text
                    if streamed:
                        self._emit_streamed(deltas, piece)
                    else:
                        state.held.append(piece)
                return stable, False
            rest = text[pos : end if end >= 0 else n]
            if streamed:
                # At the end of the input before any of the value: invent no empty string.
                if rest or end >= 0 or state.key_emitted:
                    self._emit_value(deltas, json_string_piece(rest) + '"')
            else:
                value = "".join(state.held) + rest
                state.held = []
                if value or end >= 0:
                    self._emit_value(deltas, convert_value(value, state.value_types))
            if end < 0:
                return n, True
            pos = end + len(CDATA_CLOSE)
            self._cdata = _AFTER
        pos = skip_whitespace(text, pos)
        if text.startswith(PARAM_CLOSE, pos):
            return pos + len(PARAM_CLOSE), True
        if not final and PARAM_CLOSE.startswith(text[pos:]):
            return pos, False  # nothing yet, or the start of </param>
        return pos, True  # a missing </param>: what follows is the next tag's


register(
    Dialect(
        name="minicpm5",
        description='MiniCPM-4/5: <function name="…"><param name="…">…</param></function> per '
        "call, CDATA values",
        tool_parser=MiniCPM5ToolParser,
    )
)
