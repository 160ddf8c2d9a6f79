"""Section-token tool blocks: ``OPEN (CALL_OPEN header SEPARATOR arguments CALL_CLOSE)* CLOSE``.

DeepSeek V3 / V3.1 and Kimi K2 wrap their calls in a section of special tokens (seed 000,
"新增 Parser": a section/call syntax derives directly from ``ToolParser``). The outer section
tags are the tool block's open and close tags; inside, each call is opened and closed by its
own marker and split in two by a separator: the header before it (the name in V3.1, the
``functions.NAME:IDX`` id in Kimi K2, the type word ``function`` in V3) and the arguments
after it, one JSON value forwarded verbatim as far as the ``JsonValueScanner`` has found it
to extend. A dialect declares its markers and, where its layout needs it, overrides two
hooks: ``_read_header`` (name and call id from the header) and ``_arguments_start`` (what
stands between the separator and the JSON value: V3's name line and code fence).

In DeepSeek's and Kimi's vocabularies every marker is one token, so a chunk never ends inside
one; a dialect whose markers are several tokens (PLaMo 3) declares their prefixes, and a
tail that may begin one waits between calls. The header is held whole (it is only useful
whole) and searched from where the previous search stopped, and text between calls is
dropped. A call without a separator, or whose
name is empty, never becomes a call; at the end of input an emitted call is finished with
``{}`` when it has no arguments, and partial arguments are kept as streamed.
"""

from __future__ import annotations

from typing import ClassVar

from .json_scanner import JsonValueScanner
from .tags import find_first, longest_first, stable_prefix_end
from .tool_parser import ToolParser
from .types import DeltaToolCall, Request

# Where the parser stands inside the section.
_BETWEEN, _HEADER, _PREAMBLE, _ARGUMENTS, _AFTER = range(5)
_WHITESPACE = " \t\r\n"


class SectionToolParser(ToolParser):
    """Base of the section-token dialects; subclasses declare the markers."""

    #: Opens one call inside the section.
    call_open: ClassVar[str]
    #: Separates a call's header from its arguments.
    call_separator: ClassVar[str]
    #: Closes one call; also what interrupts malformed arguments.
    call_close: ClassVar[str]
    #: Proper prefixes of the three call markers that can end a chunk, longest first.
    call_open_prefixes: ClassVar[tuple[str, ...]] = ()
    call_separator_prefixes: ClassVar[tuple[str, ...]] = ()
    call_close_prefixes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        tags[cls.call_open] = cls.call_open_prefixes
        tags[cls.call_separator] = cls.call_separator_prefixes
        tags[cls.call_close] = cls.call_close_prefixes
        return tags

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        assert self.close_tag is not None, "a section has a close tag"
        self._section_close: str = self.close_tag
        self._scanner = JsonValueScanner(self.call_close)
        self._state = _BETWEEN
        self._searched = 0  # characters of a held header already searched for markers
        self._between_markers = (self.call_open, self._section_close)
        self._header_markers = (
            self.call_separator,
            self.call_close,
            self.call_open,
            self._section_close,
        )
        self._after_markers = (self.call_close, self.call_open, self._section_close)
        # The declared chunk-end prefixes of those markers (none where they are one token).
        self._between_prefixes = longest_first(self.call_open_prefixes, self.close_prefixes)
        self._after_prefixes = longest_first(
            self.call_close_prefixes, self.call_open_prefixes, self.close_prefixes
        )
        # A header search resumes this far before where it stopped, so that a marker cut by
        # a chunk boundary (never by a token-aligned one: they are single tokens) is found.
        self._overlap = max(map(len, self._header_markers)) - 1

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._state = _BETWEEN

    # ----------------------------------------------------------------- dialect hooks

    def _read_header(self, header: str) -> tuple[str | None, str | None]:
        """``(name, call id)`` from a call's header (stripped); ``None`` when absent there."""
        return header, None

    def _arguments_start(
        self, text: str, start: int, deltas: list[DeltaToolCall]
    ) -> tuple[int, bool]:
        """Consume what precedes the JSON arguments; ``(position, whether they start there)``.

        Returns ``(position, False)`` to hold ``text[position:]`` for more input. Nothing
        precedes the arguments unless the dialect says so.
        """
        return start, True

    # ----------------------------------------------------------------- driver

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        n = len(text)
        i = 0
        while True:
            state = self._state
            if state == _ARGUMENTS:
                scanner = self._scanner
                i = self._forward_json_value(scanner, text, i, deltas)
                if not (scanner.complete or scanner.interrupted):
                    break
                self._finish_call(deltas)
                self._state = _AFTER
            elif state == _BETWEEN:
                position, marker = find_first(text, self._between_markers, i)
                if marker is None:
                    # Separators between calls, but a tail that may begin a marker cut
                    # into several tokens (PLaMo 3's) waits for the rest.
                    return stable_prefix_end(text, self._between_prefixes, i)
                if marker == self._section_close:
                    self._payload_closed = True
                    return position
                i = position + len(marker)
                self._state = _HEADER
                self._searched = 0
            elif state == _HEADER:
                position, marker = find_first(text, self._header_markers, i + self._searched)
                if marker is None:
                    self._searched = max(0, n - i - self._overlap)
                    break
                if marker == self.call_separator:
                    name, call_id = self._read_header(text[i:position].strip())
                    self._begin_call(call_id)
                    if name:
                        self._emit_delta(deltas, name=name)
                    self._scanner.reset()
                    self._state = _PREAMBLE
                elif marker == self._section_close:
                    self._payload_closed = True
                    return position
                elif marker == self.call_close:
                    self._state = _BETWEEN  # no separator: not a call
                # A call open restarts the header: the interrupted call had no separator.
                i = position + len(marker)
                self._searched = 0
            elif state == _PREAMBLE:
                i, ready = self._arguments_start(text, i, deltas)
                if not ready:
                    break
                self._state = _ARGUMENTS
            else:  # _AFTER: what follows the arguments until the call closes
                position, marker = find_first(text, self._after_markers, i)
                if marker is None:
                    return stable_prefix_end(text, self._after_prefixes, i)
                if marker == self._section_close:
                    self._payload_closed = True
                    return position
                i = position + len(marker) if marker == self.call_close else position
                self._state = _BETWEEN
        if final:
            if state in (_PREAMBLE, _ARGUMENTS):
                self._finish_call(deltas)
            return n
        return i

    def _finish_call(self, deltas: list[DeltaToolCall]) -> None:
        """A named call without arguments gets ``{}``."""
        if self._call_named and not self._arguments_emitted:
            self._emit_delta(deltas, arguments="{}")
