"""OpenAI Harmony (gpt-oss): a response is a sequence of messages, each on a channel.

The prompt ends with ``<|start|>assistant``, so the output opens with the first header::

    <|channel|>analysis<|message|>Need the weather.<|end|>
    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json
    <|message|>{"city": "Tokyo"}<|call|>
    <|start|>assistant<|channel|>final<|message|>Done.<|return|>

(the second message is cut in two here for width only).

Every message is a header (role, ``<|channel|>NAME``, an optional recipient ``to=…`` before
or after the channel, an optional content type such as ``<|constrain|>json``) and a body
after ``<|message|>``, ended by ``<|end|>``, ``<|call|>`` or ``<|return|>``. What a body is
depends on the header, so this cannot be composed from the plain / reasoning / tool machine;
it is a response parser of its own (seed 000, "新增 Parser", rule 4). Bodies are routed as
vLLM's ``HarmonyParser`` routes them:

- recipient ``functions.NAME`` (any channel): a call of NAME whose arguments are the body,
  forwarded verbatim (leading whitespace dropped; ``{}`` when empty);
- channel ``analysis``: reasoning (always: the channel says so, whatever the thinking flag);
- channel ``final``, or ``commentary`` without a recipient (a preamble): content;
- anything else (a built-in tool such as ``browser.search``, an unknown or missing channel):
  dropped, as are calls when the request's ``tool_choice`` is ``none``. A built-in tool is
  run by the server (the Responses API), never by the client: vLLM's chat completions make
  calls of ``functions.*`` recipients only. (SGLang's detector reads any ``to=NS.NAME`` as a
  call of ``NAME``, so ``browser.search`` becomes a call of an offered ``search``: a bug.)

Consecutive messages of one channel are joined as the model wrote them, with nothing
between (``…up.`` + ``The…``): a separator would be text the model did not write, and a
stream cannot take back what it sent. Peers differ here (vLLM's complete parse joins with
``\n``, SGLang's with a space); the corpus lists the three as implementation-defined.

The parser reads decoded text (``skip_special_tokens=False``). Every marker is one special
token of the o200k_harmony vocabulary, so bodies stream at once with nothing held back; the
header is held whole until ``<|message|>`` and searched from where the previous search
stopped. The identity of a call (its recipient) is in the header, so it is emitted before
any argument. Any marker inside a body ends the message, so a missing ``<|end|>`` before
the next ``<|start|>`` or ``<|channel|>`` is tolerated. At the end
of input an open call is finished; an unterminated header, being protocol text, is dropped,
unless the output holds no marker at all: a model that did not speak Harmony wrote content.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from .reasoning import ReasoningParser
from .response_parser import ResponseParser
from .tool_parser import ToolParser
from .types import DeltaMessage, DeltaToolCall, Request

START = "<|start|>"
CHANNEL = "<|channel|>"
MESSAGE = "<|message|>"
CONSTRAIN = "<|constrain|>"
END = "<|end|>"
CALL = "<|call|>"
RETURN = "<|return|>"
#: The recipient of a function call, as it sits in a header; text, so a chunk may end in it.
FUNCTION_RECIPIENT = " to=functions."

_MARKERS = (START, CHANNEL, MESSAGE, CONSTRAIN, END, CALL, RETURN)
_MARKER_HEAD = "<|"
_FUNCTIONS = "functions."
#: A header's recipient ``to=R``: at its start or after a space, R running to a space or a
#: marker (Harmony and the formats that borrowed its framing).
RECIPIENT = re.compile(r"(?:^|[\s>])to=([^\s<]+)")
_CHANNEL_NAME = re.compile(r"<\|channel\|>\s*([^\s<]+)")
_WHITESPACE = " \t\r\n"

#: Where the text being read goes: a header, or the body of a message of one kind (a
#: subclass of ``MessageResponseParser`` may add routes of its own: Harmony's call
#: arguments).
HEADER, REASONING, CONTENT, DROPPED = range(4)
_CALL_ARGUMENTS = 4


class HarmonyToolParser(ToolParser):
    """The call contract for Harmony: one call per message addressed to ``functions.NAME``.

    Not a block parser: the call's identity is in the header, which only the response
    parser sees, so ``feed_tool_block`` is never used. The response parser finds each body
    and this class turns it into identity-first, filtered, densely indexed call fragments.
    """

    open_tag = MESSAGE
    close_tag = None

    def open_call(self, name: str, deltas: list[DeltaToolCall]) -> None:
        """A message to ``functions.NAME`` begins: its identity goes first."""
        self._begin_call()
        self._emit_delta(deltas, name=name)

    def feed_arguments(self, text: str, start: int, end: int, deltas: list[DeltaToolCall]) -> None:
        """``text[start:end]`` is more of the body: the arguments, verbatim."""
        if not self._arguments_emitted:
            while start < end and text[start] in _WHITESPACE:
                start += 1
        if end > start:
            self._emit_delta(deltas, arguments=text[start:end])

    def close_call(self, deltas: list[DeltaToolCall]) -> None:
        """The body ended: a call without arguments gets ``{}``."""
        if self._call_named and not self._arguments_emitted:
            self._emit_delta(deltas, arguments="{}")


class MessageResponseParser(ResponseParser):
    """A response of framed messages: a header, then a body after ``message_marker``.

    The framing Harmony and the models that borrowed it (Muse) share: every marker is one
    special token beginning with ``<|``; a header is held whole until ``message_marker`` and
    searched from where the previous search stopped; a body streams until the next marker,
    which ends it (a missing end marker before the next header is tolerated). ``<|start|>``
    and the end markers are consumed; a header marker inside a body starts the next header.
    Subclasses route each body (``_open_message``, ``_route_body``, ``_close_message``).
    At the end of input an unterminated header, being protocol text, is dropped, unless the
    output holds no marker at all: a model that did not speak the framing wrote content.
    """

    #: Every marker of the framing.
    markers: ClassVar[tuple[str, ...]]
    #: The marker that ends a header and opens its body.
    message_marker: ClassVar[str] = MESSAGE
    #: Markers that stand inside a header and keep it open (a channel, a content type).
    header_markers: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        return dict.fromkeys(cls.markers, ())

    def __init__(
        self,
        request: Request | None = None,
        *,
        tool_parser: type[ToolParser] | None = None,
        reasoning_parser: type[ReasoningParser] | None = None,
        reasoning_tag_ids: tuple[int, int] | None = None,
    ) -> None:
        # The plain machine without parsers gives the request and the pending buffer; the
        # reasoning channel is the framing's own, so no reasoning parser applies.
        super().__init__(request)
        calls = None
        if tool_parser is not None and self.request.tool_choice != "none":
            calls = tool_parser(self.request)
        self._calls = calls
        self.tool_parser = calls
        self._route = HEADER
        self._searched = 0  # characters of the held header already searched
        self._structured = False  # whether any marker has been seen
        # A header search resumes this far before where it stopped, so that a marker cut by
        # a chunk boundary (never by a token-aligned one: they are single tokens) is found.
        self._overlap = max(map(len, self.markers)) - 1

    def stream_chunk(
        self, text: str, token_ids: Sequence[int] = (), *, final: bool = False
    ) -> list[tuple[DeltaMessage, bool]]:
        out: list[tuple[DeltaMessage, bool]] = []
        pending = self._pending + text if self._pending else text
        n = len(pending)
        pos = 0
        markers = self.markers
        while True:
            if self._route == HEADER:
                position, marker = _next_marker(pending, pos + self._searched, markers)
                if marker is None:
                    if final:
                        if not self._structured and n > pos:
                            # No marker in the whole output: the model did not speak the
                            # framing at all, and its text is content (as the engines return
                            # it), not a header.
                            out.append((DeltaMessage(content=pending[pos:]), False))
                        pos = n
                    else:
                        self._searched = max(self._searched, n - pos - self._overlap)
                    break
                self._structured = True
                if marker in self.header_markers:
                    self._searched = position + len(marker) - pos
                    continue
                if marker == self.message_marker:
                    self._open_message(pending[pos:position], out)
                # <|start|> begins a new header; an end marker ends a message without a body.
                pos = position + len(marker)
                self._searched = 0
                continue
            position, marker = _next_marker(pending, pos, markers)
            end = n if marker is None else position
            if end > pos:
                pos = self._route_body(pending, pos, end, out, final or marker is not None)
            if marker is None:
                if final:
                    pos = n
                    self._close_message(out)
                break
            self._close_message(out)
            self._route = HEADER
            starts_header = marker == self.message_marker or marker in self.header_markers
            pos = position if starts_header else position + len(marker)
        self._pending = pending[pos:]
        return out

    def _open_message(self, header: str, out: list[tuple[DeltaMessage, bool]]) -> None:
        """Set ``_route`` for the body that follows ``header`` (the text before the
        message marker)."""
        raise NotImplementedError

    def _route_body(
        self, text: str, start: int, end: int, out: list[tuple[DeltaMessage, bool]], ends: bool
    ) -> int:
        """Route ``text[start:end]``, more of the current body (``ends``: the body ends at
        ``end``); return where the unrouted rest begins (``end`` when ``ends``)."""
        route = self._route
        if route == CONTENT:
            out.append((DeltaMessage(content=text[start:end]), False))
        elif route == REASONING:
            out.append((DeltaMessage(reasoning_content=text[start:end]), False))
        return end

    def _close_message(self, out: list[tuple[DeltaMessage, bool]]) -> None:
        """The current body ended."""


class HarmonyResponseParser(MessageResponseParser):
    """Streaming parser of one Harmony response; the same public API as ``ResponseParser``."""

    markers = _MARKERS
    header_markers = (CHANNEL, CONSTRAIN)

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        tags[FUNCTION_RECIPIENT] = (" to=functions", " to=", " to")
        return tags

    def _open_message(self, header: str, out: list[tuple[DeltaMessage, bool]]) -> None:
        recipient_match = RECIPIENT.search(header)
        recipient = recipient_match.group(1) if recipient_match else None
        channel_match = _CHANNEL_NAME.search(header)
        channel = channel_match.group(1) if channel_match else None
        if recipient is not None and recipient.startswith(_FUNCTIONS):
            name = recipient[len(_FUNCTIONS) :]
            tool = self._calls
            if tool is None or not name:
                self._route = DROPPED
                return
            deltas: list[DeltaToolCall] = []
            tool.open_call(name, deltas)
            if deltas:
                out.append((DeltaMessage(tool_calls=deltas), True))
            self._route = _CALL_ARGUMENTS
        elif channel == "analysis":
            self._route = REASONING
        elif channel == "final" or (channel == "commentary" and recipient is None):
            self._route = CONTENT
        else:
            self._route = DROPPED

    def _route_body(
        self, text: str, start: int, end: int, out: list[tuple[DeltaMessage, bool]], ends: bool
    ) -> int:
        if self._route != _CALL_ARGUMENTS:
            return super()._route_body(text, start, end, out, ends)
        tool = self._calls
        assert isinstance(tool, HarmonyToolParser)
        deltas: list[DeltaToolCall] = []
        tool.feed_arguments(text, start, end, deltas)
        if deltas:
            out.append((DeltaMessage(tool_calls=deltas), True))
        return end

    def _close_message(self, out: list[tuple[DeltaMessage, bool]]) -> None:
        if self._route == _CALL_ARGUMENTS:
            tool = self._calls
            assert isinstance(tool, HarmonyToolParser)
            deltas: list[DeltaToolCall] = []
            tool.close_call(deltas)
            if deltas:
                out.append((DeltaMessage(tool_calls=deltas), True))


def _next_marker(text: str, start: int, markers: tuple[str, ...]) -> tuple[int, str | None]:
    """The first of ``markers`` in ``text[start:]``: ``(position, marker)`` or ``(-1, None)``.

    Every marker begins with ``<|``, which ordinary text rarely contains, so one ``find``
    crosses the text and only its hits are compared with the markers.
    """
    position = text.find(_MARKER_HEAD, start)
    while position >= 0:
        for marker in markers:
            if text.startswith(marker, position):
                return position, marker
        position = text.find(_MARKER_HEAD, position + 1)
    return -1, None
