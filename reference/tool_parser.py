"""The tool-parser contract: one outer tool block in, normalized call fragments out.

A ``ToolParser`` owns the outer block and the public call contract; a concrete dialect owns
only its inner payload grammar (seed 000, "已消费前缀接口"). The response parser hands it the
unconsumed text after the outer open tag and drops what it reports as consumed, so the
response parser is the single owner of buffered text and nothing is scanned twice.

Calls are emitted identity-first: the first fragment of an accepted call carries id, type
and name, and argument pieces seen before the name are held and released after it, in
order. Unknown names are filtered and the surviving calls get dense indices from 0.

An open tag is not always a block: prose mentions it ("the literal token ``<tool_call>``
marks a call"). Before it consumes anything, a tool parser decides whether the text after
the open tag can begin its payload (``_payload_verdict``): Qwen3-Coder's must begin with
``<function=``, hermes' with ``{``, and so on. As soon as the grammar rules the payload out,
the block is *rejected*: the response parser releases the tag and what follows as text of
the channel it was found in. Until then only the text the decision needs is held (layout,
a prefix of the expected tag, a function name), scanned once.
"""

from __future__ import annotations

from typing import ClassVar

from .json_scanner import JsonValueScanner
from .tags import stable_prefix_end
from .types import DeltaToolCall, Request

_LAYOUT = " \t\r\n"
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
    #: What may stand between two consecutive tool blocks and is dropped there (seed 000,
    #: "工具块之间的分隔符": newlines); a dialect whose model separates calls otherwise
    #: (granite-20b-functioncalling: spaces) adds to it.
    block_separators: ClassVar[str] = "\r\n"
    #: What a payload begins with, after layout whitespace (the close tag, an empty block,
    #: is always allowed); empty: any text is payload (no verdict is taken).
    payload_starts: ClassVar[tuple[str, ...]] = ()

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
        #: Whether the text after the open tag turned out not to be a payload: the tag was
        #: prose, and the response parser releases it (nothing of the text was consumed).
        self.block_rejected = False
        self._payload_decided = True
        #: How far the verdict has scanned the undecided text, and where it stands in it
        #: (``_word_then_tag_verdict``'s phases): a resumed verdict scans nothing twice,
        #: and what it scanned is taken off the caller's text (``_verdict_held``).
        self._verdict_scanned = 0
        self._verdict_phase = 0
        #: The text the verdict judged while undecided, taken from the caller in pieces.
        self._verdict_held: list[str] = []
        #: Their total length, kept as they are taken: ``stutter`` counts from their start.
        self._held_length = 0
        #: How much of the undecided text (what the verdict held, then the caller's text)
        #: is a stutter: layout and repeated open tags, up to the end of the last repeat.
        #: When the block is rejected, each repeat would be rejected in turn by the same
        #: text after it, so the caller releases the stutter with the open tag as text
        #: instead of reading it again one repeat at a time (quadratic in the repeats:
        #: fuzz finding json-6783f52aa1).
        self.stutter = 0
        #: Whether any call has been emitted in this response (for finish_reason).
        self.tool_emitted = False

    # ----------------------------------------------------------------- outer block

    def begin_tool_block(self) -> None:
        """Called by the response parser right after it consumed the outer open tag."""
        self._payload_closed = False
        self.block_closed = False
        self.block_rejected = False
        self._payload_decided = False
        self._verdict_scanned = 0
        self._verdict_phase = 0
        self._verdict_held = []
        self._held_length = 0
        self.stutter = 0

    def feed_tool_block(self, text: str, deltas: list[DeltaToolCall], final: bool = False) -> int:
        """Consume what is stable of ``text`` (which starts inside the block).

        Appends zero or more fragments to ``deltas`` and returns how many leading characters
        of ``text`` the caller may drop. Text after the outer close tag is never consumed.
        """
        if self.block_closed:
            return 0
        held = 0  # characters the verdict held: the payload begins with them
        if not self._payload_decided:
            verdict = self._payload_verdict(text, final)
            if verdict < 0:
                self.block_rejected = self.block_closed = True
                return 0
            if verdict == 0 and not final:
                # What the verdict has judged is held here, not offered again: a long run
                # of layout or a long name would otherwise be copied with every chunk.
                judged = self._verdict_scanned
                if judged:
                    self._verdict_held.append(text[:judged] if judged < len(text) else text)
                    self._held_length += judged
                    self._verdict_scanned = 0
                return judged
            # Confirmed, or the input ended first: a block truncated after its open tag.
            self._payload_decided = True
            if self._verdict_held:  # the payload begins with the judged text, joined once
                joined = self.rejected_text()
                held = len(joined)
                text = joined + text
        consumed = 0
        if not self._payload_closed:
            consumed = self._consume_stream_payload(text, deltas, final)
            if not (self._payload_closed or final):
                return consumed - held  # the common case: the middle of a payload
        return self._after_payload(text, consumed, final) - held

    def rejected_text(self) -> str:
        """The text after the open tag that the verdict held (and took off the caller's
        hands) before the decision; once rejected, the caller reads it again as text."""
        held = "".join(self._verdict_held)
        self._verdict_held = []
        self._held_length = 0
        return held

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

    def _payload_verdict(self, text: str, final: bool) -> int:
        """Whether ``text`` (after the open tag, nothing consumed) begins a payload: 1 yes,
        -1 no (the open tag was prose), 0 not known yet.

        This default reads ``payload_starts``: after layout whitespace and repeats of the
        open tag (a stutter: ``<tool_call><tool_call>{…}`` is one block), the text must begin
        with one of them or with the close tag. What is skipped is scanned once.
        """
        starts = self.payload_starts
        if not starts:
            return 1
        n = len(text)
        i = self._verdict_scanned = self._skip_stutter(text, self._verdict_scanned)
        repeat = self.open_tag.lstrip(_LAYOUT)
        if i == n:
            return 0
        if n - i < len(repeat) and repeat.startswith(text[i:]):
            return 0  # maybe another repeat
        close_tag = self.close_tag
        candidates = (*starts, close_tag) if close_tag else starts
        undecided = False
        for start in candidates:
            if text.startswith(start, i):
                return 1
            if n - i < len(start) and start.startswith(text[i:]):
                undecided = True
        return 0 if undecided else -1

    def _skip_stutter(self, text: str, i: int) -> int:
        """Past the layout and the repeats of the open tag from ``i`` (a stutter:
        ``<tool_call><tool_call>{…}`` is one block), recording in ``stutter`` how far the
        repeats go. Every verdict that reads repeats as layout skips them here."""
        repeat = self.open_tag.lstrip(_LAYOUT)
        n = len(text)
        while True:
            while i < n and text[i] in _LAYOUT:
                i += 1
            if not text.startswith(repeat, i):
                return i
            i += len(repeat)
            self.stutter = self._held_length + i

    def _word_then_tag_verdict(
        self, text: str, stops: str, follow: tuple[str, ...], word_end: str = ""
    ) -> int:
        """The verdict of a payload that begins with a name and then a tag (GLM's
        ``NAME<arg_key>``, Mistral's ``NAME[ARGS]``): layout, at most one word (no layout
        and none of ``stops`` in it), layout, then one of ``follow``. Prose shows itself at
        the second word ("<tool_call> marks a call"), or at a character that begins no tag.
        A ``word_end`` right after the word (GLM-4.5's name line ends with ``\n``) confirms
        the payload at once, so the name is not held for the next token.
        """
        n = len(text)
        i = self._verdict_scanned
        phase = self._verdict_phase  # 0: before the word, 1: in it, 2: after it
        if phase == 0:
            i = self._skip_stutter(text, i)  # repeated open tags before the name
        while i < n:
            c = text[i]
            if c in _LAYOUT:
                if phase == 1:
                    if c == word_end:
                        self._verdict_scanned = i
                        return 1
                    phase = 2
            elif c in stops or phase == 2:
                break  # a tag may start here, or a second word does
            elif phase == 0:
                phase = 1
            i += 1
        self._verdict_scanned = i
        self._verdict_phase = phase
        if i == n:
            return 0
        undecided = False
        for tag in follow:
            if text.startswith(tag, i):
                return 1
            if n - i < len(tag) and tag.startswith(text[i:]):
                undecided = True
        return 0 if undecided else -1

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
        """Route one piece of the current call to the client, identity first. An empty
        name names no tool: the call is dropped as an unknown one is (a client cannot route
        it, and identity first needs a name)."""
        if name is not None and self._output_index == _PENDING:
            if not name or (self._allowed is not None and name not in self._allowed):
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
