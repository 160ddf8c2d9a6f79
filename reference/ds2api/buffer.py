"""The sieve's text buffer: absolute positions, a small scanning window, cheap appends.

A tool block may be held for tens of kilobytes before it resolves, while chunks arrive a
token at a time; appending each chunk to one growing string would copy the whole block per
chunk (quadratic). The buffer keeps the chunks as they came, for slicing out released text
and whole blocks, and a *window*: one string that starts at the scanners' frontier, which
stays a few characters behind the end.
"""

from __future__ import annotations

from bisect import bisect_right


class TextBuffer:
    """All text that may still be needed, addressed by absolute position in the response."""

    __slots__ = ("_parts", "_starts", "end", "window", "window_start")

    def __init__(self, text: str = "") -> None:
        self._parts: list[str] = []
        self._starts: list[int] = []
        self.end = 0
        self.window = ""
        self.window_start = 0
        self.append(text)

    def append(self, text: str) -> None:
        if text:
            self._parts.append(text)
            self._starts.append(self.end)
            self.end += len(text)
            self.window += text

    def slice(self, start: int, stop: int) -> str:
        """The text in ``[start, stop)``; ``start`` must not have been forgotten."""
        if start >= self.window_start:
            return self.window[start - self.window_start : stop - self.window_start]
        k = bisect_right(self._starts, start) - 1
        pieces = []
        while k < len(self._parts) and self._starts[k] < stop:
            part_start = self._starts[k]
            pieces.append(self._parts[k][max(start - part_start, 0) : stop - part_start])
            k += 1
        return "".join(pieces)

    def focus(self, start: int) -> None:
        """Make the window begin at ``start`` (which may lie behind the current window)."""
        if start >= self.window_start:
            self.window = self.window[start - self.window_start :]
        else:
            self.window = self.slice(start, self.end)
        self.window_start = start

    def forget(self, start: int) -> None:
        """Text before ``start`` will not be asked for again."""
        k = bisect_right(self._starts, start) - 1
        if k > 0:
            del self._parts[:k]
            del self._starts[:k]
