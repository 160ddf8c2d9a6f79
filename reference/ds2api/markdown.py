"""Markdown state of the prose: where lines start and which fenced code block is open.

Fenced code blocks (backticks or tildes, nested by length: a four-backtick fence contains
three-backtick lines) are inert: nothing in them is a tool call (seed 003 §3). A fence opens
at a line that starts, after spaces and tabs, with three or more backticks or tildes, and
closes at a line that holds only a run of the same character at least as long, plus
whitespace. Line breaks are ``\\n`` and ``\\r``.
"""

from __future__ import annotations

import re

from .sections import FenceLine

_MARKUP = re.compile("[`~\n\r]")
_NOT_BLANK = re.compile("[^ \t]")


class MarkdownState:
    """Line-start and fence state, advanced over text that is known to be prose."""

    __slots__ = ("fence", "line", "line_start")

    def __init__(self) -> None:
        self.line_start = True  # only spaces and tabs since the last line break
        self.fence = ""  # the marker of the open fence, "" outside fences
        self.line = FenceLine()  # inside a fence: how the current line begins

    def gap(self, text: str, start: int, end: int) -> None:
        """Text without line breaks, backticks or tildes."""
        if self.fence:
            self.line.feed(text, start, end)
        elif self.line_start and _NOT_BLANK.search(text, start, end):
            self.line_start = False

    def line_break(self) -> None:
        if self.fence and self.line.closes(self.fence):
            self.fence = ""
        self.line.reset()
        self.line_start = True

    def run(self, text: str, start: int, end: int) -> bool:
        """A maximal run of backticks or tildes; whether it opened a fence."""
        if self.fence:
            self.line.feed(text, start, end)
            return False
        opened = self.line_start and end - start >= 3
        if opened:
            self.fence = text[start:end]
            self.line.settle()
        self.line_start = False
        return opened

    def reset_after_span(self) -> None:
        """After an inline code span: mid-line, outside fences."""
        self.fence = ""
        self.line_start = False
        self.line.reset()

    def note(self, text: str) -> None:
        """Advance over released text (a rejected block, prose swallowed by a capture)."""
        i = 0
        for match in _MARKUP.finditer(text):
            k = match.start()
            if k < i:
                continue
            self.gap(text, i, k)
            ch = text[k]
            if ch in "\n\r":
                self.line_break()
                i = k + 1
                continue
            end = k + 1
            while end < len(text) and text[end] == ch:
                end += 1
            self.run(text, k, end)
            i = end
        self.gap(text, i, len(text))
