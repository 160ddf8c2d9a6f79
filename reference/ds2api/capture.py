"""A captured tool block, resolved as soon as the text decides it (seed 003 §3).

The sieve starts a capture at a live ``tool_calls`` or ``invoke`` opening tag and holds its
text until one of these happens, judged tag by tag in order, so that the outcome never
depends on how the text was cut into chunks:

- a ``tool_calls`` wrapper closes (depth-matched) and its block parses into calls: the
  calls win; text before the wrapper (a prose mention of the tag, say) is released;
- the outermost wrapper closes without a valid call: the whole block is released as text,
  never half-swallowed;
- a bare ``invoke`` (missing opening wrapper) meets a closing wrapper: the block is repaired
  with ``<tool_calls>`` and parsed, or released;
- a bare ``invoke`` cannot become repairable (its body does not start with a parameter or
  JSON, or something other than another ``invoke`` or the closing wrapper follows it): it is
  released as text up to that point.

Inside a block only CDATA sections and comments are opaque: Markdown has no meaning there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .block import Call, iter_tags, parse_block
from .buffer import TextBuffer
from .chars import GO_SPACE, IGNORABLE
from .sections import CLOSER_LENGTH, CdataEnd
from .shell import NeedMore, Tag, cdata_open_end, scan_tag

_TAG_START = re.compile("[<＜﹤〈]")
_CONTENT = re.compile(f"[^{''.join(sorted(GO_SPACE))}]")

# bare-invoke phases: waiting for the body to start, inside the body, after its close tag
_AWAIT_BODY, _IN_BODY, _AFTER_INVOKE = range(3)


@dataclass(frozen=True, slots=True)
class Win:
    """The block ``[start, end)`` parsed into calls."""

    start: int
    end: int
    calls: list[Call]


@dataclass(frozen=True, slots=True)
class Release:
    """The capture up to ``end`` is text; prose resumes there."""

    end: int


class Capture:
    """One held tool block, fed the growing buffer until it resolves."""

    __slots__ = ("_blocked", "_cdata", "_comment", "_noise", "_phase", "_stack", "scan", "start")

    def __init__(self, start: int, opener: Tag) -> None:
        self.start = start  # where the held text begins (noise before the tag included)
        self.scan = opener.end  # the next position to examine
        self._stack = [start] if opener.name == "tool_calls" else []  # open wrappers
        self._phase = _AWAIT_BODY  # bare-invoke phase; unused once a wrapper is open
        self._cdata: CdataEnd | None = None
        self._comment = -1  # inside a comment: where to look for "-->"
        self._blocked = False  # an unclosed CDATA section or comment hides the rest
        #: The noise at the end of the text scanned so far, ``[start, scan)``: scanning goes
        #: on after it, and a tag found right after it takes it (rescanning it after every
        #: chunk while it grew cost the square of its length: found by ``fuzz run adapter``).
        self._noise = (0, 0)

    @property
    def frontier(self) -> int:
        if self._cdata is not None:
            return self._cdata.frontier
        return self._comment if self._comment >= 0 else self.scan

    def advance(self, buffer: TextBuffer, final: bool) -> Win | Release | None:
        """Examine the new text; ``None`` while the block is undecided."""
        text, base = buffer.window, buffer.window_start
        n = len(text)
        while not self._blocked:
            if self._cdata is not None:
                try:
                    end = self._cdata.advance(text, base, final)
                except NeedMore:
                    return None
                self._cdata = None
                if end < 0:
                    self._blocked = True
                    break
                self.scan = end + CLOSER_LENGTH
                if self.scan < base:  # the section ended at a closer behind the window
                    buffer.focus(self.scan)
                    text, base = buffer.window, buffer.window_start
                    n = len(text)
                continue
            if self._comment >= 0:
                close = text.find("-->", self._comment - base)
                if close < 0:
                    self._blocked = final
                    self._comment = max(self._comment, base + n - 2)
                    return None
                self.scan = base + close + 3
                self._comment = -1
                continue
            i = self.scan - base
            match = _TAG_START.search(text, i)
            k = match.start() if match else n
            if self._watching_body():
                content = _CONTENT.search(text, i, k)
                if content is not None:
                    if self._phase == _AWAIT_BODY and content.group() in "{[":
                        self._phase = _IN_BODY
                    else:
                        return Release(base + content.start())
            if k == n:
                run = n
                while run > i and text[run - 1] in IGNORABLE and not final:
                    run -= 1  # noise at the end may turn out to precede a tag
                noise_start = base + run
                if run == i and self._noise[1] == self.scan:
                    noise_start = self._noise[0]  # the run began in an earlier chunk
                self.scan = base + n
                self._noise = (noise_start, self.scan)
                return None
            try:
                outcome = self._candidate(buffer, text, base, k, final)
            except NeedMore:
                while k > i and text[k - 1] in IGNORABLE:
                    k -= 1  # noise right before a cut shell belongs to it
                self.scan = base + k
                return None
            if outcome is not None:
                return outcome
        return None

    def _watching_body(self) -> bool:
        return not self._stack and self._phase != _IN_BODY

    def _candidate(
        self, buffer: TextBuffer, text: str, base: int, k: int, final: bool
    ) -> Win | Release | None:
        content = cdata_open_end(text, k, final)
        if content > 0 or text.startswith("<!--", k):
            if self._watching_body():
                return Release(base + k)  # a bare invoke's body must start with a parameter
            if content > 0:
                self._cdata = CdataEnd(base + content)
            else:
                self._comment = base + k + 4
            return None
        tag = scan_tag(text, k, final) if text[k] != "﹤" else None
        if tag is None:
            if self._watching_body():
                if self._phase == _AWAIT_BODY and _starts_parameter(text, k, final):
                    self._phase = _IN_BODY
                else:
                    return Release(base + k)
            self.scan = base + k + 1
            return None
        floor = self.scan - base
        self.scan = base + tag.end
        return self._tag(buffer, base, tag, floor)

    def _tag(self, buffer: TextBuffer, base: int, tag: Tag, floor: int) -> Win | Release | None:
        start, end = tag.start, base + tag.end
        while start > floor and buffer.window[start - 1] in IGNORABLE:
            start -= 1  # noise right before a tag belongs to it
        start += base
        if start == base + floor and self._noise[1] == start:
            start = self._noise[0]  # and so does the noise scanned before
        if tag.name == "tool_calls":
            if not tag.closing:
                if not tag.self_closing:
                    self._stack.append(start)
                elif self._watching_body():
                    return Release(start)
                return None
            if self._stack:
                opener = self._stack.pop()
                calls = parse_block(buffer.slice(opener, end))
                if calls:
                    return Win(opener, end, calls)
                return None if self._stack else Release(end)
            calls = parse_block("<tool_calls>" + buffer.slice(self.start, end))
            return Win(self.start, end, calls) if calls else Release(end)
        if self._stack:
            return None
        phase = self._phase
        if tag.name == "invoke":
            if tag.closing:
                if phase == _AFTER_INVOKE:
                    return Release(start)
                self._phase = _AFTER_INVOKE
            elif phase == _AFTER_INVOKE:
                self._phase = _AWAIT_BODY  # the next call of a block missing its opener
            elif phase == _AWAIT_BODY:
                return Release(start)
            return None
        if phase == _IN_BODY:
            return None
        if phase == _AWAIT_BODY and not tag.closing:
            self._phase = _IN_BODY
            return None
        return Release(start)


def _starts_parameter(text: str, k: int, final: bool) -> bool:
    head = text[k : k + 10].lower()
    if len(head) < 10 and not final and "<parameter".startswith(head):
        raise NeedMore
    return head == "<parameter"


def recover(text: str) -> tuple[int, int, list[Call]] | None:
    """The first block of a complete text that parses into calls, trying each capture in turn.

    Used once, at the end of the response, on a capture whose unclosed CDATA section was
    dropped (ds2api's loose-CDATA recovery).
    """
    buffer = TextBuffer(text)
    position = 0
    while (start := _next_opener(text, position)) is not None:
        capture = Capture(start.start, start)
        outcome = capture.advance(buffer, True)
        if isinstance(outcome, Win):
            return outcome.start, outcome.end, outcome.calls
        if outcome is None:
            return None
        position = outcome.end
    return None


def _next_opener(text: str, position: int) -> Tag | None:
    for tag in iter_tags(text, position):
        opens_block = tag.name == "invoke" or (tag.name == "tool_calls" and not tag.self_closing)
        if opens_block and not tag.closing:
            return tag
    return None
