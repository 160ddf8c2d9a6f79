"""Scanning tag markup: the primitives shared by the XML-like and the DSML tool parsers.

Both kinds of payload are sequences of tags (every one starts with ``<``) with argument
values in between. A value is raw text up to its close tag (``</parameter>``,
``</｜DSML｜parameter>``) or, when the model forgot the close tag, up to the next tag that
cannot belong to a value. The scans below jump from one ``<`` to the next with ``str.find``
and look at nothing else, so a long value without markup is crossed at C speed.

Inside a value only the declared token-boundary prefixes of the tags that end it are held
back at the end of a chunk (seed 000, "与 token 边界对齐的标签前缀"); any other ``<`` is
value text. Between tags nothing is ever released, so the structural helpers may wait on
any character prefix of an expected tag at no cost in latency.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from json.encoder import encode_basestring

from .tags import find_first, longest_first

_WHITESPACE = " \t\r\n"


def json_string_piece(text: str) -> str:
    """``text`` escaped as the inside of a JSON string (no quotes), non-ASCII kept as is."""
    return encode_basestring(text)[1:-1]


class ValueTags:
    """The tags that end one kind of value, and the chunk tails that may begin one of them.

    ``close_tag`` ends the value and belongs to it; the other tags end a value whose close
    tag is missing and belong to what follows. All of them begin with one character, the
    ``lead`` searched for (``<``, or MiniMax-M3's namespace marker's ``]``).
    """

    __slots__ = ("close_tag", "lead", "longest_prefix", "longest_tag", "prefixes", "tags")

    def __init__(
        self,
        close_tag: str,
        end_tags: Sequence[str],
        protocol_tags: Mapping[str, Iterable[str]],
    ) -> None:
        """Take the prefixes from the dialect's protocol tags.

        An ending tag may be the head of a longer protocol tag (``<｜DSML｜parameter`` of
        ``<｜DSML｜parameter name=``); then only the prefixes shorter than the ending tag
        can be an unfinished ending tag.
        """
        tags = (close_tag, *(tag for tag in end_tags if tag != close_tag))
        prefixes = {
            prefix
            for tag in tags
            for protocol_tag, tag_prefixes in protocol_tags.items()
            if protocol_tag.startswith(tag)
            for prefix in tag_prefixes
            if len(prefix) < len(tag)
        }
        lead = close_tag[:1]
        if not lead or any(not text.startswith(lead) for text in (*tags, *prefixes)):
            raise ValueError(
                f"value-ending tags and their prefixes must start with one character: {tags!r}"
            )
        ordered = longest_first(prefixes)
        self.lead = lead
        self.close_tag = close_tag
        self.tags = tags
        self.prefixes = frozenset(ordered)
        self.longest_prefix = len(ordered[0]) if ordered else 0
        self.longest_tag = max(len(tag) for tag in tags)

    def find_end(self, text: str, start: int) -> tuple[int, str | None]:
        """The first complete value-ending tag in ``text[start:]``: ``(position, tag)``.

        Returns ``(-1, None)`` when the value goes on past the end of ``text``.
        """
        tags, lead = self.tags, self.lead
        position = text.find(lead, start)
        while position >= 0:
            for tag in tags:
                if text.startswith(tag, position):
                    return position, tag
            position = text.find(lead, position + 1)
        return -1, None

    def stable_end(self, text: str, start: int) -> int:
        """End of ``text[start:]`` once a trailing declared tag prefix is held back.

        Call only when ``text[start:]`` holds no complete value-ending tag. The earliest
        lead whose tail is a declared prefix gives the longest such tail, so it wins.
        """
        end = len(text)
        if not self.longest_prefix:
            return end
        prefixes, lead = self.prefixes, self.lead
        position = text.find(lead, max(start, end - self.longest_prefix))
        while position >= 0:
            if text[position:] in prefixes:
                return position
            position = text.find(lead, position + 1)
        return end


def skip_whitespace(payload: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not whitespace."""
    n = len(payload)
    while pos < n and payload[pos] in _WHITESPACE:
        pos += 1
    return pos


def tag_at(payload: str, pos: int, tags: Sequence[str]) -> str | None:
    """The tag of ``tags`` that starts at ``pos``; "" while the text may still become one.

    ``None`` means that no tag starts there: the text is not protocol.
    """
    for tag in tags:
        if payload.startswith(tag, pos):
            return tag
    rest_length = len(payload) - pos
    for tag in tags:
        if rest_length < len(tag) and tag.startswith(payload[pos:]):
            return ""
    return None


def skip_stray_text(payload: str, pos: int, lead: str = "<") -> int:
    """Past text that is not protocol: up to the next ``lead``, which every tag starts with
    (``<``; MiniMax-M3's namespace marker)."""
    following = payload.find(lead, pos + 1)
    return len(payload) if following < 0 else following


def read_header(payload: str, pos: int) -> tuple[int, str | None] | None:
    """The text of a tag header up to its ``>``: ``(position after '>', text)``.

    Returns ``None`` while the ``>`` has not arrived, and ``(position of '<', None)`` when
    another tag starts first: the header is malformed and what follows is left alone.
    """
    close = payload.find(">", pos)
    limit = len(payload) if close < 0 else close
    interrupted = payload.find("<", pos, limit)
    if interrupted >= 0:
        return interrupted, None
    if close < 0:
        return None
    return close + 1, payload[pos:close]


def unquote(text: str) -> str:
    """An attribute value without its surrounding whitespace and matching quotes."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


class ResumableSearch:
    """The search for what ends an undecided stretch (a tag header, a name), which
    consumes the stretch as it goes.

    While its end has not arrived, a stretch would otherwise stay unconsumed and be offered
    again with every chunk: searched from its start each time (a fuzzer finding: a name
    that never ends) and copied into the response parser's pending text each time, both
    quadratic in its length. Instead, what has been searched waits here in pieces and is
    joined once, when the end comes; only a tail that may begin the end stays unconsumed.

    A hook that searches calls :meth:`header` or :meth:`first`; when they find no end
    they absorb the searched text, set ``open`` and record in ``resume_at`` where the
    payload is consumed to. The driver, given "wait" by the hook, consumes up to there,
    and the hook, called again while ``open``, resumes the stretch at the payload's start
    instead of looking for the tag that began it.
    """

    __slots__ = ("open", "pieces", "resume_at")

    def __init__(self) -> None:
        #: Whether a stretch is being read: its beginning has been consumed.
        self.open = False
        #: The stretch's text consumed so far.
        self.pieces: list[str] = []
        #: Where the last search that found no end left the payload consumed to.
        self.resume_at = 0

    def header(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        """:func:`read_header` of the header starting at ``pos`` (or resumed), its text
        whole; ``None`` while the ``>`` has not arrived (the searched text absorbed)."""
        found = read_header(payload, pos)
        if found is None:
            self._absorb(payload, pos, len(payload))
            return None
        end, text = found
        if text is not None and self.pieces:
            text = "".join(self.pieces) + text
        self.reset()
        return end, text

    def first(self, payload: str, tags: tuple[str, ...], pos: int) -> tuple[int, str | None, str]:
        """:func:`~toolconform.reference.tags.find_first` from ``pos`` (or resumed), with
        the stretch's text before the tag: ``(position, tag, text)``. While no tag has
        come the tag is ``None`` and the searched text is absorbed, except a tail that
        may begin one."""
        position, tag = find_first(payload, tags, pos)
        if tag is None:
            self._absorb(payload, pos, max(pos, len(payload) - max(map(len, tags)) + 1))
            return -1, None, ""
        text = payload[pos:position]
        if self.pieces:
            text = "".join(self.pieces) + text
        self.reset()
        return position, tag, text

    def _absorb(self, payload: str, pos: int, end: int) -> None:
        if end > pos:
            self.pieces.append(payload[pos:end] if pos or end < len(payload) else payload)
        self.open = True
        self.resume_at = end

    def reset(self) -> None:
        """Forget the stretch (it ended, or it is dropped)."""
        self.open = False
        self.pieces = []
        self.resume_at = 0
