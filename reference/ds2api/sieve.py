"""The streaming sieve: model text in, plain text and tool calls out (seed 003 §3).

Prose is released as soon as it is decided. A live opening ``tool_calls`` or ``invoke`` tag
starts a capture (``capture.py``) that holds the block until it resolves into calls or into
text. Tool syntax is dead, and stays text, inside fenced code blocks, inline code spans,
comments and CDATA sections of the prose.

Every decision is a function of the text seen so far and never revised: where the answer
depends on text that has not arrived, the sieve waits instead of guessing (a tag shell cut by
a chunk, an inline code span that may still close, a CDATA section whose end is open). The
result therefore does not depend on how the text was cut into chunks, and the complete parse
is this machine fed everything at once.

Inline code spans follow ds2api's parser (``markdownCodeSpanEnd``): a run of n backticks
opens a span only if a later run of exactly n backticks closes it, whatever lies between. A
span that has not closed yet is *tentative*: text keeps flowing, and a tool block met in the
meantime is held until the span closes (the block was code) or the text ends (it was not).

A comment or CDATA section in the prose ends at its first closer: the structural-closer rule
of ``sections`` is for parameter bodies, and in prose it would need unbounded lookahead.
"""

from __future__ import annotations

import re

from .block import Call
from .buffer import TextBuffer
from .capture import Capture, Win, recover
from .chars import IGNORABLE
from .markdown import MarkdownState
from .sections import sanitize_loose_cdata
from .shell import MAX_SHELL, NeedMore, Tag, cdata_open_end, scan_tag

_PROSE = re.compile("[<＜〈﹤`~\n\r]")
_LINE_BREAK = re.compile("[\n\r]")
_BACKTICKS = re.compile("`+")
_CLOSERS = re.compile("\\]\\][>＞〉]")

_RESTART = -1  # the sieve's state changed: start over from its new position
_WAIT = -2  # nothing more can be decided until more text arrives

#: What the sieve emits: plain text, or one tool call (name, input object).
Event = str | Call


class Sieve:
    """One response's sieve; ``feed`` each chunk, ``final=True`` with the last one."""

    def __init__(self) -> None:
        self._buffer = TextBuffer()
        self._events: list[Event] = []
        self._emitted = 0  # text before this position has been emitted or consumed
        self._pos = 0  # the prose is decided up to here
        self._markdown = MarkdownState()
        self._opaque = ""  # the end marker of the prose comment or CDATA we are in
        self._spans: list[int] = []  # backtick counts of the tentative inline code spans
        self._held = -1  # a tool block waiting for the tentative spans to resolve
        self._search = 0  # while held: where to look for a closing backtick run
        self._capture: Capture | None = None
        self._retry_at = 0  # a cut tag shell is scanned again once the buffer reaches this
        self._noise = (0, 0)  # the last run of noise walked: all of [start, end) is noise

    @property
    def held_back(self) -> str:
        """The received text not emitted yet: a cut tag, a held or captured block."""
        return self._buffer.slice(self._emitted, self._buffer.end)

    def feed(self, text: str, *, final: bool = False) -> list[Event]:
        buffer = self._buffer
        buffer.append(text)
        if final or buffer.end >= self._retry_at:
            self._run(final)
        if final:
            self._emit(buffer.end)
        events, self._events = self._events, []
        buffer.forget(self._emitted)  # everything after it is still held or being scanned
        buffer.focus(self._frontier())
        return events

    # ------------------------------------------------------------------ driver

    def _run(self, final: bool) -> None:
        while True:
            if self._capture is not None:
                if not self._advance_capture(final):
                    return
            elif self._held >= 0:
                if not self._wait_for_spans(final):
                    return
            elif not self._prose(final):
                return

    def _frontier(self) -> int:
        if self._capture is not None:
            return self._capture.frontier
        if self._held >= 0:
            return self._search
        return min(self._pos, self._emitted)  # noise held before a shell must stay in view

    def _emit(self, end: int) -> None:
        if end > self._emitted:
            self._events.append(self._buffer.slice(self._emitted, end))
            self._emitted = end

    def _emit_before(self, position: int) -> None:
        """Emit up to ``position``, keeping the noise right before it (it may belong to a tag)."""
        self._emit(self._noise_start(position))

    def _noise_start(self, position: int) -> int:
        """Where the run of noise that ends at ``position`` begins (not before what was
        emitted). The run is remembered, so one that grows chunk by chunk while it is held
        is walked once: walked anew after every chunk, a run of ``n`` zero-width or control
        characters cost ``n²`` (found by ``fuzz run adapter``)."""
        window, base = self._buffer.window, self._buffer.window_start
        run_start, run_end = self._noise
        floor = max(self._emitted, base)
        start = position
        while start > floor:
            if run_start < start <= run_end:
                start = run_start  # walked before, up to its first character
                break
            if window[start - base - 1] not in IGNORABLE:
                break
            start -= 1
        start = max(start, floor)
        self._noise = (start, position)
        return start

    def _wait(self, position: int) -> bool:
        """A cut shell at ``position``: hold from there until more text arrives."""
        self._pos = position
        self._emit_before(position)
        end = self._buffer.end
        self._retry_at = end + max(1, min(end - position, MAX_SHELL))
        return False

    # ------------------------------------------------------------------ prose

    def _prose(self, final: bool) -> bool:
        """Release decided prose; return True when a capture, a hold or a span took over."""
        buffer = self._buffer
        if min(self._pos, self._emitted) < buffer.window_start:
            buffer.focus(min(self._pos, self._emitted))
        text, base = buffer.window, buffer.window_start
        n = len(text)
        markdown = self._markdown
        i = self._pos - base
        while i < n:
            if self._opaque or markdown.fence:
                i = self._inert(text, base, i, final)
                if i == _RESTART:
                    return True
                if i == _WAIT:
                    return False
                continue
            match = _PROSE.search(text, i)
            k = match.start() if match else n
            markdown.gap(text, i, k)
            i = k
            if k == n:
                break
            ch = text[k]
            if ch in "\n\r":
                markdown.line_break()
                i = k + 1
                continue
            if ch in "`~":
                end = k + 1
                while end < n and text[end] == ch:
                    end += 1
                if end == n and not final:
                    return self._wait(base + k)
                if ch == "`" and end - k in self._spans:
                    self._close_span(end - k, base + end)
                    return True
                if not markdown.run(text, k, end) and ch == "`":
                    self._spans.append(end - k)
                i = end
                continue
            try:
                i = self._at_angle(text, base, k, final)
            except NeedMore:
                return self._wait(base + k)
            if i == _RESTART:
                return True
        self._pos = base + i
        if final:
            self._emit(self._pos)
        else:
            self._emit_before(self._pos)
        return False

    def _at_angle(self, text: str, base: int, k: int, final: bool) -> int:
        """Handle the ``<`` at ``k``; return where prose resumes, or ``_RESTART``."""
        content = cdata_open_end(text, k, final)
        if content > 0:
            self._opaque = "]]>"
            self._markdown.line_start = False
            return content
        if text.startswith("<!--", k):
            self._opaque = "-->"
            self._markdown.line_start = False
            return k + 4
        tag = scan_tag(text, k, final) if text[k] != "﹤" else None
        live = (
            tag is not None
            and not tag.closing
            and (tag.name == "invoke" or (tag.name == "tool_calls" and not tag.self_closing))
        )
        if not live:
            self._markdown.line_start = False
            if tag is None:
                return k + 1
            # a tag that cannot begin a tool block is text
            if self._spans and self._span_closer(text, base, tag.start, tag.end, final) == -1:
                return _RESTART
            return tag.end
        # a block that turns into calls leaves no trace in the Markdown state (as in ds2api)
        if self._spans:
            self._hold(base + tag.start)
        else:
            self._start_capture(base, tag)
        return _RESTART

    def _inert(self, text: str, base: int, i: int, final: bool) -> int:
        """Text inside a prose comment, CDATA section or fenced block: nothing is live.

        Returns where prose resumes, ``_WAIT`` or ``_RESTART``.
        """
        n = len(text)
        if self._opaque:
            if self._opaque == "]]>":
                match = _CLOSERS.search(text, i)
                end = match.end() if match else -1
            else:
                found = text.find("-->", i)
                end = found + 3 if found >= 0 else -1
            if (
                self._spans
                and (run := self._span_closer(text, base, i, end if end >= 0 else n, final)) != -2
            ):
                return _RESTART if run == -1 else self._pause(base + run)
            if end >= 0:
                self._opaque = ""
                return end
            if final:
                return n
            stop = max(i, n - 2)  # the last two characters may begin the closer
            while stop > i and text[stop - 1] == "`" and text[stop] == "`":
                stop -= 1  # never resume inside a backtick run: it would look shorter
            return self._pause(base + stop)
        match = _LINE_BREAK.search(text, i)
        stop = match.start() if match else n
        if self._spans and (run := self._span_closer(text, base, i, stop, final)) != -2:
            if run == -1:
                return _RESTART
            self._markdown.gap(text, i, run)
            return self._pause(base + run)
        self._markdown.gap(text, i, stop)
        if match is None:
            return n
        self._markdown.line_break()
        return stop + 1

    def _pause(self, position: int) -> int:
        """Inert text up to ``position`` is decided; the rest waits for more text."""
        self._pos = position
        self._emit_before(position)
        return _WAIT

    # ------------------------------------------------------------------ inline code spans

    def _span_closer(self, text: str, base: int, start: int, stop: int, final: bool) -> int:
        """Look for a backtick run in ``[start, stop)`` that closes a tentative span.

        Returns -1 when one did (the span is closed), -2 when there is none, or the index of
        a run cut by the end of the buffer (its length is not known yet).
        """
        for match in _BACKTICKS.finditer(text, start, stop):
            if match.end() == len(text) and not final:
                return match.start()
            count = match.end() - match.start()
            if count in self._spans:
                self._close_span(count, base + match.end())
                return -1
        return -2

    def _close_span(self, count: int, end: int) -> None:
        """A run of ``count`` backticks ending at ``end`` closes that span: it was code."""
        del self._spans[self._spans.index(count) :]
        self._markdown.reset_after_span()
        self._opaque = ""
        self._held = -1
        self._pos = end
        self._emit(end)

    def _hold(self, position: int) -> None:
        self._held = position
        self._search = position
        self._emit_before(position)

    def _wait_for_spans(self, final: bool) -> bool:
        """A tool block is held behind tentative spans: look for a closing run."""
        buffer = self._buffer
        text, base = buffer.window, buffer.window_start
        for match in _BACKTICKS.finditer(text, self._search - base):
            if match.end() == len(text) and not final:
                self._search = base + match.start()
                return False
            count = match.end() - match.start()
            if count in self._spans:
                self._close_span(count, base + match.end())
                return True
        if not final:
            self._search = base + len(text)
            return False
        # the text ended: none of the spans was a span, the held block is live
        self._spans.clear()
        self._pos, self._held = self._held, -1
        return True

    # ------------------------------------------------------------------ captures

    def _start_capture(self, base: int, tag: Tag) -> None:
        start = self._noise_start(base + tag.start) - base
        self._emit(base + start)
        absolute = Tag(
            start=base + tag.start,
            end=base + tag.end,
            name_end=base + tag.name_end,
            name=tag.name,
            closing=tag.closing,
            self_closing=tag.self_closing,
            dsml_like=tag.dsml_like,
        )
        self._capture = Capture(base + start, absolute)

    def _advance_capture(self, final: bool) -> bool:
        capture = self._capture
        assert capture is not None
        buffer = self._buffer
        if capture.frontier < buffer.window_start:
            buffer.focus(capture.frontier)
        outcome = capture.advance(buffer, final)
        if outcome is None:
            if final:
                self._give_up(capture)
                return True
            return False
        self._capture = None
        if isinstance(outcome, Win):
            prefix = buffer.slice(capture.start, outcome.start)
            self._emit(outcome.start)
            self._markdown.note(prefix)
            self._events.extend(outcome.calls)
            self._emitted = self._pos = outcome.end
        else:
            self._markdown.note(buffer.slice(capture.start, outcome.end))
            self._emit(outcome.end)
            self._pos = outcome.end
        return True

    def _give_up(self, capture: Capture) -> None:
        """The text ended inside a block: recover a loose CDATA block or release it all."""
        self._capture = None
        held = self._buffer.slice(capture.start, self._buffer.end)
        recovered = sanitize_loose_cdata(held)
        found = recover(recovered) if recovered != held else None
        if found is None:
            self._emit(self._buffer.end)
        else:
            start, end, calls = found
            if start:
                self._events.append(recovered[:start])
            self._events.extend(calls)
            if end < len(recovered):
                self._events.append(recovered[end:])
            self._emitted = self._buffer.end
        self._pos = self._buffer.end
