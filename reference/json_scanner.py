"""Lexical end of one JSON value, found incrementally and in linear total time.

Tool parsers forward argument values verbatim (duplicate keys, order and formatting kept) and
only need to know where a value ends; they never deserialize it (seed 000, "JSON 工具
payload"). The scanner tracks strings, escapes and container depth across ``feed`` calls and
never looks at a character twice: long runs are crossed with ``str.find`` or one compiled
regular expression, and short tails with a direct loop, which is cheaper for the one-token
chunks a serving engine streams.
"""

from __future__ import annotations

import re

# Characters that change the scanner's state outside a string.
_STRUCTURAL = re.compile(r'["{}\[\]]')
# A scalar (number, true, false, null, or a malformed bare word) ends at the first other char.
_SCALAR_END = re.compile(r"[^0-9A-Za-z+\-.]")
_SCALAR_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-.")
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_LITERALS = frozenset(("true", "false", "null"))
_WHITESPACE = " \t\r\n"
# Below this many characters a plain loop beats a regex search.
_SHORT = 8


class JsonValueScanner:
    """Finds where one JSON value ends, fed the text piece by piece.

    ``feed(text, start, end)`` scans ``text[start:end]`` and returns the position up to which
    the text belongs to the value; when the value ends inside the piece, ``complete`` is set
    and the returned position is just after it. Leading whitespace before the value is part of
    what the scanner consumes. A ``terminator`` (a protocol close tag) met outside a string
    interrupts the value: scanning stops before it and ``interrupted`` is set, so that a
    malformed payload is kept "up to the protocol boundary".

    A value that is not JSON at all (``query=oslo weather``, a bare word that is no number or
    literal) is *raw*: it runs verbatim to the terminator, to one of ``raw_stops`` (the
    envelope's ``,`` and ``}`` where the value sits in one), or to the end of input — the
    parser keeps what the model wrote and is no validator (seed 000).
    """

    __slots__ = (
        "_head",
        "_raw_end",
        "_scalar_head",
        "_scalar_numeric",
        "_structural",
        "_terminator",
        "complete",
        "depth",
        "escape",
        "in_string",
        "interrupted",
        "raw",
        "scalar",
        "started",
    )

    def __init__(self, terminator: str | None = None, *, raw_stops: str = "") -> None:
        self._terminator = terminator
        if terminator:
            self._head = terminator[0]
            self._structural = re.compile(r'["{}\[\]' + re.escape(self._head) + "]")
        else:
            self._head = None
            self._structural = _STRUCTURAL
        ends = raw_stops + (self._head or "")
        self._raw_end = re.compile("[" + re.escape(ends) + "]") if ends else None
        self.reset()

    def reset(self) -> None:
        """Prepare for the next value."""
        self.started = False
        self.complete = False
        self.interrupted = False
        self.in_string = False
        self.escape = False
        self.scalar = False
        self.raw = False
        self._scalar_head = ""  # the first characters of a scalar: enough to know a literal
        self._scalar_numeric = True  # every character so far can belong to a number
        self.depth = 0

    def finish(self) -> None:
        """End of input: a bare scalar or raw value in progress is complete (``12``)."""
        if (self.scalar or self.raw) and not (self.complete or self.interrupted):
            self.complete = True

    def feed(self, text: str, start: int = 0, end: int | None = None) -> int:
        """Scan ``text[start:end]``; return the end of the prefix that belongs to the value."""
        n = len(text) if end is None else end
        if self.in_string and not self.escape:
            # Hot path: inside a long string, a chunk without quote or backslash.
            quote = text.find('"', start, n)
            if quote < 0 and text.find("\\", start, n) < 0:
                return n
        i = start
        if self.complete or self.interrupted:
            return i
        if not self.started:
            while i < n and text[i] in _WHITESPACE:
                i += 1
            if i == n:
                return i
            c = text[i]
            self.started = True
            if c == '"':
                self.in_string = True
                i += 1
            elif c == "{" or c == "[":
                self.depth = 1
                i += 1
            elif c in _SCALAR_CHARS:
                self.scalar = True
            else:
                verdict = self._terminator_at(text, i, n)
                if verdict:
                    self.started = False  # undecided: look again when the tag is whole
                    self.interrupted = verdict > 0
                    return i
                self.raw = True  # not a JSON value at all: kept verbatim
        while i < n:
            if self.in_string:
                i = self._scan_string(text, i, n)
                if self.in_string:
                    return n
                if self.depth == 0:
                    self.complete = True
                    return i
            elif self.scalar:
                begin = i
                if n - i <= _SHORT:
                    while i < n and text[i] in _SCALAR_CHARS:
                        i += 1
                else:
                    match = _SCALAR_END.search(text, i, n)
                    i = n if match is None else match.start()
                piece = text[begin:i]
                if len(self._scalar_head) < 6:
                    self._scalar_head += piece[: 6 - len(self._scalar_head)]
                if self._scalar_numeric and not _NUMBER_CHARS.issuperset(piece):
                    self._scalar_numeric = False
                if i == n:
                    return n
                self.scalar = False
                if self._scalar_numeric or self._scalar_head in _LITERALS:
                    self.complete = True
                    return i
                self.raw = True  # a bare word, not JSON: it goes on as raw text
            elif self.raw:
                return self._scan_raw(text, i, n)
            else:
                if n - i <= _SHORT:
                    while i < n:
                        c = text[i]
                        if c in '"{}[]' or c == self._head:
                            break
                        i += 1
                    else:
                        return n
                else:
                    match = self._structural.search(text, i, n)
                    if match is None:
                        return n
                    i = match.start()
                    c = text[i]
                if c == '"':
                    self.in_string = True
                    i += 1
                elif c == "{" or c == "[":
                    self.depth += 1
                    i += 1
                elif c == "}" or c == "]":
                    self.depth -= 1
                    i += 1
                    if self.depth == 0:
                        self.complete = True
                        return i
                else:
                    verdict = self._terminator_at(text, i, n)
                    if verdict:
                        self.interrupted = verdict > 0
                        return i
                    i += 1
        return n

    def _scan_raw(self, text: str, i: int, n: int) -> int:
        """Cross a value that is not JSON, up to a raw stop or the terminator."""
        pattern = self._raw_end
        while pattern is not None:
            match = pattern.search(text, i, n)
            if match is None:
                break
            i = match.start()
            if text[i] != self._head:
                self.complete = True  # one of the raw stops: the envelope goes on
                return i
            verdict = self._terminator_at(text, i, n)
            if verdict:
                self.interrupted = verdict > 0
                return i
            i += 1
        return n

    def _scan_string(self, text: str, i: int, n: int) -> int:
        """Cross string content from ``i``; return the position after the closing quote.

        Leaves ``in_string`` set (and returns ``n``) when the string goes on past ``n``. The
        next quote is searched once and reused across escapes, so a long string full of
        backslashes is still crossed in linear time.
        """
        if self.escape:
            self.escape = False
            i += 1
        quote = -2
        while True:
            if quote < i:
                quote = text.find('"', i, n)
            backslash = text.find("\\", i, n if quote < 0 else quote)
            if backslash < 0:
                if quote < 0:
                    return n
                self.in_string = False
                return quote + 1
            if backslash + 1 >= n:
                self.escape = True
                return n
            i = backslash + 2

    def _terminator_at(self, text: str, i: int, n: int) -> int:
        """1 if the terminator starts at ``i``, 0 if not, -1 if the chunk ends inside it."""
        terminator = self._terminator
        if not terminator:
            return 0
        if n - i >= len(terminator):
            return 1 if text.startswith(terminator, i) else 0
        # Only malformed JSON has a bare terminator head outside a string, so holding back
        # here costs nothing on valid payloads.
        return -1 if terminator.startswith(text[i:n]) else 0
