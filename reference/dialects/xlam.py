"""Salesforce xLAM: a bare JSON array of envelopes, ``[{"name", "arguments"}, …]``.

The xLAM-2 chat templates ask the model to answer a call with nothing but the array
(``[{"name": "func", "arguments": {…}}, …]``) and to answer in text otherwise. There is no
marker: the ``[`` is the open tag and the array's ``]`` ends the block; text after it is
content again. An ``[`` is a block only when an envelope follows it: layout, ``{``,
layout, then the key ``"name"`` or ``"arguments"``; a list in prose (``[1, 2]``,
``[see below]``, ``[{"a": 1}]``) is text, decided at the first character that rules the
envelope out. vLLM's ``xlam`` parser reads the array only when the whole output starts
with ``[`` and also digs an array out of a fenced block, ``[TOOL_CALLS]`` or
``<tool_call>`` (``xlam/impl/fenced-array``); the reference reads every array that begins
with an envelope, as ``pythonic`` reads every list that begins with a call.

xLAM-2 models are fine-tunes of Llama 3.1 (``Llama-xLAM-2-8b-fc-r``, ``-70b``) and of
Qwen2.5 (``xLAM-2-1b/3b/32b-fc-r``): the dialect is cut with Llama 3.1's vocabulary, where
the array is plain text. The models do not think: no reasoning channel.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register

_LAYOUT = " \t\r\n"
#: What may follow ``{`` in an envelope, as far as the verdict reads.
_KEYS = ('"name"', '"arguments"')


class XlamToolParser(JsonToolParser):
    open_tag = "["
    close_tag = None
    accepts_envelope_list = True
    payload_starts = ("{",)

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._in_list = True  # the open tag is the array's own bracket

    def _payload_verdict(self, text: str, final: bool) -> int:
        n = len(text)
        i = self._verdict_scanned
        phase = self._verdict_phase  # 0: before the brace, 1: after it
        while i < n and text[i] in _LAYOUT:
            i += 1
        if i < n and phase == 0:
            if text[i] != "{":
                return -1
            phase = 1
            i += 1
            while i < n and text[i] in _LAYOUT:
                i += 1
        self._verdict_scanned = i
        self._verdict_phase = phase
        if i == n:
            return 0
        rest = text[i : i + len(_KEYS[1])]
        for key in _KEYS:
            if rest.startswith(key):
                return 1
            if key.startswith(rest):
                return 0
        return -1


register(
    Dialect(
        name="xlam",
        description="Salesforce xLAM: a bare JSON array of envelopes [{name, arguments}, …]",
        tool_parser=XlamToolParser,
        tokenizer_families=("llama3.1",),
    )
)
