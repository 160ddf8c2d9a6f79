"""Pythonic tool calls: Python call literals ``f(a=1, b="x")``, streamed as JSON arguments.

Llama 3.2, ToolACE, Llama 4, OLMo 3 and LFM2 write their calls as Python source: a list
``[get_weather(city="Oslo", days=3), now()]`` (or, in OLMo 3, one call per line), with
keyword arguments whose values are Python literals — strings in single or double quotes
with Python escapes, numbers, ``True`` / ``False`` / ``None``, lists, tuples and dicts.
The engines evaluate the finished text with ``ast``; a streaming parser cannot (parsing the
growing buffer again with every chunk is quadratic), so this driver is a lexer that reads
each character once and translates as it goes:

- a call is announced (identity first) as soon as its name is complete, at its ``(``;
- an argument's key is emitted with the first character of its value (``{"city": "``), so
  a key whose value never began is not reported; a string value streams as it arrives,
  its Python escapes decoded and written again as JSON; a number or a literal word is held
  until it ends (only then is ``1`` known not to become ``1.5``) and converted: ``True`` →
  ``true``, ``None`` → ``null``, ``0x1F`` → ``31``; the JSON spellings ``true`` / ``false``
  / ``null`` are read too (OLMo 3 writes them, vLLM's and SGLang's LFM2 parsers read them);
- containers stream bracket by bracket (a tuple becomes a JSON array, as vLLM reads it),
  with ``json.dumps``' separators, so the arguments read ``{"city": "Oslo", "days": 3}``.

What is not a literal is never dropped and never makes the arguments unreadable: a bare
word or an expression (``city=Oslo``, ``n=len(x)``) becomes the JSON string of its text up
to the ``,`` or closer that ends it, as the DSML dialects keep a value that is not JSON.
A positional argument has no name to report it under and is skipped (vLLM reads only
keywords). A repeated keyword is kept, in order (seed 000 keeps duplicates; Python would
reject the call). At the end of input an open string, container and arguments object are
closed; a name cut by the end makes no call.

A dialect declares where its calls stand: ``opens_list`` when the payload begins with
``[`` (LFM2, Llama 4 inside their markers; for bare Llama 3.2 lists the ``[`` is the open
tag itself and the payload is what follows it), ``closes_list`` when a ``]`` ends it, and
the outer close tag, which always ends the payload (the markers are dedicated tokens, and
OLMo 3's ``</function_calls>`` ends the block in vLLM's reading too).
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import ClassVar

from .tags import stable_prefix_end
from .tool_parser import ToolParser
from .types import DeltaToolCall, Request

_LAYOUT = " \t\r\n"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_SCALAR_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-")
_LITERALS = {
    "True": "true",
    "False": "false",
    "None": "null",
    "true": "true",
    "false": "false",
    "null": "null",
}
_SIMPLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\n": "",  # a backslash at the end of a line continues the string
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_OCTAL = frozenset("01234567")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}

# Where the payload stands.
(
    _LIST_OPEN,  # before the "[" that opens the list (opens_list dialects)
    _BETWEEN,  # before a call, or the end of the list
    _NAME,  # in a call's name
    _ITEM,  # before an item of the innermost frame (an argument, an element, a dict key)
    _KEY,  # in an identifier at an argument's position: a keyword or a positional value
    _EQUALS,  # after a keyword, before its "="
    _VALUE,  # before a value
    _STRING,  # inside a string value
    _SCALAR,  # in a number or a literal word
    _RAW,  # in a value that is no literal, up to the "," or closer that ends it
    _AFTER,  # after an item, before "," or the frame's closer
    _DICT_KEY,  # in a dict key (held whole)
    _COLON,  # after a dict key, before ":"
    _DONE,
) = range(14)


class _Frame:
    """One open bracket of the value being translated: the call's arguments, a list, a
    tuple or a dict; what it has emitted decides the separator before the next item."""

    __slots__ = ("closer", "count", "kind", "muted")

    def __init__(self, kind: str, closer: str, *, muted: bool) -> None:
        self.kind = kind  # "call", "list" (also a tuple) or "dict"
        self.closer = closer
        self.count = 0  # items emitted
        self.muted = muted  # inside a positional argument: parsed, not reported


class PythonicToolParser(ToolParser):
    """Base of the pythonic dialects; subclasses declare the tags and the list layout."""

    #: Whether the payload begins with "[" (inside markers); otherwise calls follow at once.
    opens_list: ClassVar[bool] = False
    #: Whether a "]" after the last call ends the payload.
    closes_list: ClassVar[bool] = True
    #: The call grammar's punctuation: what precedes the name (Gemma's ``call:``), the
    #: brackets around the arguments, and what separates a keyword from its value.
    call_prefix: ClassVar[str] = ""
    call_open: ClassVar[str] = "("
    call_close: ClassVar[str] = ")"
    key_separator: ClassVar[str] = "="
    #: A token that delimits strings verbatim (Gemma's ``<|"|>``); ``None``: Python's
    #: quotes with their escapes.
    string_delimiter: ClassVar[str | None] = None

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        if cls.string_delimiter:
            tags[cls.string_delimiter] = ()
        return tags

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._state = _LIST_OPEN if self.opens_list else _BETWEEN
        self._frames: list[_Frame] = []
        self._resume = 0  # characters of a held token already scanned
        self._key = ""  # the keyword (or dict key) whose value has not begun yet
        self._name_end = -1  # where a held call name ends, once known
        self._raw_depth = 0  # brackets open inside a held raw value
        self._quote = ""
        self._terminator = self.close_tag or ""
        self._name_chars = _NAME_CHARS | frozenset(self.call_prefix)

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._state = _LIST_OPEN if self.opens_list else _BETWEEN
        self._frames = []
        self._resume = 0
        self._name_end = -1

    # ----------------------------------------------------------------- verdict

    def _payload_verdict(self, text: str, final: bool) -> int:
        """A payload begins (after layout, and "[" where the list is inside the block)
        with a call: a name and "(" (Gemma: ``call:NAME{``). "[1]", "[note]" or "[See
        below]" are prose."""
        n = len(text)
        i = self._verdict_scanned
        phase = self._verdict_phase  # 0 layout, 1 "[", 2 layout, 3 name, 4 layout after it
        if phase == 0:
            while i < n and text[i] in _LAYOUT:
                i += 1
            if i == n:  # nothing but layout yet: the close tag may still follow
                self._verdict_scanned = i
                return 0
            if self._terminator and text.startswith(self._terminator, i):
                return 1  # an empty block
            if self._terminator and self._terminator.startswith(text[i:]):
                self._verdict_scanned = i
                return 0
            phase = 1 if self.opens_list else 2
        if phase == 1 and i < n:
            if text[i] != "[":
                return -1
            i += 1
            phase = 2
        if phase == 2:
            while i < n and text[i] in _LAYOUT:
                i += 1
            if i < n:
                c = text[i]
                if not (c.isalpha() or c == "_"):
                    return -1
                phase = 3
        if phase == 3:
            while i < n and text[i] in self._name_chars:
                i += 1
            if i < n:
                phase = 4
        if phase == 4:
            while i < n and text[i] in _LAYOUT:
                i += 1
            if i < n:
                return 1 if text[i] == self.call_open else -1
        self._verdict_scanned = i
        self._verdict_phase = phase
        return 0

    # ----------------------------------------------------------------- payload

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        n = len(text)
        i = 0
        terminator = self._terminator
        while True:
            state = self._state
            if state == _STRING:
                i = self._string(text, i, n, deltas, final)
                if self._state == _DONE:
                    return i  # the close tag cut the string
                if self._state == _STRING:
                    break
                continue
            if state == _DONE:
                break
            # Outside strings the close tag ends everything that is open.
            if i < n and terminator and text[i] == terminator[0]:
                if text.startswith(terminator, i):
                    self._end_payload(deltas)
                    return i
                if not final and terminator.startswith(text[i:]):
                    break
            if state == _NAME:
                i = self._call_name(text, i, n, deltas, final)
                if self._state == _NAME:
                    break
                continue
            if state in (_SCALAR, _RAW, _KEY):
                i = self._held_token(text, i, n, deltas, final)
                if self._state == state:
                    break
                continue
            if state == _DICT_KEY and i < n:
                i = self._dict_key(text, i, n, final)
                if self._state == _DICT_KEY:
                    break
                continue
            start = i
            while i < n and text[i] in _LAYOUT:
                i += 1
            if i == n:
                break
            if i != start:
                continue  # the close tag may follow the layout: it is checked above
            c = text[i]
            if state == _LIST_OPEN:
                i += 1
                if c == "[":
                    self._state = _BETWEEN
            elif state == _BETWEEN:
                if c == "]" and self.closes_list:
                    self._end_payload(deltas)
                    return i + 1
                if c.isalpha() or c == "_":
                    self._state = _NAME
                    self._resume = 0
                else:
                    i += 1  # separators between calls, and stray text
            elif state == _ITEM:
                i = self._item(text, i, c, deltas)
                if self._state == _DONE:
                    return i
            elif state == _EQUALS:
                if c == self.key_separator:
                    i += 1
                    self._state = _VALUE
                else:  # no "=": what looked like a keyword was a positional value
                    self._key = ""
                    self._state = _VALUE
            elif state == _COLON:
                if c == ":":
                    i += 1
                self._state = _VALUE
            elif state == _VALUE:
                start = i
                i = self._value(text, i, c, deltas)
                if i == start and self._state == _VALUE:
                    # The text ends in a prefix of the string delimiter: wait for the rest,
                    # or at the end of the output read it as a scalar's text.
                    if not final:
                        break
                    self._state = _SCALAR
                    self._resume = 0
            else:  # _AFTER
                if c in ")]}":
                    i = self._closer(i, c, deltas)
                    if self._state == _DONE:
                        return i
                    continue
                i += 1
                if c == ",":
                    self._state = _ITEM
                # anything else between items is stray text: skipped
        if final:
            self._finish(deltas)
            return n
        return i

    # ----------------------------------------------------------------- items

    def _item(self, text: str, i: int, c: str, deltas: list[DeltaToolCall]) -> int:
        """The start of the innermost frame's next item, or its closer."""
        if c in ")]}":  # the frame's closer (a mismatched one still closes)
            return self._closer(i, c, deltas)
        frame = self._frames[-1]
        if c == ",":
            return i + 1  # an empty item (a doubled comma)
        if frame.kind == "call":
            if c.isalpha() or c == "_":
                self._state = _KEY
                self._resume = 0
                return i
            self._key = ""
            self._state = _VALUE  # a positional value
            return i
        if frame.kind == "dict":
            self._state = _DICT_KEY
            self._resume = 0
            return i
        self._state = _VALUE
        return i

    def _closer(self, i: int, c: str, deltas: list[DeltaToolCall]) -> int:
        """A closer closes the innermost frame, also a mismatched one; a "]" where a
        call's ")" is missing ends the list too (``[f(a=1] Done.``), so what follows is
        not swallowed as payload."""
        if c == "]" and self.closes_list and self._frames[-1].kind == "call":
            self._end_payload(deltas)
            return i + 1
        self._close_frame(deltas)
        return i + 1

    def _value(self, text: str, i: int, c: str, deltas: list[DeltaToolCall]) -> int:
        """The first character of a value: strings stream, brackets open a frame, other
        text is a scalar held until it ends."""
        delimiter = self.string_delimiter
        if delimiter is None and c in "'\"":
            self._start_value(deltas, '"')
            self._quote = c
            self._state = _STRING
            return i + 1
        if delimiter is not None and c == delimiter[0]:
            if text.startswith(delimiter, i):
                self._start_value(deltas, '"')
                self._quote = delimiter
                self._state = _STRING
                return i + len(delimiter)
            if delimiter.startswith(text[i:]):
                return i  # maybe the delimiter: wait for the rest
        if c in "[{" or (c == "(" and delimiter is None):
            opening = "{" if c == "{" else "["
            self._start_value(deltas, opening)
            kind = "dict" if c == "{" else "list"
            self._frames.append(_Frame(kind, _CLOSERS[c], muted=self._muted))
            self._state = _ITEM
            return i + 1
        if c in ",)]}":
            # No value at all ("f(a=)"): nothing is reported for the key.
            self._key = ""
            self._state = _AFTER
            return i
        self._state = _SCALAR
        self._resume = 0
        return i

    def _start_value(self, deltas: list[DeltaToolCall], piece: str) -> None:
        """Emit what precedes a value in its frame (separator, key) and its first text."""
        frame = self._frames[-1]
        if frame.kind == "call" and not self._key:
            self._muted = True  # a positional argument: nothing to name it by
        separator = ", " if frame.count else ""
        if frame.kind == "list":
            prefix = separator
        else:  # the arguments object opens with its first key; a dict opened at "{"
            opening = "{" if frame.kind == "call" and not frame.count else separator
            prefix = opening + encode_basestring(self._key) + ": "
        self._key = ""
        if not self._muted:
            frame.count += 1
            self._emit_arguments(deltas, prefix + piece)

    def _end_value(self) -> None:
        """A value is complete: its frame expects "," or its closer."""
        self._state = _AFTER
        if self._frames[-1].kind == "call":
            self._muted = False

    def _close_frame(self, deltas: list[DeltaToolCall]) -> None:
        frame = self._frames.pop()
        if frame.kind == "call":
            self._emit_arguments(deltas, "}" if frame.count else "{}")
            self._state = _BETWEEN
            self._muted = False
            return
        if not frame.muted:
            self._emit_arguments(deltas, "]" if frame.kind == "list" else "}")
        self._end_value()

    @property
    def _muted(self) -> bool:
        return bool(self._frames) and self._frames[-1].muted

    @_muted.setter
    def _muted(self, value: bool) -> None:
        if self._frames and self._frames[-1].kind == "call":
            self._frames[-1].muted = value

    # ----------------------------------------------------------------- held tokens

    def _held_token(
        self, text: str, i: int, n: int, deltas: list[DeltaToolCall], final: bool
    ) -> int:
        """A keyword, scalar or raw value: only useful whole, held unconsumed until it
        ends; ``_resume`` remembers how far it was scanned."""
        state = self._state
        j = i + self._resume
        if state == _RAW:
            j, open_end = self._raw_end(text, j, n, final)
        else:
            chars = _NAME_CHARS if state != _SCALAR else _SCALAR_CHARS
            while j < n and text[j] in chars:
                j += 1
            open_end = j == n
        if open_end and not final:
            self._resume = j - i
            return i
        self._resume = 0
        token = text[i:j]
        if state == _KEY:
            self._key = token
            self._state = _EQUALS
            return j
        if state == _SCALAR:
            literal = _scalar_json(token)
            if literal is not None:
                self._start_value(deltas, literal)
                self._end_value()
                return j
            self._state = _RAW  # a word that is no literal: the value goes on as text
            self._resume = j - i
            self._raw_depth = 0
            return self._held_token(text, i, n, deltas, final)
        # _RAW: the value's text, kept as a JSON string.
        self._start_value(deltas, encode_basestring(token.strip()))
        self._end_value()
        return j

    def _call_name(
        self, text: str, i: int, n: int, deltas: list[DeltaToolCall], final: bool
    ) -> int:
        """A call's name and the "(" after it, held until the "(" shows that it is one:
        the call is announced there. A word without "(" is no call and is skipped."""
        j = i + self._resume
        if self._name_end < 0:
            while j < n and text[j] in self._name_chars:
                j += 1
            if j < n or final:
                self._name_end = j - i
        if self._name_end >= 0:
            while j < n and text[j] in _LAYOUT:
                j += 1
        if j == n and not final:
            self._resume = j - i
            return i
        name = text[i : i + self._name_end].removeprefix(self.call_prefix)
        self._resume = 0
        self._name_end = -1
        if j < n and text[j] == self.call_open and name:
            self._begin_call()
            self._emit_delta(deltas, name=name)
            self._frames = [_Frame("call", self.call_close, muted=False)]
            self._state = _ITEM
            return j + 1
        self._state = _BETWEEN
        # A letter that cannot be in a name (``str.isalpha`` is wider than the name's
        # characters) is stray text: step over it, or the two states hand it back and forth.
        return max(j, i + 1)

    def _raw_end(self, text: str, j: int, n: int, final: bool) -> tuple[int, bool]:
        """The "," or closer that ends a raw value, brackets inside it balanced (the depth
        reached is kept while the value is held), and whether the value may go on: the
        text ended inside it, or in what may begin the close tag (scanned again with the
        next chunk, so a cut close tag is still seen)."""
        depth = self._raw_depth
        terminator = self._terminator
        while j < n:
            c = text[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            elif terminator and c == terminator[0]:
                if text.startswith(terminator, j):
                    break
                if not final and terminator.startswith(text[j:n]):
                    self._raw_depth = depth
                    return j, True  # maybe the close tag: undecided until it is whole
            j += 1
        self._raw_depth = depth
        return j, j == n

    def _dict_key(self, text: str, i: int, n: int, final: bool) -> int:
        """A dict key, held whole: a string literal, a number or a bare word; its JSON
        is a string (``json.dumps`` writes number keys as strings too)."""
        j = i + self._resume
        c = text[i]
        if c in "'\"" and self.string_delimiter is None:
            j = max(j, i + 1)
            while j < n:
                d = text[j]
                if d == "\\":
                    j += 2
                    continue
                if d == c:
                    break
                j += 1
            if j >= n and not final:
                self._resume = min(j, n) - i
                return i
            self._key = _python_string(text[i + 1 : min(j, n)])
            j = min(j + 1, n)
        else:
            while j < n and text[j] not in ":,)]}" and text[j] not in _LAYOUT:
                j += 1
            if j == n and not final:
                self._resume = j - i
                return i
            self._key = text[i:j]
        self._resume = 0
        self._state = _COLON
        return j

    # ----------------------------------------------------------------- strings

    def _string(self, text: str, i: int, n: int, deltas: list[DeltaToolCall], final: bool) -> int:
        """Stream string content up to its closing quote (or delimiter); a Python escape
        cut by the chunk end is held. The close tag inside a string still ends the payload
        (the markers are dedicated tokens)."""
        quote = self._quote
        verbatim = self.string_delimiter is not None  # no escapes inside the delimiters
        terminator = self._terminator
        pieces: list[str] = []
        start = i
        while True:
            stop = text.find(quote, i)
            backslash = -1 if verbatim else text.find("\\", i, n if stop < 0 else stop)
            end = n if stop < 0 else stop
            if backslash >= 0:
                end = backslash
            cut = text.find(terminator, i, end + len(terminator) - 1) if terminator else -1
            if 0 <= cut < end:
                self._emit_string(deltas, pieces, text[start:cut])
                self._end_payload(deltas)
                return cut
            if backslash < 0:
                if stop < 0:
                    keep = n if final else stable_prefix_end(text, self.close_prefixes, i)
                    self._emit_string(deltas, pieces, text[start:keep])
                    return keep
                self._emit_string(deltas, pieces, text[start:stop], closing=True)
                self._end_value()
                return stop + len(quote)
            # An escape: decode it (or hold it when the chunk ends inside it).
            pieces.append(text[start:backslash])
            decoded, length = _escape(text, backslash, n, final)
            if length == 0:
                self._emit_string(deltas, pieces, "")
                return backslash
            pieces.append(decoded)
            i = start = backslash + length

    def _emit_string(
        self, deltas: list[DeltaToolCall], pieces: list[str], tail: str, *, closing: bool = False
    ) -> None:
        pieces.append(tail)
        body = encode_basestring("".join(pieces))[1:-1]
        pieces.clear()
        piece = body + '"' if closing else body
        if piece and not self._muted:
            self._emit_arguments(deltas, piece)

    # ----------------------------------------------------------------- ends

    def _end_payload(self, deltas: list[DeltaToolCall]) -> None:
        """The close tag (or the list's "]"): whatever is open is closed."""
        self._finish(deltas)
        self._state = _DONE
        self._payload_closed = True

    def _finish(self, deltas: list[DeltaToolCall]) -> None:
        """Close what is open, inventing nothing: a string gets its quote, containers
        and the arguments object their closers; a name cut by the end made no call."""
        if not self._frames:
            return
        if self._state == _STRING and not self._muted:
            self._emit_arguments(deltas, '"')
        while self._frames:
            frame = self._frames[-1]
            if frame.kind == "call":
                self._close_frame(deltas)
            else:
                self._frames.pop()
                if not frame.muted:
                    self._emit_arguments(deltas, "]" if frame.kind == "list" else "}")
        self._state = _BETWEEN


def _escape(text: str, at: int, n: int, final: bool) -> tuple[str, int]:
    """The Python escape at ``text[at]``: ``(decoded text, its length)``; length 0 when
    the chunk ends inside it. An unknown escape is kept as written (Python does)."""
    if at + 1 >= n:
        return ("\\", n - at) if final else ("", 0)
    c = text[at + 1]
    if c in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[c], 2
    if c in _HEX_ESCAPES:
        width = _HEX_ESCAPES[c]
        digits = text[at + 2 : at + 2 + width]
        if len(digits) < width and not final and at + 2 + width > n:
            return "", 0
        try:
            return chr(int(digits, 16)), 2 + width
        except (ValueError, OverflowError):
            return text[at : at + 2], 2
    if c in _OCTAL:
        end = at + 1
        while end < n and end < at + 4 and text[end] in _OCTAL:
            end += 1
        if end == n and end < at + 4 and not final:
            return "", 0
        return chr(int(text[at + 1 : end], 8)), end - at
    return text[at : at + 2], 2


def _python_string(body: str) -> str:
    """The value of a complete Python string literal's body (quotes removed)."""
    out: list[str] = []
    i = 0
    n = len(body)
    while True:
        backslash = body.find("\\", i)
        if backslash < 0:
            out.append(body[i:])
            return "".join(out)
        out.append(body[i:backslash])
        decoded, length = _escape(body, backslash, n, True)
        out.append(decoded)
        i = backslash + length


def _scalar_json(token: str) -> str | None:
    """A number or literal word as JSON, or ``None`` when the token is neither."""
    literal = _LITERALS.get(token)
    if literal is not None:
        return literal
    if not token or not (token[0].isdigit() or token[0] in "+-."):
        return None
    try:
        return json.dumps(int(token, 0))
    except ValueError:
        pass
    if token.lstrip("+-").isdigit():  # "07": zero-padded, as models write months
        return json.dumps(int(token))
    try:
        value = float(token)
    except ValueError:
        return None
    if math.isinf(value) or math.isnan(value):
        return None  # not JSON: kept as the text's string
    return json.dumps(value)
