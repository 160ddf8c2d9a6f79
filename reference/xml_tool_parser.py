"""The shared driver of XML-like tool payloads: function first, values closed by a tag.

Qwen3-Coder (``<function=NAME><parameter=K>V</parameter></function>``), GLM
(``NAME<arg_key>K</arg_key><arg_value>V</arg_value>``) and MiniMax-M2
(``<invoke name="NAME"><parameter name="K">V</parameter></invoke>``) share one shape: the
function's identity comes first, then argument names, each followed by a value that ends at
a tag. This driver holds the only ``XmlParseState`` and runs the state machine of seed 000
("类 XML 工具 payload")::

    function --> arg_start --> arg_name --> arg_value
       ^            ^                          |
       |            +--------------------------+
       +--- call end (arg_start "done")
       +--- payload end (function "done")

A dialect only recognises its syntax through three hooks that return what they found and
never touch the state; ``None`` means "the unconsumed text is incomplete, wait":

- ``_consume_function(payload, pos, final) -> (pos, name, "arg_start" | "done" | "function")``
  finds the next call's name, or the end of the payload (``None`` name, ``"done"``);
- ``_consume_arg_start(payload, pos) -> (pos, "arg_name" | "done" | "arg_start")`` finds the
  next argument's open tag or the end of the current call;
- ``_consume_arg_name(payload, pos) -> (pos, name | None)`` reads an argument name and
  everything up to where its value starts (``None``: a malformed name, skip the argument).

A hook that returns its own phase has skipped text that is not protocol (stray characters
between tags). Hooks must not consume the outer close tag.

The driver owns value consumption. A value whose schema allows only strings (or which has
no schema) streams JSON-escaped as it arrives, unless it starts with a quote; any other value
is held until its close tag and converted by the schema (``schema_values``). Of a value,
only a declared prefix of a tag that can end it stays unconsumed; a held value, and the
newline that the dialect's ``value_whitespace`` convention may strip, wait in the state
as pieces (as LMDeploy's buffered parts), so no text is copied again per chunk and the
work stays linear even for a value that is held whole. The arguments are emitted as one
JSON object, ``{"k": v, "k2": v2}`` (``json.dumps`` separators), duplicates kept in order;
the object is closed at the call's end or at ``final``, ``{}`` when there was no argument.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import ClassVar

from .markup import ResumableSearch, ValueTags, json_string_piece, skip_whitespace
from .schema_values import convert_value, streams_as_string, value_types
from .tool_parser import ToolParser
from .types import DeltaToolCall, Request

# Phases of XmlParseState (the hooks return these names).
FUNCTION = "function"
ARG_START = "arg_start"
ARG_NAME = "arg_name"
ARG_VALUE = "arg_value"
DONE = "done"

# value_whitespace conventions: what of a value's surrounding whitespace is protocol.
KEEP_WHITESPACE = "keep"  # GLM, MiniMax-M2: the value is exactly what is between the tags
ONE_NEWLINE = "one_newline"  # Qwen3-Coder: one leading and one trailing newline are layout

# How the current value is being consumed.
_UNDECIDED = 0  # a string value whose first character is not known yet
_STREAM = 1
_HOLD = 2

_WHITESPACE = " \t\r\n"


@dataclass(slots=True)
class XmlParseState:
    """Where the driver is in the payload; owned and mutated by ``XmlToolParser`` only."""

    phase: str = FUNCTION
    #: The current call's name ("" for a call whose name is missing); None between calls.
    function_name: str | None = None
    argument_name: str = ""
    #: The current value's JSON types from the schema, its mode, and whether its key is out.
    value_types: frozenset[str] = frozenset()
    value_mode: int = _UNDECIDED
    key_emitted: bool = False
    #: Whether the value's protocol leading newline has been dealt with.
    leading_done: bool = True
    #: Value text consumed but not emitted: a held value, or whitespace that may be layout.
    held: list[str] = field(default_factory=list)


class XmlToolParser(ToolParser):
    """Driver of sequential, function-first payloads whose values end at a close tag."""

    #: The tag that closes an argument value; consumed with the value.
    arg_value_close_tag: ClassVar[str]
    #: Tags that end a value whose close tag is missing; left for the next hook.
    arg_value_end_tags: ClassVar[tuple[str, ...]] = ()
    #: Which surrounding whitespace of a value is protocol layout, not value text.
    value_whitespace: ClassVar[str] = KEEP_WHITESPACE
    #: A value's open tag that the model may repeat at the value's start (GLM's dedicated
    #: ``<arg_value>`` token): repeats are protocol, dropped, never value text.
    value_repeated_open: ClassVar[str] = ""
    #: The payload's own tags with the proper prefixes that can end a chunk, longest first.
    inner_tags: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: Derived from the declarations above: what ends a value and what to hold back.
    _value_tags: ClassVar[ValueTags]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if hasattr(cls, "arg_value_close_tag"):
            cls._value_tags = ValueTags(
                cls.arg_value_close_tag, cls.arg_value_end_tags, cls.protocol_tags()
            )

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        """The outer tags and every inner tag of the payload, with their chunk-end prefixes."""
        return {**super().protocol_tags(), **cls.inner_tags}

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._schemas = request.parameter_schemas()
        self._state = XmlParseState()
        #: The hooks' search for the end of an undecided header or name, which holds the
        #: stretch searched so far; a hook called while it is ``open`` resumes the stretch.
        self._search = ResumableSearch()

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._state = XmlParseState()
        self._search.reset()

    # ----------------------------------------------------------------- dialect hooks

    def _consume_function(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        raise NotImplementedError

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        raise NotImplementedError

    def _consume_arg_name(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        raise NotImplementedError

    # ----------------------------------------------------------------- the driver

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        state = self._state
        pos = 0
        while True:
            phase = state.phase
            if phase == ARG_VALUE:
                if state.value_mode == _STREAM:  # the hot path: inside a string value
                    pos, ended = self._consume_streamed_value(text, pos, deltas, final)
                else:
                    pos, ended = self._consume_arg_value(text, pos, deltas, final)
                if not ended:
                    break
                state.phase = ARG_START
            elif phase == ARG_START:
                # Layout between tags is consumed even while the next tag is undecided, so
                # that a run of it is not scanned again with every chunk.
                pos = skip_whitespace(text, pos)
                found = self._consume_arg_start(text, pos)
                if found is None:
                    break
                pos, state.phase = found
                if state.phase == DONE:
                    self._end_call(deltas)
            elif phase == ARG_NAME:
                named = self._consume_arg_name(text, pos)
                if named is None:
                    pos = self._waiting_at(pos)
                    break
                pos, name = named
                if name is None:
                    state.phase = ARG_START
                else:
                    self._start_value(name)
            elif phase == FUNCTION:
                if not self._search.open:  # inside a name, whitespace is the name's
                    pos = skip_whitespace(text, pos)
                header = self._consume_function(text, pos, final)
                if header is None:
                    pos = self._waiting_at(pos)
                    break
                pos, name, state.phase = header
                if state.phase == DONE:
                    self._payload_closed = True
                    return pos
                if state.phase == ARG_START:
                    self._begin_call()
                    state.function_name = name or ""
                    if name:
                        self._emit_delta(deltas, name=name)
            else:  # DONE
                return pos
        if final:
            if state.function_name is not None:
                self._end_call(deltas)
            state.phase = DONE
            return len(text)
        return pos

    def _waiting_at(self, pos: int) -> int:
        """Where a hook that waits leaves the payload consumed to: past the stretch its
        search absorbed (``ResumableSearch``), else where it began."""
        search = self._search
        return search.resume_at if search.open else pos

    def _end_call(self, deltas: list[DeltaToolCall]) -> None:
        """Close the current call's arguments object (``{}`` when it had no argument)."""
        state = self._state
        self._emit_delta(deltas, arguments="}" if self._arguments_emitted else "{}")
        state.function_name = None
        state.phase = FUNCTION

    def _start_value(self, name: str) -> None:
        state = self._state
        types = self._value_types(name)
        state.phase = ARG_VALUE
        state.argument_name = name
        state.value_types = types
        state.value_mode = _UNDECIDED if streams_as_string(types) else _HOLD
        state.key_emitted = False
        state.leading_done = self.value_whitespace != ONE_NEWLINE
        state.held = []

    def _value_types(self, name: str) -> frozenset[str]:
        """The JSON types the current call's parameter ``name`` may take, by its schema
        (empty: a string, streamed as it arrives)."""
        properties = self._schemas.get(self._state.function_name or "")
        return value_types(properties.get(name)) if properties else frozenset()

    def _emit_value(self, deltas: list[DeltaToolCall], piece: str) -> None:
        """Emit a piece of the current value, preceded by its key the first time."""
        state = self._state
        if not state.key_emitted:
            state.key_emitted = True
            opener = ", " if self._arguments_emitted else "{"
            key = json_string_piece(state.argument_name)
            quote = '"' if state.value_mode == _STREAM else ""
            piece = f'{opener}"{key}": {quote}{piece}'
        self._emit_arguments(deltas, piece)

    def _consume_arg_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        """Consume what is stable of the current value; ``True`` once the value ended.

        Everything the value's end cannot be in is consumed at once (what is not emitted yet
        waits in ``state.held``), so the unconsumed text stays as short as a tag prefix.
        """
        state = self._state
        n = len(text)
        repeated = self.value_repeated_open
        if repeated and not state.held and not state.key_emitted:  # at the value's start
            while text.startswith(repeated, pos):
                pos += len(repeated)  # each repeat is consumed once
            if not final and n - pos < len(repeated) and repeated.startswith(text[pos:]):
                return pos, False  # nothing or a prefix of the tag: wait
        if not state.leading_done:
            if text.startswith("\n", pos):
                pos += 1
            elif text.startswith("\r\n", pos):
                pos += 2
            elif not final and (pos == n or (pos + 1 == n and text[pos] == "\r")):
                return pos, False
            state.leading_done = True
        if state.value_mode == _UNDECIDED:
            # A string value streams unless it is quoted: wait for its first visible character.
            first = pos
            while first < n and text[first] in _WHITESPACE:
                first += 1
            if first == n and not final:
                if first > pos:
                    state.held.append(text[pos:first])
                return n, False
            if first < n and text[first] == '"':
                state.value_mode = _HOLD
            else:
                state.value_mode = _STREAM
        if state.value_mode == _HOLD:
            return self._consume_held_value(text, pos, deltas, final)
        return self._consume_streamed_value(text, pos, deltas, final)

    def _consume_streamed_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        n = len(text)
        if not final and text.find(self._value_tags.lead, pos) < 0:
            stable = n  # the hot path: no markup in sight, all of it is value text
        else:
            tags = self._value_tags
            end, tag = tags.find_end(text, pos)
            if end >= 0 or final:
                self._end_streamed_value(deltas, text[pos:end] if end >= 0 else text[pos:], tag)
                return (end + len(tag) if tag == tags.close_tag else n if end < 0 else end), True
            stable = tags.stable_end(text, pos)
        if stable == pos:
            return pos, False
        state = self._state
        if self.value_whitespace == KEEP_WHITESPACE or text[stable - 1] not in _WHITESPACE:
            visible = text[pos:stable] if pos or stable < n else text
            if state.held:
                visible = "".join(state.held) + visible
                state.held.clear()
            self._emit_streamed(deltas, visible)
        else:
            # ONE_NEWLINE: at most one trailing newline (and a held one) may be layout.
            candidate = "".join(state.held) + text[pos:stable]
            layout = len(candidate) - len(_one_trailing_newline(candidate))
            if candidate[-1] == "\r":
                layout = 1
            state.held = [candidate[len(candidate) - layout :]] if layout else []
            if layout < len(candidate):
                self._emit_streamed(deltas, candidate[: len(candidate) - layout])
        return stable, False

    def _emit_streamed(self, deltas: list[DeltaToolCall], visible: str) -> None:
        piece = encode_basestring(visible)[1:-1]
        if self._state.key_emitted:
            self._emit_arguments(deltas, piece)
        else:
            self._emit_value(deltas, piece)

    def _end_streamed_value(self, deltas: list[DeltaToolCall], rest: str, tag: str | None) -> None:
        state = self._state
        value = "".join(state.held) + rest if state.held else rest
        state.held = []
        value = self._without_trailing_layout(value)
        if tag is not None or value or state.key_emitted:
            self._emit_value(deltas, json_string_piece(value) + '"')
        # else: the input ended before any of the value arrived; invent no empty string.

    def _consume_held_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        state = self._state
        n = len(text)
        if not final and text.find(self._value_tags.lead, pos) < 0:
            state.held.append(text[pos:] if pos else text)
            return n, False
        tags = self._value_tags
        end, tag = tags.find_end(text, pos)
        if end < 0 and not final:
            stable = tags.stable_end(text, pos)
            if stable > pos:
                state.held.append(text[pos:stable])
            return stable, False
        value = "".join(state.held) + text[pos : end if end >= 0 else n]
        state.held = []
        value = self._without_trailing_layout(value)
        if tag is not None or value:
            self._emit_value(deltas, convert_value(value, state.value_types))
        return (end + len(tag) if tag == tags.close_tag else n if end < 0 else end), True

    def _without_trailing_layout(self, value: str) -> str:
        """The value without the trailing whitespace that the dialect's layout adds."""
        if self.value_whitespace == ONE_NEWLINE:
            return _one_trailing_newline(value)
        return value


def _one_trailing_newline(value: str) -> str:
    """``value`` without one trailing ``\\n`` or ``\\r\\n``."""
    if value.endswith("\r\n"):
        return value[:-2]
    if value.endswith("\n"):
        return value[:-1]
    return value
