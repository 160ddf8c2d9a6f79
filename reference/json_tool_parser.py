"""JSON-envelope tool payloads: ``{"name": ..., "arguments": {...}}`` inside outer tags.

Hermes (Qwen), InternLM and Llama 3 differ only in their outer tags and the name of the
arguments field, so a dialect here is a subclass that declares those (seed 000, "JSON 工具
payload"). The envelope is read incrementally: the name is decoded once its string is
complete; the arguments value is forwarded verbatim (duplicate keys, order and spacing kept)
as far as the ``JsonValueScanner`` has found it to extend; other fields are skipped. A dialect
whose payload is a JSON array of envelopes (Mistral's ``[TOOL_CALLS][{…}, {…}]``) sets
``accepts_envelope_list``: each envelope is one call and the payload ends with the array. A
dialect whose envelope is keyed by the function name (Apertus' ``{"NAME": {…}}``) sets
``name_keyed``.
"""

from __future__ import annotations

from json.decoder import scanstring  # the C decoder json.loads uses, strict
from typing import ClassVar

from .json_scanner import JsonValueScanner
from .tool_parser import ToolParser
from .types import DeltaToolCall, Request

# Envelope phases.
_START, _KEY, _KEY_STRING, _COLON, _VALUE, _NAME, _ARGUMENTS, _SKIP, _AFTER, _DONE = range(10)
_WHITESPACE = " \t\r\n"


class JsonToolParser(ToolParser):
    """A tool block whose payload is one JSON object naming the function and its arguments."""

    name_field: ClassVar[str] = "name"
    argument_field: ClassVar[str] = "arguments"
    #: Other field names read as the arguments where the dialect's models also write them;
    #: the first arguments field of an envelope wins, whichever name it has.
    argument_field_aliases: ClassVar[tuple[str, ...]] = ()
    #: Whether the payload may be a JSON array of envelopes, one call each.
    accepts_envelope_list: ClassVar[bool] = False
    #: Whether an envelope names the function by its key, ``{"NAME": {arguments}}``
    #: (Apertus): the first key is the name and its value the arguments.
    name_keyed: ClassVar[bool] = False
    #: An envelope is a JSON object: an open tag followed by anything else is prose.
    payload_starts = ("{",)

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        # A raw (non-JSON) value inside the envelope ends where the envelope goes on.
        self._scanner = JsonValueScanner(self.close_tag, raw_stops=",}")
        self._phase = _START
        self._key = ""
        self._resume = 0  # characters of a held string already scanned
        self._name_seen = False
        self._arguments_seen = False
        self._in_list = False

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._phase = _START
        self._in_list = False

    def feed_tool_block(self, text: str, deltas: list[DeltaToolCall], final: bool = False) -> int:
        """``ToolParser.feed_tool_block``, with the hot path in front of it: the middle of a
        long string argument, where a chunk with no quote in it is all value.

        In ``_ARGUMENTS`` the payload was decided and neither it nor the block has closed,
        so the chunk goes to the arguments without the calls in between
        (``ToolParser.feed_tool_block``, ``_consume_stream_payload``,
        ``_forward_json_value``) and, for a named call, without ``_emit_arguments``' either:
        such a chunk costs 0.65 µs through ``ResponseParser.stream_chunk``, against 0.83 µs
        with the calls and the empty slice ``stream_chunk`` then stored (timeit,
        2026-12-07). The scanner is fed only to follow escapes: a chunk that ends in a
        backslash escapes the next one's first character.
        """
        if self._phase == _ARGUMENTS and text and not final:
            scanner = self._scanner
            if scanner.in_string and '"' not in text:
                if scanner.escape or "\\" in text:
                    scanner.feed(text)  # escapes, no quote: the string goes on past the chunk
                index = self._output_index
                if index >= 0:
                    deltas.append(DeltaToolCall(index, None, None, None, text))
                    self._arguments_emitted = True
                else:
                    self._emit_arguments(deltas, text)
                return len(text)
        return ToolParser.feed_tool_block(self, text, deltas, final)

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        n = len(text)
        i = 0
        while True:
            phase = self._phase
            if phase == _ARGUMENTS:
                scanner = self._scanner
                i = self._forward_json_value(scanner, text, i, deltas)
                if scanner.complete:
                    self._phase = _AFTER
                elif scanner.interrupted:
                    self._close_payload(deltas)
                    return i
                else:
                    break
            elif phase == _SKIP:
                scanner = self._scanner
                i = scanner.feed(text, i, n)
                if scanner.complete:
                    self._phase = _AFTER
                elif scanner.interrupted:
                    self._close_payload(deltas)
                    return i
                else:
                    break
            elif phase in (_KEY_STRING, _NAME):
                held = self._held_string(text, i, n)
                if held is None:
                    if final:
                        i = n
                    break
                i, value = held
                if phase == _KEY_STRING:
                    key = value if isinstance(value, str) else ""
                    if self.name_keyed and not self._name_seen:
                        self._name_seen = True
                        if key:
                            self._emit_delta(deltas, name=key)
                        key = self.argument_field  # the name's value is the arguments
                    self._key = key
                    self._phase = _COLON
                else:
                    if isinstance(value, str) and not self._name_seen:
                        self._name_seen = True
                        self._emit_delta(deltas, name=value)
                    self._phase = _AFTER
            elif phase == _VALUE:
                while i < n and text[i] in _WHITESPACE:
                    i += 1
                if i == n:
                    break
                self._scanner.reset()
                key = self._key
                if (
                    key == self.argument_field or key in self.argument_field_aliases
                ) and not self._arguments_seen:
                    self._arguments_seen = True
                    self._phase = _ARGUMENTS
                elif key == self.name_field and not self._name_seen and text[i] == '"':
                    self._phase = _NAME
                else:
                    self._phase = _SKIP
            elif phase == _DONE:
                break
            else:
                # Punctuation between envelope tokens: _START, _KEY, _COLON, _AFTER.
                while i < n and text[i] in _WHITESPACE:
                    i += 1
                if i == n:
                    break
                c = text[i]
                if c == self._tag_head and text.startswith(self.close_tag or "", i):
                    self._close_payload(deltas)
                    return i
                if c == self._tag_head and (self.close_tag or "").startswith(text[i:]):
                    break  # maybe the close tag: wait for the rest
                i += 1
                if phase == _START:
                    if c == "{":
                        self._begin_call()
                        self._name_seen = self._arguments_seen = False
                        self._phase = _KEY
                    elif c == "[" and self.accepts_envelope_list and not self._in_list:
                        self._in_list = True
                    elif c == "]" and self._in_list:
                        self._close_payload(deltas)
                        return i
                elif phase == _KEY:
                    if c == '"':
                        self._phase = _KEY_STRING
                        self._scanner.reset()
                        i -= 1  # the held string starts at its quote
                    elif c == "}" and self._end_envelope(deltas):
                        return i
                elif phase == _COLON:
                    self._phase = _VALUE
                    if c != ":":
                        i -= 1  # a missing colon is tolerated
                elif c == "}":  # _AFTER
                    if self._end_envelope(deltas):
                        return i
                elif c == ",":
                    self._phase = _KEY
        if final:
            if self._phase == _ARGUMENTS:
                self._scanner.finish()
            self._close_payload(deltas)
            return n
        return i

    @property
    def _tag_head(self) -> str | None:
        return self.close_tag[0] if self.close_tag else None

    def _held_string(self, text: str, start: int, n: int) -> tuple[int, object] | None:
        """Scan a string that is only useful whole (a key, the name), without consuming it.

        Returns ``(end, decoded value)`` once complete, or ``None`` to hold the string back;
        ``_resume`` remembers how far it was scanned, so it is never scanned twice.
        """
        scanner = self._scanner
        if not scanner.started:
            scanner.feed(text, start, start + 1)
            self._resume = 1
        end = scanner.feed(text, start + self._resume, n)
        if not scanner.complete:
            self._resume = end - start
            return None
        self._resume = 0
        try:  # json.loads' own string decoder, without its parse of a whole document
            return end, scanstring(text, start + 1)[0]
        except ValueError:
            return end, None

    def _end_envelope(self, deltas: list[DeltaToolCall]) -> bool:
        """An envelope's ``}``: True when it also ends the payload (not inside a list)."""
        if not self._in_list:
            self._close_payload(deltas)
            return True
        self._finish_call(deltas)
        self._phase = _START
        return False

    def _close_payload(self, deltas: list[DeltaToolCall]) -> None:
        """The payload ended (or was cut): finish the call of an open envelope."""
        if self._phase != _START:
            self._finish_call(deltas)
        self._phase = _DONE
        self._payload_closed = True

    def _finish_call(self, deltas: list[DeltaToolCall]) -> None:
        """A named call without arguments gets ``{}``."""
        if self._call_named and not self._arguments_emitted:
            self._emit_delta(deltas, arguments="{}")
