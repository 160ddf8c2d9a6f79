"""Opaque sections inside tool blocks: CDATA and XML comments (seed 003 §3).

Nothing inside a CDATA section or a comment is a tag. Where a CDATA section ends is the
subtle part: parameter bodies such as here-docs contain literal ``]]>`` and whole fenced DSML
examples, so ds2api takes the first closer that is followed by a closing tag (``]]></``),
skipping closers inside a Markdown fence opened within the CDATA body, and falls back to the
first unfenced closer (research notes §3.7). That needs lookahead, so ``CdataEnd`` is an
incremental finder that answers ``NeedMore`` until the text decides.

One deliberate extension: a drifted closing tag after the closer (``]]><！/DSML！parameter>``,
``]]>＜／…``) also counts, as in ds2api's Node implementation. Go accepts only ASCII ``</``
and falls back to the first closer at the end, which gives the same calls but would hold such
a block until the response ends.
"""

from __future__ import annotations

import re

from .chars import CDATA_TAG_OPEN, GO_SPACE, IGNORABLE, SLASHES, TAG_OPEN, is_separator
from .shell import NeedMore, Window, cdata_open_end

_CLOSER = re.compile("\\]\\][>＞〉]")
CLOSER_LENGTH = 3
_TAG_START = re.compile("[<＜﹤〈]")
_MAX_DRIFT_BEFORE_SLASH = 4  # separators between "<" and "/" in a drifted closing tag

_LEAD, _RUN, _SPACE_AFTER, _TEXT_AFTER, _DEAD = range(5)


class FenceLine:
    """How the current line begins, for Markdown fence detection, fed piece by piece.

    A line opens a fence when it starts (after spaces and tabs) with three or more backticks
    or tildes, and closes one when it is only such a run, at least as long as the opening
    one, of the same character, plus whitespace.
    """

    __slots__ = ("char", "count", "state")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.state, self.char, self.count = _LEAD, "", 0

    def settle(self) -> None:
        """The line can no longer open or close a fence (it is an opening line)."""
        self.state = _DEAD

    @property
    def settled(self) -> bool:
        """Whether the rest of the line can no longer change the answers."""
        return self.state >= _TEXT_AFTER

    def feed(self, text: str, start: int, end: int) -> None:
        i = start
        while i < end and self.state < _TEXT_AFTER:
            ch = text[i]
            if self.state == _LEAD:
                if ch in "`~":
                    self.state, self.char, self.count = _RUN, ch, 1
                elif ch not in " \t":
                    self.state = _DEAD
            elif self.state == _RUN:
                if ch == self.char:
                    self.count += 1
                else:
                    self.state = _SPACE_AFTER if ch in GO_SPACE else _TEXT_AFTER
            elif ch not in GO_SPACE:
                self.state = _TEXT_AFTER
            i += 1

    def opens(self) -> str:
        """The fence marker this line opens, or ``""``."""
        if _RUN <= self.state <= _TEXT_AFTER and self.count >= 3:
            return self.char * self.count
        return ""

    def closes(self, marker: str) -> bool:
        return self.state in (_RUN, _SPACE_AFTER) and (
            self.char == marker[0] and self.count >= len(marker)
        )

    def fence_after(self, marker: str) -> str:
        """The open fence after this line, given the one before it."""
        if not marker:
            return self.opens()
        return "" if self.closes(marker) else marker


class CdataEnd:
    """Where the CDATA section whose content starts at ``content_start`` ends.

    ``advance(text, base, final)`` reads ``text`` as the buffer from absolute position
    ``base`` and returns the absolute index of the closing ``]]>`` (or its fullwidth / CJK
    variant), -1 when the complete text has none, or raises ``NeedMore``. It resumes where it
    stopped, so a long section fed chunk by chunk costs linear time.
    """

    __slots__ = ("_fallback", "_fed", "_line", "_marker", "_search")

    def __init__(self, content_start: int) -> None:
        self._search = content_start  # where to look for the next closer
        self._fed = content_start  # the fence state covers the body up to here
        self._line = FenceLine()  # the body's current line so far
        self._marker = ""  # the fence open inside the CDATA body, if any
        self._fallback = -1  # the first unfenced closer not followed by "</"

    @property
    def frontier(self) -> int:
        """The earliest position it will read again."""
        return min(self._search, self._fed)

    def advance(self, text: str, base: int, final: bool) -> int:
        end = base + len(text)
        while True:
            match = _CLOSER.search(text, self._search - base)
            if match is None:
                if final:
                    return self._fallback
                # the last two characters may begin a closer: feed the fence state up to them
                held = max(self._search, end - (CLOSER_LENGTH - 1))
                self._feed(text, base, held)
                self._search = held
                raise NeedMore
            closer = base + match.start()
            self._feed(text, base, closer)
            if self._line.fence_after(self._marker):
                self._search = closer + CLOSER_LENGTH
                continue
            try:
                if _closing_tag_follows(text, match.end(), final):
                    return closer
            except NeedMore:
                self._search = closer
                raise
            if self._fallback < 0:
                self._fallback = closer
            self._search = closer + CLOSER_LENGTH

    def _feed(self, text: str, base: int, until: int) -> None:
        i = self._fed - base
        stop = until - base
        while i < stop:
            newline = text.find("\n", i, stop)
            if newline < 0:
                if not self._line.settled:
                    self._line.feed(text, i, stop)
                break
            self._line.feed(text, i, newline + 1)
            self._marker = self._line.fence_after(self._marker)
            self._line.reset()
            i = newline + 1
        self._fed = max(self._fed, until)


def _closing_tag_follows(text: str, i: int, final: bool) -> bool:
    """Whether a closing tag (``</``, or a drifted one such as ``<！/`` or ``＜／``) starts at
    ``i`` after ASCII whitespace: the mark of a CDATA closer that ends a parameter."""
    window = Window(text, i, final)
    while not window.eof(i) and text[i] in " \t\r\n":
        i += 1
    if window.eof(i) or text[i] not in TAG_OPEN:
        return False
    i += 1
    for _ in range(_MAX_DRIFT_BEFORE_SLASH + 1):
        i = window.skip_ignorable(i)
        if window.eof(i):
            return False
        if text[i] in SLASHES:
            return True
        if not is_separator(text[i]):
            return False
        i += 1
    return False


def find_cdata_end(text: str, content_start: int) -> int:
    """``CdataEnd`` on a complete text."""
    if content_start >= len(text):
        return -1
    return CdataEnd(content_start).advance(text, 0, True)


def skip_opaque(text: str, i: int) -> int:
    """Past the CDATA section or comment at ``i`` in a complete text: ``i`` when there is
    none, -1 when it never closes (the rest of the text is then opaque)."""
    if text[i] in CDATA_TAG_OPEN or text[i] in IGNORABLE:
        content = cdata_open_end(text, i, True)
        if content > 0:
            end = find_cdata_end(text, content)
            return -1 if end < 0 else end + CLOSER_LENGTH
    if text.startswith("<!--", i):
        end = text.find("-->", i + 4)
        return -1 if end < 0 else end + 3
    return i


def sanitize_loose_cdata(text: str) -> str:
    """Drop the opener of the first CDATA section that never closes, keeping its content.

    ds2api's final-flush recovery: an unclosed ``<![CDATA[`` would hide the rest of a block,
    so the block is parsed again without it (research notes §3.1 step 8).
    """
    pos = 0
    for match in _TAG_START.finditer(text):
        start = match.start()
        if start < pos:
            continue
        content = cdata_open_end(text, start, True)
        if content < 0:
            continue
        while start > pos and text[start - 1] in IGNORABLE:
            start -= 1
        end = find_cdata_end(text, content)
        if end < 0:
            return text[:start] + text[content:]
        pos = end + CLOSER_LENGTH
    return text


def has_cdata_opener(text: str) -> bool:
    return any(cdata_open_end(text, m.start(), True) > 0 for m in _TAG_START.finditer(text))
