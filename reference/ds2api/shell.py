"""Recognising one drifted tool-tag shell: ``<|DSML|invoke name="x">`` and its cousins.

A shell is ``<``+, an optional closing slash, a protocol *prefix* (separators, whitespace,
``DSML``, ``vendor_``, ``agent - ``, … or any prefix that ends in a non-alphanumeric or a
PascalCase boundary), one of the fixed local names ``tool_calls`` / ``invoke`` /
``parameter``, optional trailing separators, a boundary and the tag end (seed 003 §1,
research notes §3.4). Near-misses (``tool_calls_extra``, ``ToolCallsExtra``, ``invoker``)
fail at the boundary and stay text.

Every function here reads a *window* of text that may still grow: when an answer depends on
characters that have not arrived yet, ``NeedMore`` is raised instead of guessing, so that a
streamed decision is always the decision the complete text would give. A shell is at most
``MAX_SHELL`` characters long (a deliberate bound that keeps the sieve linear; ds2api has
none): beyond that the window counts as ended.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .chars import (
    CDATA_TAG_OPEN,
    DASHES,
    EQUALS,
    IGNORABLE,
    IGNORABLE_CLASS,
    KEYWORD_FOLD,
    PIPES,
    QUOTE_PAIRS,
    SHELL_SPACE,
    SLASHES,
    TAG_CLOSE,
    TAG_OPEN,
    UNDERSCORES,
    ascii_at,
    fold_width,
    go_trim,
    is_ascii_alnum,
    is_separator,
)

#: The longest tag shell, from its first character to its tag end.
MAX_SHELL = 256

#: Local names: (raw keyword, canonical name, accepted only with a protocol prefix).
_NAMES = (
    ("tool_calls", "tool_calls", False),
    ("tool-calls", "tool_calls", True),
    ("toolcalls", "tool_calls", True),
    ("invoke", "invoke", False),
    ("parameter", "parameter", False),
)
_FIRST_LETTERS = frozenset(ch for ch, letter in KEYWORD_FOLD.items() if letter in "tip")


def _keyword_pattern(word: str) -> str:
    classes = []
    for letter in word:
        if letter == "_":
            chars = UNDERSCORES
        elif letter == "-":
            chars = DASHES
        else:
            chars = frozenset(ch for ch, folded in KEYWORD_FOLD.items() if folded == letter)
        classes.append("[" + "".join(re.escape(ch) for ch in sorted(chars)) + "]")
    return f"[{IGNORABLE_CLASS}]*".join(classes)


#: Any local name, letters folded, noise allowed between them: a shell without one is no tag.
_ANY_NAME = re.compile("|".join(_keyword_pattern(raw) for raw, _, _ in _NAMES))
_TERMINATOR = re.compile("[>＞〉]")
_ALNUM_RUN = re.compile("[0-9A-Za-z０-９Ａ-Ｚａ-ｚ]+")
_NOT_CDATA_AFTER_LT = frozenset("/>abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


class NeedMore(Exception):
    """The answer depends on text that has not arrived yet."""


@dataclass(frozen=True, slots=True)
class Tag:
    """A recognised tool tag; ``end`` is exclusive, ``name`` is canonical."""

    start: int
    end: int
    name_end: int
    name: str
    closing: bool
    self_closing: bool
    dsml_like: bool


class Window:
    """A read-only view of ``text`` from ``start``, bounded, that knows whether it is complete."""

    __slots__ = ("end", "open", "text")

    def __init__(self, text: str, start: int, final: bool, limit: int = MAX_SHELL) -> None:
        self.text = text
        bound = start + limit
        if len(text) >= bound:
            self.end, self.open = bound, False
        else:
            self.end, self.open = len(text), not final

    def eof(self, i: int) -> bool:
        """Whether ``i`` is past the end; raises ``NeedMore`` when more text could follow."""
        if i < self.end:
            return False
        if self.open:
            raise NeedMore
        return True

    def skip_ignorable(self, i: int) -> int:
        text, end = self.text, self.end
        while i < end and text[i] in IGNORABLE:
            i += 1
        if i >= end and self.open:
            raise NeedMore
        return i

    def take(self, i: int, chars: frozenset[str]) -> int:
        """Past one character of ``chars`` after noise, or -1."""
        i = self.skip_ignorable(i)
        if self.eof(i) or self.text[i] not in chars:
            return -1
        return i + 1

    def space_at(self, i: int) -> bool:
        i = self.skip_ignorable(i)
        return not self.eof(i) and self.text[i] in SHELL_SPACE

    def separator(self, i: int) -> int:
        i = self.skip_ignorable(i)
        if self.eof(i) or not is_separator(self.text[i]):
            return -1
        return i + 1

    def less_than(self, i: int) -> int:
        i = self.skip_ignorable(i)
        if self.eof(i) or self.text[i] not in TAG_OPEN:
            return -1
        return i + 1

    def keyword(self, i: int, keyword: str) -> int:
        """Past ``keyword`` matched letter by letter (case, width and confusables folded), or -1."""
        text = self.text
        if i < self.end:
            ch = text[i]
            if ch not in IGNORABLE and KEYWORD_FOLD.get(ch) != keyword[0]:
                return -1
            after = i + len(keyword)
            if after <= self.end and text[i:after].lower() == keyword:
                return after  # plain ASCII, the usual case
        for letter in keyword:
            i = self.skip_ignorable(i)
            if self.eof(i):
                return -1
            ch = text[i]
            if letter == "_":
                if ch not in UNDERSCORES:
                    return -1
            elif letter == "-":
                if ch not in DASHES:
                    return -1
            elif KEYWORD_FOLD.get(ch) != letter:
                return -1
            i += 1
        return i

    def ascii_prefix(self, i: int, word: str) -> bool:
        """Whether ``word`` starts at ``i`` (at the very end of the text: a proper prefix of it)."""
        text = self.text
        after = i + len(word)
        if after <= self.end and text[i:after].lower() == word:
            return True
        for matched, letter in enumerate(word):
            if self.eof(i):
                return matched > 0
            if ascii_at(text, i).lower() != letter:
                return False
            i += 1
        return True

    # ------------------------------------------------------------------ prefix

    def name_prefix(self, i: int) -> tuple[int, bool]:
        """Consume the protocol prefix; return where it ends and whether there was one."""
        dsml_like = False
        while True:
            after = self._prefix_piece(i)
            if after < 0:
                return i, dsml_like
            i, dsml_like = after, True

    def _prefix_piece(self, i: int) -> int:
        i = self.skip_ignorable(i)
        after = self.separator(i)
        if after >= 0:
            return after
        if self.space_at(i):
            return i + 1
        after = self.keyword(i, "dsml")
        if after >= 0:
            after_dash = self.take(after, DASHES)
            if after_dash < 0:
                after_dash = self.take(after, UNDERSCORES)
            return after_dash if after_dash >= 0 else after
        return self._vendor_prefix(i)

    def _vendor_prefix(self, i: int) -> int:
        """``vendor_``, ``abc|``, ``agent - ``: ASCII word, separator, then a local name."""
        text = self.text
        run = _ALNUM_RUN.match(text, i, self.end)
        if run is None:
            self.eof(i)
            return -1
        j = run.end()
        while not self.eof(j) and text[j] in " \t\r\n":
            j += 1
        after = self.separator(j)
        if after < 0:
            return -1
        while not self.eof(after) and text[after] in " \t\r\n":
            after += 1
        if self.eof(after) or ascii_at(text, after).lower() not in "tip":
            return -1  # the prefix must be followed by (the start of) a local name
        if not any(self.ascii_prefix(after, raw) for raw, _, _ in _NAMES):
            return -1
        return after

    def local_name(self, i: int, dsml_like: bool) -> tuple[str, int]:
        for raw, canonical, prefixed_only in _NAMES:
            if prefixed_only and not dsml_like:
                continue
            after = self.keyword(i, raw)
            if after >= 0:
                return canonical, after
        return "", -1

    def name_after_any_prefix(self, start: int) -> tuple[str, int, int] | None:
        """The first local name after an arbitrary prefix that allows one (``proto💥invoke``)."""
        text = self.text
        quote_at = -1  # first = " ' in the prefix
        dsml_end = -1  # where the prefix first contains "dsml" (ASCII projection)
        projection = ""
        i = start
        while not self.eof(i):
            ch = text[i]
            if fold_width(ch) == ">":
                return None
            if i > start and (ch in _FIRST_LETTERS or ch in IGNORABLE):
                allowed = self._prefix_allows(start, i, quote_at, dsml_end)
                if allowed:
                    for raw, canonical, _ in _NAMES:
                        after = self.keyword(i, raw)
                        if after >= 0:
                            return canonical, i, after
            if quote_at < 0 and ch in "=\"'":
                quote_at = i
            if dsml_end < 0:
                folded = fold_width(ch)
                if folded < "\x80":
                    projection = (projection + folded.lower())[-4:]
                    if projection == "dsml":
                        dsml_end = i + 1
            i += 1
        return None

    def _prefix_allows(self, start: int, local: int, quote_at: int, dsml_end: int) -> bool:
        if 0 <= dsml_end <= local:
            return True
        if 0 <= quote_at < local:
            return False
        previous = fold_width(self.text[local - 1])
        if not is_ascii_alnum(previous):
            return True
        return "A" <= fold_width(self.text[local]) <= "Z"  # PascalCase: DSmartInvoke

    # ------------------------------------------------------------------ tag

    def boundary(self, i: int) -> bool:
        i = self.skip_ignorable(i)
        if self.eof(i):
            return True
        ch = self.text[i]
        return ch in SHELL_SPACE or ch in SLASHES or ch in TAG_CLOSE

    def tag_end(self, i: int, *, stop_at_lt: bool) -> int:
        """Index of the first unquoted ``>`` (width-folded), or -1 at the end of the text.

        With ``stop_at_lt`` an ASCII ``<`` met first (quoted or not) answers -2: a shell with
        trailing separators then ends right after them.
        """
        text = self.text
        quote = ""
        while not self.eof(i):
            ch = text[i]
            if stop_at_lt and ch == "<":
                return -2
            folded = fold_width(ch)
            if quote:
                if folded == quote:
                    quote = ""
            elif folded == '"' or folded == "'":
                quote = folded
            elif folded == ">":
                return i
            i += 1
        return -1


def scan_tag(text: str, start: int, final: bool) -> Tag | None:
    """The tool tag starting at ``start``, ``None`` if there is none; may raise ``NeedMore``."""
    w = Window(text, start, final)
    terminator = _TERMINATOR.search(text, start, w.end)
    if not _ANY_NAME.search(text, start, terminator.start() if terminator else w.end):
        if terminator is None and w.open:
            raise NeedMore
        return None
    i = w.less_than(start)
    if i < 0:
        return None
    while (after := w.less_than(i)) >= 0:
        i = after
    closing = False
    after = w.take(i, SLASHES)
    if after >= 0:
        closing, i = True, after
    prefix_start = i
    i, dsml_like = w.name_prefix(i)
    name, name_end = w.local_name(i, dsml_like)
    if name_end < 0:
        found = w.name_after_any_prefix(prefix_start)
        if found is None:
            return None
        name, local_start, name_end = found
        if not closing and any(fold_width(ch) == "/" for ch in text[prefix_start:local_start]):
            closing = True
        dsml_like = True
    shell_end = name_end
    while (after := w.separator(shell_end)) >= 0:
        shell_end = after
    trailing = shell_end > name_end
    if not w.boundary(shell_end):
        return None
    close = w.tag_end(shell_end, stop_at_lt=trailing)
    if close < 0:
        if not trailing:
            return None
        end = shell_end
    else:
        end = close + 1
    return Tag(
        start=start,
        end=end,
        name_end=name_end,
        name=name,
        closing=closing,
        self_closing=go_trim(text[start:end]).endswith("/>"),
        dsml_like=dsml_like,
    )


def cdata_open_end(text: str, start: int, final: bool) -> int:
    """End of a (drifted) CDATA opener at ``start`` (``<![CDATA[``, ``<！[CDATA[``, …), or -1."""
    if start + 1 < len(text) and text[start + 1] in _NOT_CDATA_AFTER_LT:
        return -1  # the common case: a tag name or a slash follows the "<"
    w = Window(text, start, final)
    i = w.take(start, CDATA_TAG_OPEN)
    if i < 0:
        return -1
    for _ in range(5):
        i = w.skip_ignorable(i)
        if w.eof(i):
            return -1
        if text[i] == "[":
            i = w.keyword(i + 1, "cdata")
            if i < 0:
                return -1
            i = w.skip_ignorable(i)
            if w.eof(i) or text[i] != "[":
                return -1
            return i + 1
        if not is_separator(text[i]):
            return -1
        i += 1
    return -1


def name_attribute(text: str, tag: Tag) -> list[str]:
    """The ``name=`` values of a recognised shell, in order (other attributes are dropped)."""
    w = Window(text[: tag.end], tag.name_end, True, limit=len(text))
    values: list[str] = []
    i, end = tag.name_end, tag.end
    while i < end:
        i = w.skip_ignorable(i)
        if i >= end:
            break
        ch = text[i]
        if ch in SHELL_SPACE or ch in PIPES or ch in SLASHES:
            i += 1
            continue
        if ch in TAG_CLOSE:
            break
        key_start = i
        while i < end:
            i = w.skip_ignorable(i)
            if i >= end:
                break
            ch = text[i]
            if ch in SHELL_SPACE or ch in EQUALS or ch in TAG_CLOSE or ch in PIPES or ch in SLASHES:
                break
            i += 1
        is_name = _is_name_key(text[key_start:i])
        i = _skip_spaces(w, i, end)
        if i >= end or text[i] not in EQUALS:
            continue
        i = _skip_spaces(w, i + 1, end)
        if not is_name:
            i += 1
            continue
        if i < end and text[i] in QUOTE_PAIRS:
            closer = QUOTE_PAIRS[text[i]]
            close = text.find(closer, i + 1, end)
            if close < 0:
                values.append("")
                i = end
            else:
                values.append(text[i + 1 : close])
                i = close + 1
        else:
            value_start = i
            while i < end:
                ch = text[w.skip_ignorable(i)] if w.skip_ignorable(i) < end else ">"
                if ch in _VALUE_END:
                    break
                i += 1
            values.append(text[value_start:i])
    return values


_VALUE_END = SHELL_SPACE | TAG_CLOSE | EQUALS | PIPES | SLASHES


def _skip_spaces(w: Window, i: int, end: int) -> int:
    while i < end:
        i = w.skip_ignorable(i)
        if i >= end or w.text[i] not in SHELL_SPACE:
            break
        i += 1
    return i


def _is_name_key(raw: str) -> bool:
    key = go_trim("".join(ch for ch in raw if ch not in IGNORABLE))
    if not key:
        return False
    w = Window(key, 0, True, limit=len(key))
    return w.keyword(0, "name") == len(key)
