"""DSML tool blocks (DeepSeek V3.2 and V4): invokes whose parameters say their own type.

::

    <｜DSML｜function_calls>
    <｜DSML｜invoke name="get_weather">
    <｜DSML｜parameter name="city" string="true">東京</｜DSML｜parameter>
    <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
    </｜DSML｜invoke>
    </｜DSML｜function_calls>

``｜`` is U+FF5C. A ``string="true"`` value is raw text: it streams as a JSON string,
escaped as it arrives. Any other value should be JSON (DeepSeek's encoder writes it with
``json.dumps``): it is held until its close tag and forwarded verbatim when it is JSON,
never re-serialised. A value that is not JSON (``string="false">hello<``, or a truncated
object) becomes the JSON string of its text, as vLLM's and SGLang's DSML parsers fall back:
the parser builds the arguments object itself, so it must not build one that
``json.loads`` rejects (DeepSeek's own ``decode_dsml_to_arguments`` pastes the text in
and does). No schema is consulted.

The payload is not XML-like in the seed's sense (the type lives in an attribute, not in a
schema), so this parser derives from ``ToolParser`` directly and shares only the markup
scanning of ``markup``. ``｜DSML｜`` is a dedicated token of both vocabularies, so a DSML tag
always means protocol: a value whose ``</｜DSML｜parameter>`` is missing ends at the next
``<｜DSML｜parameter``, ``</｜DSML｜invoke>``, ``<｜DSML｜invoke`` or block close tag, even
inside what looks like a JSON string.

Arguments are one JSON object, ``{"k": v, ...}`` with ``json.dumps`` separators, closed at
``</｜DSML｜invoke>`` or at the end of the input.
"""

from __future__ import annotations

import json
import re
from json.encoder import encode_basestring
from typing import ClassVar

from .markup import (
    ResumableSearch,
    ValueTags,
    json_string_piece,
    skip_stray_text,
    skip_whitespace,
    tag_at,
)
from .tool_parser import ToolParser
from .types import DeltaToolCall, Request

DSML = "｜DSML｜"


def marker_inner_tags(marker: str, token: str | None = None) -> dict[str, tuple[str, ...]]:
    """The inner tags of DSML markup spelled with ``marker``, with their chunk-end prefixes,
    for a dialect cut with the tag-aligned model (no tokenizer of its own says otherwise).

    The prefixes assume V4's split of a tag: ``<`` · ``token`` · the name · `` name`` · ``="``,
    where ``token`` is the part of the marker that is one token (the whole marker by default;
    ``｜DSML｜`` of V4.1's ``｜DSML｜ ``). A head alone is a tag too: it ends a value whose
    close tag is missing. ``marker_inner_tags("｜GCML｜")["</｜GCML｜invoke>"]`` →
    ``("</｜GCML｜invoke", "</｜GCML｜", "</")``.
    """
    m, head = marker, marker if token is None else token
    return {
        f"<{m}invoke name=": (f"<{m}invoke name", f"<{m}invoke", f"<{head}", "<"),
        f"</{m}invoke>": (f"</{m}invoke", f"</{head}", "</"),
        f"<{m}parameter name=": (f"<{m}parameter name", f"<{m}parameter", f"<{head}", "<"),
        f"</{m}parameter>": (f"</{m}parameter", f"</{head}", "</"),
        f"<{m}invoke": (f"<{head}", "<"),
        f"<{m}parameter": (f"<{head}", "<"),
    }


_ATTRIBUTE = re.compile(r'([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"')

# Phases.
_INVOKE = 0  # between invokes: the next invoke or the block's end
_PARAMETER = 1  # inside an invoke: the next parameter or the invoke's end
_VALUE = 2
_DONE = 3


class DsmlToolParser(ToolParser):
    """One DSML block: ``open_tag`` / ``close_tag`` name the block (``function_calls`` …).

    Every inner tag is ``<`` + ``marker`` + its name: ``<｜DSML｜invoke``, and for the
    dialects that spell the markup alike with another marker, ``<｜DSML｜ invoke``
    (DeepSeek-V4.1) or ``<｜GCML｜invoke`` (GigaChat 3.5). Such a dialect declares its
    marker and its ``inner_tags``, built from the marker by ``marker_inner_tags`` (their
    chunk-end prefixes differ from V3.2's and V4's, whose tokenizer splits ``invoke``).
    Kimi K3's XTML has the same structure with other words: it declares its ``markup``,
    ``header_end``, attribute names and what makes a value a string.
    """

    #: What stands between ``<`` (or ``</``) and every inner tag's name.
    marker: ClassVar[str] = DSML
    #: The inner tags (``<`` + marker + ``invoke name=`` …) with the proper prefixes that
    #: can end a chunk, longest first; a dialect with another marker declares its own.
    inner_tags: ClassVar[dict[str, tuple[str, ...]]] = {
        f"<{DSML}invoke name=": (
            f"<{DSML}invoke name",
            f"<{DSML}invoke",
            f"<{DSML}inv",
            f"<{DSML}",
            "<",
        ),
        f"</{DSML}invoke>": (f"</{DSML}invoke", f"</{DSML}inv", f"</{DSML}", "</"),
        f"<{DSML}parameter name=": (f"<{DSML}parameter name", f"<{DSML}parameter", f"<{DSML}", "<"),
        f"</{DSML}parameter>": (f"</{DSML}parameter", f"</{DSML}", "</"),
        # The heads alone end a value whose close tag is missing (``<｜DSML｜parameter>``
        # with no name is still protocol), so they are tags too: a chunk never ends
        # inside ``｜DSML｜`` (one token), whatever follows the head.
        f"<{DSML}invoke": (f"<{DSML}invok", f"<{DSML}inv", f"<{DSML}", "<"),
        f"<{DSML}parameter": (f"<{DSML}", "<"),
    }
    #: What ends an invoke's or a parameter's header: the tag's own ``>``, or a tag of its
    #: own (Kimi K3's ``<|sep|>``).
    header_end: ClassVar[str] = ">"
    #: The attributes that name the invoke's function and the parameter's key.
    function_attribute: ClassVar[str] = "name"
    key_attribute: ClassVar[str] = "name"
    #: Derived from ``markup()``: the tags the payload is read by.
    invoke_open: ClassVar[str]
    invoke_close: ClassVar[str]
    parameter_open: ClassVar[str]
    parameter_close: ClassVar[str]
    _value_tags: ClassVar[ValueTags]
    _header_stops: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.invoke_open, cls.invoke_close, cls.parameter_open, cls.parameter_close = cls.markup()
        cls.payload_starts = (cls.invoke_open,)
        if cls.close_tag is not None:
            ends = (cls.parameter_open, cls.invoke_close, cls.invoke_open, cls.close_tag)
            cls._value_tags = ValueTags(cls.parameter_close, ends, cls.protocol_tags())
            cls._header_stops = (cls.header_end, cls.parameter_close, *ends)

    @classmethod
    def markup(cls) -> tuple[str, str, str, str]:
        """The invoke's open and close tags, the parameter's: ``<`` + ``marker`` + the name
        by default (``<｜DSML｜invoke``, ``</｜DSML｜invoke>`` …)."""
        m = cls.marker
        return f"<{m}invoke", f"</{m}invoke>", f"<{m}parameter", f"</{m}parameter>"

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        """The block tags and every inner tag, with their chunk-end prefixes."""
        return {**super().protocol_tags(), **cls.inner_tags}

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._phase = _INVOKE
        self._in_call = False
        self._key: str | None = None
        self._value_is_string = False
        self._key_emitted = False
        #: The text of a non-string value so far: held until it ends, then checked.
        self._held: list[str] = []
        #: The search for the end of an undecided invoke or parameter header, which holds
        #: the header searched so far while it is ``open``.
        self._search = ResumableSearch()

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._phase = _INVOKE
        self._in_call = False
        self._search.reset()

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        close_tag = self.close_tag
        assert close_tag is not None
        pos = 0
        while True:
            phase = self._phase
            if phase == _VALUE:
                pos, ended = self._consume_value(text, pos, deltas, final)
                if not ended:
                    break
                self._phase = _PARAMETER
            elif phase == _PARAMETER:
                if self._search.open:  # the rest of a header begun in an earlier chunk
                    tag = self.parameter_open
                    start = pos
                else:
                    pos = skip_whitespace(text, pos)
                    tag = tag_at(
                        text,
                        pos,
                        (self.parameter_open, self.invoke_close, close_tag, self.invoke_open),
                    )
                    start = pos + len(tag or "")
                if tag == self.parameter_open:
                    header = self._header(text, start)
                    if header is None:
                        pos = self._search.resume_at
                        break
                    pos, attributes = header
                    if attributes is not None:
                        self._start_value(attributes)
                elif tag == self.invoke_close:
                    self._end_call(deltas)
                    pos += len(tag)
                elif tag:  # the block's end or the next invoke: </｜DSML｜invoke> is missing
                    self._end_call(deltas)
                elif tag is None:
                    pos = skip_stray_text(text, pos)
                else:
                    break
            elif phase == _INVOKE:
                if self._search.open:  # the rest of a header begun in an earlier chunk
                    tag = self.invoke_open
                    start = pos
                else:
                    pos = skip_whitespace(text, pos)
                    tag = tag_at(text, pos, (self.invoke_open, close_tag))
                    start = pos + len(tag or "")
                if tag == self.invoke_open:
                    header = self._header(text, start)
                    if header is None:
                        pos = self._search.resume_at
                        break
                    pos, attributes = header
                    if attributes is not None:
                        self._begin_invoke(deltas, attributes)
                elif tag == close_tag:
                    self._phase = _DONE
                    self._payload_closed = True
                    return pos
                elif tag is None:
                    pos = skip_stray_text(text, pos)
                else:
                    break
            else:  # _DONE
                return pos
        if final:
            if self._in_call:
                self._end_call(deltas)
            self._phase = _DONE
            return len(text)
        return pos

    def _header(self, text: str, pos: int) -> tuple[int, str | None] | None:
        """The header's text up to ``header_end`` and the position after it; ``None`` while
        it has not come, ``(position, None)`` when another tag begins first (malformed: what
        follows is left alone)."""
        if self.header_end == ">":
            return self._search.header(text, pos)
        position, tag, header = self._search.first(text, self._header_stops, pos)
        if tag is None:
            return None
        if tag != self.header_end:
            return position, None
        return position + len(tag), header

    def attributes(self, header: str) -> dict[str, str]:
        """A header's attributes, ``name="value"`` pairs."""
        return dict(_ATTRIBUTE.findall(header))

    def is_string(self, attributes: dict[str, str]) -> bool:
        """Whether a parameter's value is raw text (``string="true"``), not JSON."""
        return attributes.get("string") == "true"

    def _begin_invoke(self, deltas: list[DeltaToolCall], attributes: str) -> None:
        self._begin_call()
        self._in_call = True
        self._phase = _PARAMETER
        name = self.attributes(attributes).get(self.function_attribute)
        if name:
            self._emit_delta(deltas, name=name)

    def _end_call(self, deltas: list[DeltaToolCall]) -> None:
        """Close the invoke's arguments object (``{}`` when it had no parameter)."""
        self._emit_delta(deltas, arguments="}" if self._arguments_emitted else "{}")
        self._in_call = False
        self._phase = _INVOKE

    def _start_value(self, attributes: str) -> None:
        values = self.attributes(attributes)
        self._phase = _VALUE
        # A parameter without a name cannot be reported; its value is consumed unseen.
        self._key = values.get(self.key_attribute)
        self._value_is_string = self.is_string(values)
        self._key_emitted = False
        self._held = []

    def _consume_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        """Consume what is stable of the value; ``True`` once it ended."""
        if not self._value_is_string:
            return self._consume_typed_value(text, pos, deltas, final)
        if not final and text.find("<", pos) < 0:
            # The hot path: no markup in sight, everything is value.
            if pos < len(text):
                raw = text[pos:] if pos else text
                if self._key_emitted:
                    self._emit_arguments(deltas, encode_basestring(raw)[1:-1])
                else:
                    self._emit_value(deltas, raw)
            return len(text), False
        tags = self._value_tags
        end, tag = tags.find_end(text, pos)
        if end < 0 and not final:
            stable = tags.stable_end(text, pos)
            if stable > pos:
                self._emit_value(deltas, text[pos:stable])
            return stable, False
        if end < 0:
            end = len(text)
            if end == pos and not self._key_emitted:
                return end, True  # the input ended before the value began: invent none
        self._emit_value(deltas, text[pos:end], last=True)
        return (end + len(tag) if tag == self.parameter_close else end), True

    def _consume_typed_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        """Hold a non-string value until it ends; then emit it as JSON (``True`` once ended).

        Held text waits in pieces and is joined once, so a long value costs linear time.
        """
        n = len(text)
        if not final and text.find("<", pos) < 0:
            if pos < n:
                self._held.append(text[pos:] if pos else text)
            return n, False
        tags = self._value_tags
        end, tag = tags.find_end(text, pos)
        if end < 0 and not final:
            stable = tags.stable_end(text, pos)
            if stable > pos:
                self._held.append(text[pos:stable])
            return stable, False
        if end < 0:
            end = n
            if end == pos and not self._held:
                return end, True  # the input ended before the value began: invent none
        self._held.append(text[pos:end])
        raw = "".join(self._held)
        self._held = []
        if self._key is not None:
            opener = ", " if self._arguments_emitted else "{"
            value = raw if _is_json(raw) else json.dumps(raw, ensure_ascii=False)
            self._emit_arguments(deltas, f'{opener}"{json_string_piece(self._key)}": {value}')
        return (end + len(tag) if tag == self.parameter_close else end), True

    def _emit_value(self, deltas: list[DeltaToolCall], raw: str, *, last: bool = False) -> None:
        """Stream a piece of a string value, preceded by its key the first time."""
        key = self._key
        if key is None:
            return
        piece = encode_basestring(raw)[1:-1]
        if last:
            piece += '"'
        if not self._key_emitted:
            self._key_emitted = True
            opener = ", " if self._arguments_emitted else "{"
            piece = f'{opener}"{json_string_piece(key)}": "{piece}'
        if piece:
            self._emit_arguments(deltas, piece)


def _is_json(text: str) -> bool:
    """Whether ``text`` is one JSON value (``NaN`` and ``Infinity`` are not JSON)."""
    try:
        json.loads(text, parse_constant=_reject_constant)
    except ValueError:
        return False
    return True


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")
