"""The tool-parser contract: one outer tool block in, normalized call fragments out.

A ``ToolParser`` owns the outer block and the public call contract; a concrete dialect owns
only its inner payload grammar (seed 000, "已消费前缀接口"). The response parser hands it the
unconsumed text after the outer open tag and drops what it reports as consumed, so the
response parser is the single owner of buffered text and nothing is scanned twice.

Calls are emitted identity-first: the first fragment of an accepted call carries id, type
and name, and argument pieces seen before the name are held and released after it, in
order. Unknown names are filtered and the surviving calls get dense indices from 0.
"""

from __future__ import annotations

from typing import ClassVar

from .json_scanner import JsonValueScanner
from .tags import stable_prefix_end
from .types import DeltaToolCall, Request

_PENDING = -2  # the current call has no name yet
_REJECTED = -1  # the current call's name is not allowed: drop everything it emits


class ToolParser:
    """Base of every dialect's tool parser.

    Subclasses declare the outer tags and the token-boundary prefixes of the close tag, and
    implement ``_consume_stream_payload``. One instance serves one response.
    """

    #: The outer open tag, as it appears in decoded text.
    open_tag: ClassVar[str]
    #: The outer close tag; ``None`` when the block ends with its payload (Llama 3 JSON).
    close_tag: ClassVar[str | None] = None
    #: Proper prefixes of ``open_tag`` that can end a decoded chunk, longest first.
    open_prefixes: ClassVar[tuple[str, ...]] = ()
    #: Proper prefixes of ``close_tag`` that can end a decoded chunk, longest first.
    close_prefixes: ClassVar[tuple[str, ...]] = ()
    #: Whether calls with names outside the request's tools are dropped (seed 000); a
    #: dialect whose specification returns them (ds2api) sets this to False.
    filters_unknown_names: ClassVar[bool] = True

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        """The dialect's tool tags, each with the proper prefixes that can end a chunk.

        Dialects with inner tags (XML-like, DSML, section tokens) extend this mapping.
        """
        tags = {cls.open_tag: cls.open_prefixes}
        if cls.close_tag is not None:
            tags[cls.close_tag] = cls.close_prefixes
        return tags

    def __init__(self, request: Request) -> None:
        self.request = request
        self._allowed = request.allowed_tool_names() if self.filters_unknown_names else None
        self._next_index = 0
        self._output_index = _PENDING
        self._call_id: str | None = None
        self._pending_arguments: list[str] = []
        self._arguments_emitted = False
        self._payload_closed = False
        self.block_closed = True
        #: Whether any call has been emitted in this response (for finish_reason).
        self.tool_emitted = False

    # ----------------------------------------------------------------- outer block

    def begin_tool_block(self) -> None:
        """Called by the response parser right after it consumed the outer open tag."""
        self._payload_closed = False
        self.block_closed = False

    def feed_tool_block(self, text: str, deltas: list[DeltaToolCall], final: bool = False) -> int:
        """Consume what is stable of ``text`` (which starts inside the block).

        Appends zero or more fragments to ``deltas`` and returns how many leading characters
        of ``text`` the caller may drop. Text after the outer close tag is never consumed.
        """
        if self.block_closed:
            return 0
        consumed = 0
        if not self._payload_closed:
            consumed = self._consume_stream_payload(text, deltas, final)
            if not (self._payload_closed or final):
                return consumed  # the common case: the middle of a payload
        return self._after_payload(text, consumed, final)

    def _after_payload(self, text: str, consumed: int, final: bool) -> int:
        """The payload ended, or the input did: consume the outer close tag and only that."""
        close_tag = self.close_tag
        if self._payload_closed:
            if close_tag is None:
                self.block_closed = True
                return consumed
            position = text.find(close_tag, consumed)
            if position >= 0:
                self.block_closed = True
                return position + len(close_tag)
            if not final:
                # Between the payload and the close tag only separators are expected; keep
                # a tail that may begin the close tag, drop the rest.
                return stable_prefix_end(text, self.close_prefixes, consumed)
        self.block_closed = True
        return len(text)

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        """Consume the dialect's inner payload; set ``_payload_closed`` when it ends.

        Must not consume the outer close tag. With ``final`` the input is over: finish what
        can be finished (close an emitted arguments object) but invent no name or value.
        """
        raise NotImplementedError

    # ----------------------------------------------------------------- call contract

    def _begin_call(self, call_id: str | None = None) -> None:
        """Start one logical call; exactly once per call, before anything is emitted for it."""
        self._output_index = _PENDING
        self._call_id = call_id
        self._pending_arguments = []
        self._arguments_emitted = False

    def _emit_delta(
        self,
        deltas: list[DeltaToolCall],
        *,
        name: str | None = None,
        arguments: str | None = None,
    ) -> None:
        """Route one piece of the current call to the client, identity first."""
        if name is not None and self._output_index == _PENDING:
            if self._allowed is not None and name not in self._allowed:
                self._output_index = _REJECTED
                self._pending_arguments = []
            else:
                index = self._output_index = self._next_index
                self._next_index += 1
                self.tool_emitted = True
                deltas.append(
                    DeltaToolCall(index, self._call_id or f"call_{index}", "function", name)
                )
                for piece in self._pending_arguments:
                    deltas.append(DeltaToolCall(index, arguments=piece))
                self._pending_arguments = []
        if arguments:
            self._emit_arguments(deltas, arguments)

    def _emit_arguments(self, deltas: list[DeltaToolCall], piece: str) -> None:
        """``_emit_delta(deltas, arguments=piece)`` for a non-empty piece, on the hot path."""
        self._arguments_emitted = True
        index = self._output_index
        if index >= 0:
            deltas.append(DeltaToolCall(index, None, None, None, piece))
        elif index == _PENDING:
            self._pending_arguments.append(piece)

    def _forward_json_value(
        self, scanner: JsonValueScanner, text: str, start: int, deltas: list[DeltaToolCall]
    ) -> int:
        """Emit, verbatim, the part of ``text[start:]`` that the JSON value being scanned
        covers (leading whitespace before the value is skipped, not emitted); return the
        position after it. The caller reads ``scanner.complete`` / ``interrupted``."""
        n = len(text)
        if not scanner.started:
            while start < n and text[start] in " \t\r\n":
                start += 1
            if start == n:
                return n
        end = scanner.feed(text, start, n)
        if end > start:
            self._emit_arguments(deltas, text[start:end] if start or end < n else text)
        return end

    @property
    def _call_named(self) -> bool:
        """Whether the current call's name has been seen (accepted or rejected)."""
        return self._output_index != _PENDING
