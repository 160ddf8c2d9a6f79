"""Mistral tool calls: ``[TOOL_CALLS]`` and then a JSON array or ``NAME[ARGS]{…}``.

Two generations, told apart by the first character after ``[TOOL_CALLS]``
(mistral-common's ``decode_tool_calls``):

- tokenizers v2 to v7 (Mistral 7B v0.3, NeMo, Small 3): one block,
  ``[TOOL_CALLS][{"name": …, "arguments": {…}}, …]``; each envelope is one call (an ``id``
  field is skipped: it may follow the name, too late for an identity-first call);
- v11 and later (Small 3.1+, Devstral, Magistral): one block per call,
  ``[TOOL_CALLS]NAME[ARGS]{…}`` or ``[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}``, the id kept.

There is no close tag. mistral-common decodes everything after ``[TOOL_CALLS]`` as the call
(the model stops after the last one), vLLM's ``raw_decode`` ignores what follows the array,
and its v11 parser appends it to the arguments. The reference keeps the model's text
instead: the block ends where its JSON value (the array, or the arguments object) ends, as
for Llama 3, and text after it is content again; newlines before the next ``[TOOL_CALLS]``
are separators.

A marker repeated before the payload (``[TOOL_CALLS][TOOL_CALLS][{…}]``, also with a space
or a newline between: Mistral-7B-v0.3 does it at temperature 0) opens one block: the
repeats carry nothing and are dropped, as vLLM's first Mistral parser removed every marker
before decoding the array (vllm-project/vllm#5649). Read otherwise, the second marker would
end an empty block and the array would leak into content.

``[TOOL_CALLS]`` is one token of the tekken vocabulary; ``[ARGS]`` and ``[CALL_ID]`` are
text there (single tokens only in the v11+ vocabularies), so they can end a chunk after
``[``, ``[AR``, ``[ARGS`` or ``[``, ``[C``, ``[CALL``, ``[CALL_ID``. The name is held whole
anyway. The dialect has no reasoning channel: Magistral's ``[THINK]`` tokens are not in the
tekken vocabulary this dialect is tokenized with.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register
from ..tags import find_first
from ..types import DeltaToolCall, Request

_ARGS = "[ARGS]"
_CALL_ID = "[CALL_ID]"
_TOOL_CALLS = "[TOOL_CALLS]"
# Arguments whose [ARGS] the decoder dropped still start at their brace.
_NAME_ENDS = (_ARGS, _CALL_ID, _TOOL_CALLS, "{")
_ID_ENDS = (_ARGS, _TOOL_CALLS, "{")
# A search resumes this far before where it stopped: a marker may have begun in the tail.
_OVERLAP = max(map(len, _NAME_ENDS)) - 1
_WHITESPACE = " \t\r\n"

# Which form the block has, and where a NAME[ARGS]{…} call stands.
_UNDECIDED, _LIST, _NAME, _ID, _ARGUMENTS = range(5)
# What may follow a compact call's name, and the verdict's phase inside ``[…]`` of an array.
_AFTER_NAME = (_ARGS, _CALL_ID, "{", _TOOL_CALLS)
_IN_ARRAY = 3


class MistralToolParser(JsonToolParser):
    open_tag = _TOOL_CALLS
    close_tag = None
    accepts_envelope_list = True

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        tags[_ARGS] = ("[ARGS", "[AR", "[")
        tags[_CALL_ID] = ("[CALL_ID", "[CALL", "[C", "[")
        return tags

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._form = _UNDECIDED
        self._name = ""
        self._searched = 0  # characters of a held name or id already searched

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._form = _UNDECIDED

    def _payload_verdict(self, text: str, final: bool) -> int:
        """A payload is an array of envelopes (``[`` then ``{`` or ``]``) or a compact call
        (a name, then ``[ARGS]``, ``[CALL_ID]`` or ``{``); repeated markers are skipped.
        ``[TOOL_CALLS]`` followed by anything else ("is the marker") is prose."""
        n = len(text)
        i = self._verdict_scanned
        if self._verdict_phase == 0:
            i = self._verdict_scanned = self._skip_stutter(text, i)
            if i == n or (n - i < len(_TOOL_CALLS) and _TOOL_CALLS.startswith(text[i:])):
                return 0  # layout so far, or "[" that may begin the array or another marker
            if text[i] == "[":
                self._verdict_phase = _IN_ARRAY
                i += 1
            elif text[i] == "{":
                return 1  # arguments whose name is missing: still a (malformed) call
            else:
                self._verdict_phase = 1  # in the name
        if self._verdict_phase == _IN_ARRAY:
            while i < n and text[i] in _WHITESPACE:
                i += 1
            self._verdict_scanned = i
            if i == n:
                return 0
            return 1 if text[i] in "{]" else -1
        return self._word_then_tag_verdict(text, "[{", _AFTER_NAME)

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        n = len(text)
        i = 0
        if self._form == _UNDECIDED:
            while True:
                while i < n and text[i] in _WHITESPACE:
                    i += 1
                if i == n:
                    return n
                if text.startswith(_TOOL_CALLS, i):
                    i += len(_TOOL_CALLS)  # a repeated marker opens the same block
                    continue
                if not final and _TOOL_CALLS.startswith(text[i:]):
                    return i  # "[" may begin the array or a repeated marker
                break
            self._form = _LIST if text[i] == "[" else _NAME
            self._searched = 0
        if self._form == _LIST:
            if i:  # only on the first call: past the markers and layout it consumed
                return i + super()._consume_stream_payload(text[i:], deltas, final=final)
            return super()._consume_stream_payload(text, deltas, final=final)
        while True:
            form = self._form
            if form == _ARGUMENTS:
                scanner = self._scanner
                i = self._forward_json_value(scanner, text, i, deltas)
                if not scanner.complete:
                    break
                self._finish_call(deltas)
                self._payload_closed = True
                return i
            markers = _NAME_ENDS if form == _NAME else _ID_ENDS
            position, marker = find_first(text, markers, i + self._searched)
            if marker is None:
                self._searched = max(0, n - i - _OVERLAP)
                break
            self._searched = 0
            if marker == _TOOL_CALLS:
                self._payload_closed = True  # a call without arguments: not a call
                return position
            held = text[i:position].strip()
            if marker == _CALL_ID:
                self._name = held
                self._form = _ID
                i = position + len(marker)
                continue
            if form == _NAME:
                self._name, call_id = held, None
            else:
                call_id = held or None
            self._begin_call(call_id)
            if self._name:
                self._emit_delta(deltas, name=self._name)
            self._scanner.reset()
            self._form = _ARGUMENTS
            i = position + len(marker) if marker == _ARGS else position
        if final:
            if self._form == _ARGUMENTS:
                self._finish_call(deltas)
            return n
        return i


register(
    Dialect(
        name="mistral",
        description="Mistral: [TOOL_CALLS] with a JSON array (v3) or NAME[ARGS]{…} calls (v11+)",
        tool_parser=MistralToolParser,
        tokenizer_families=("mistral-tekken",),
    )
)
