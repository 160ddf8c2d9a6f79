"""The response state machine: plain, reasoning and tool, over one pending suffix.

Engine chunks are not aligned with protocol boundaries: one chunk may close reasoning, carry
content, open a tool block and start its payload. The response parser routes each stable
piece to its channel as soon as it is stable and keeps only the unstable suffix, which is
either a declared tag prefix (plain and reasoning modes) or what the tool parser has not
consumed (tool mode). It is the single owner of buffered text (seed 000, "Response Parser").

    plain     -- reasoning open --> reasoning -- reasoning close --> plain
    plain     -- tool open --> tool -- block end --> plain
    reasoning -- tool open --> tool -- block end --> reasoning

Deltas keep the order of the model's channels (reasoning → tool_calls → reasoning); the
complete parse is the same machine fed everything at once with ``final=True``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from .reasoning import ReasoningParser, ReasoningTokenCounter
from .tags import find_first, longest_first, stable_prefix_end
from .tool_parser import ToolParser
from .types import DeltaMessage, DeltaToolCall, FinalResult, Request

PLAIN = "plain"
REASONING = "reasoning"
TOOL = "tool"

#: Newlines: what may separate two consecutive tool blocks (seed 000, "工具块之间的分隔符";
#: a tool parser may add to it) and the layout next to answer wrapper tags.
_SEPARATORS = "\r\n"
#: Whitespace that may stand before a repeated reasoning open tag.
_LAYOUT = " \t\r\n"
#: Why newlines at a plain position may be layout (``_resolve_answer_layout``).
_AFTER_REASONING = "after-reasoning"
_AFTER_ANSWER_TAG = "after-answer-tag"


class ResponseParser:
    """Streaming parser of one response; ``stream_chunk`` per engine chunk.

    ``reasoning_tag_ids`` (the token ids of the reasoning open and close tags) enables
    reasoning-token accounting from the ids passed to ``stream_chunk``.
    """

    #: What the parser writes between the bodies of two reasoning messages, though the model
    #: did not write it (Muse Glimmer's newline, as both engines' Glimmer readings join
    #: them). Declared here, on every dialect, so that the oracles that forbid invented text
    #: allow exactly this and nothing else.
    reasoning_separator: ClassVar[str] = ""
    #: Whether, cut at token boundaries, what the parser has released at a boundary is at
    #: least what it releases there fed any coarser chunking of the same text: it releases
    #: text as soon as the text so far makes it stable. The harness then reads the oracle's
    #: pace off the finest chunking (tests/harness/test_oracle.py holds every dialect that
    #: declares it to it on the corpus, and the rendered ones on generated outputs).
    releases_as_it_reads: ClassVar[bool] = True

    def __init__(
        self,
        request: Request | None = None,
        *,
        tool_parser: type[ToolParser] | None = None,
        reasoning_parser: type[ReasoningParser] | None = None,
        reasoning_tag_ids: tuple[int, int] | None = None,
    ) -> None:
        request = request if request is not None else Request()
        self.request = request
        reasoning = reasoning_parser(request) if reasoning_parser is not None else None
        if reasoning is not None and not reasoning.enabled():
            reasoning = None
        tool = None
        if tool_parser is not None and request.tool_choice != "none":
            tool = tool_parser(request)
        self.reasoning_parser = reasoning
        self.tool_parser = tool

        self._mode = (
            REASONING if reasoning is not None and reasoning.starts_in_reasoning() else PLAIN
        )
        self._open_may_repeat = self._mode == REASONING
        self._close_may_lead = (
            self._mode == PLAIN and reasoning is not None and reasoning.close_may_lead
        )
        #: Layout whitespace already seen at the start of template-opened reasoning.
        self._open_layout = 0
        self._pending = ""
        self._return_mode = PLAIN
        #: The channel an open tag was found in, where it goes back if it was prose.
        self._tool_found_in = PLAIN
        #: Newlines dropped before an open tag right after a block: text again if the
        #: tag turns out to be prose.
        self._separators_before_tool = ""
        self._after_block = False
        #: Newlines after a tool block, held out of the pending text until the next text
        #: shows whether another block opens (then they are dropped) or not (then they are
        #: the suspended channel's text). Kept here so that a long run is not copied into
        #: the pending text again with every chunk.
        self._held_separators: list[str] = []

        tool_open = (tool.open_tag,) if tool is not None else ()
        tool_prefixes = tool.open_prefixes if tool is not None else ()
        #: Answer wrapper tags (``ReasoningParser.answer_tags``): dropped in plain mode.
        self._answer_tags: tuple[str, ...] = ()
        self._answer_prefixes: frozenset[str] = frozenset()
        #: Whether newlines at the current plain position may be layout next to a protocol
        #: tag (after reasoning closed or an answer tag), and how many of them were seen.
        self._answer_layout: str | None = None
        self._layout_seen = 0
        #: What that layout is made of: newlines, or the reasoning's ``close_layout``.
        self._layout_chars = _SEPARATORS
        if reasoning is not None:
            self._answer_tags = tuple(reasoning.answer_tags)
            self._layout_chars = reasoning.close_layout or _SEPARATORS
            self._answer_prefixes = frozenset(
                p for prefixes in reasoning.answer_tags.values() for p in prefixes
            )
            self._plain_tags = (reasoning.open_tag, *tool_open, *self._answer_tags)
            self._plain_prefixes = longest_first(
                reasoning.open_prefixes, tool_prefixes, self._answer_prefixes
            )
            self._reasoning_tags = (reasoning.close_tag, *tool_open)
            self._reasoning_prefixes = longest_first(reasoning.close_prefixes, tool_prefixes)
        else:
            self._plain_tags = tool_open
            self._plain_prefixes = longest_first(tool_prefixes)
            self._reasoning_tags = ()
            self._reasoning_prefixes = ()

        self._token_counter = None
        if reasoning is not None and reasoning_tag_ids is not None:
            self._token_counter = ReasoningTokenCounter(
                *reasoning_tag_ids, inside=self._mode == REASONING
            )

    # ----------------------------------------------------------------- public API

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        """Tags this response parser recognises itself, with their chunk-ending prefixes.

        The plain / reasoning / tool machine has none of its own (its tags come from the
        reasoning and tool parsers); a dedicated response parser (Harmony's channel
        markers) declares them here so that ``Dialect.protocol_tags`` lists them too.
        """
        return {}

    @property
    def tool_emitted(self) -> bool:
        """Whether any tool call has been emitted so far (decides ``finish_reason``)."""
        return self.tool_parser is not None and self.tool_parser.tool_emitted

    @property
    def reasoning_tokens(self) -> int | None:
        """Tokens inside the raw reasoning span, when tag ids were given."""
        return self._token_counter.count if self._token_counter is not None else None

    @property
    def held_back(self) -> str:
        """The text received but not yet routed (what a liveness check measures)."""
        return "".join(self._held_separators) + self._pending

    def stream_chunk(
        self, text: str, token_ids: Sequence[int] = (), *, final: bool = False
    ) -> list[tuple[DeltaMessage, bool]]:
        """Route one engine chunk; return ``(delta, carries_tool_calls)`` pairs, maybe none.

        ``final`` means no more text will come: held text is released and an open tool
        block is closed as far as the dialect can without inventing anything.
        """
        if self._token_counter is not None and token_ids:
            self._token_counter.feed(token_ids)
        out: list[tuple[DeltaMessage, bool]] = []
        pending = self._pending + text if self._pending else text
        pos = 0
        while True:
            mode = self._mode
            if mode is TOOL:
                tool: ToolParser = self.tool_parser  # type: ignore[assignment]  # set in TOOL
                deltas: list[DeltaToolCall] = []
                pos += tool.feed_tool_block(pending[pos:] if pos else pending, deltas, final)
                if deltas:
                    out.append((DeltaMessage(None, None, deltas), True))
                if not tool.block_closed:
                    break
                if tool.block_rejected:
                    # The open tag was prose: it is text of the channel it was found in, and
                    # the text after it (what the verdict held, then the unconsumed rest)
                    # is read again there.
                    held = tool.rejected_text()
                    if held:
                        pending = held + pending[pos:]
                        pos = 0
                    # Repeats of the open tag before the prose are prose too, released now.
                    stutter = pending[pos : pos + tool.stutter]
                    pos += len(stutter)
                    self._mode = self._tool_found_in
                    released = self._separators_before_tool + tool.open_tag + stutter
                    self._separators_before_tool = ""
                    if self._mode is PLAIN:
                        out.append((DeltaMessage(content=released), False))
                    else:
                        out.append((DeltaMessage(reasoning_content=released), False))
                    continue
                self._separators_before_tool = ""
                self._mode = self._return_mode
                self._after_block = True
                continue
            if self._after_block:
                separator_end = self._resolve_separator(pending, pos, final, out)
                if separator_end < 0:
                    pos = -separator_end - 1
                    break
                pos = separator_end
            if mode is PLAIN:
                if self._answer_layout:
                    layout_end = self._resolve_answer_layout(pending, pos, final)
                    if layout_end < 0:
                        break
                    pos = layout_end
                pos, switched = self._consume_plain(pending, pos, final, out)
            else:
                pos, switched = self._consume_reasoning(pending, pos, final, out)
            if not switched:
                break
        self._pending = pending[pos:] if pos < len(pending) else ""
        return out

    def parse_complete(self, text: str, token_ids: Sequence[int] = ()) -> FinalResult:
        """The non-streaming result: the same machine, fed everything with ``final=True``."""
        messages = [message for message, _ in self.stream_chunk(text, token_ids, final=True)]
        return FinalResult.from_deltas(messages)

    def parse_stream(self, chunks: Iterable[str]) -> FinalResult:
        """The streamed result: ``chunks`` fed in order (the last with ``final=True``; none
        at all is an empty output), the deltas coalesced as a client coalesces them. A
        chunking-invariant parser gives ``parse_complete``'s result for every chunking."""
        messages: list[DeltaMessage] = []
        previous: str | None = None
        for chunk in chunks:
            if previous is not None:
                messages.extend(message for message, _ in self.stream_chunk(previous))
            previous = chunk
        last = self.stream_chunk(previous or "", final=True)
        messages.extend(message for message, _ in last)
        return FinalResult.from_deltas(messages)

    # ----------------------------------------------------------------- modes

    def _consume_plain(
        self, pending: str, pos: int, final: bool, out: list[tuple[DeltaMessage, bool]]
    ) -> tuple[int, bool]:
        if self._close_may_lead:
            reasoning = self.reasoning_parser
            assert reasoning is not None
            close = reasoning.close_tag
            head = pending[pos : pos + len(close)]
            if head == close:
                pos += len(close)
            elif not final and close.startswith(head):
                return pos, False  # the output's first text has not arrived
            self._close_may_lead = False
        position, tag = find_first(pending, self._plain_tags, pos)
        if tag is None:
            end = len(pending) if final else stable_prefix_end(pending, self._plain_prefixes, pos)
            if end > pos:
                out.append((DeltaMessage(content=pending[pos:end]), False))
            return end, False
        end = position + len(tag)
        if not final and end == len(pending) and tag in self._plain_prefixes:
            # The tag may still grow into a longer one it begins (``<response>`` of
            # ``<response>\n``): wait for the next chunk.
            if position > pos:
                out.append((DeltaMessage(content=pending[pos:position]), False))
            return position, False
        if position > pos:
            out.append((DeltaMessage(content=pending[pos:position]), False))
        pos = end
        if self.tool_parser is not None and tag == self.tool_parser.open_tag:
            self._enter_tool(PLAIN, PLAIN)
        elif tag in self._answer_tags:
            self._answer_layout = _AFTER_ANSWER_TAG  # protocol: dropped with its layout
        else:
            self._mode = REASONING
            self._open_may_repeat = False
        return pos, True

    def _consume_reasoning(
        self, pending: str, pos: int, final: bool, out: list[tuple[DeltaMessage, bool]]
    ) -> tuple[int, bool]:
        reasoning = self.reasoning_parser
        assert reasoning is not None
        if self._open_may_repeat:
            # The template opened reasoning; the model may still repeat the open tag, after
            # layout whitespace ("\n<think>R" is reasoning "R": the tag is protocol, and the
            # newline before it is layout). The whitespace is scanned once: how much of it
            # is known waits in _open_layout while the text after it has not arrived.
            n = len(pending)
            after = pos + self._open_layout
            while after < n and pending[after] in _LAYOUT:
                after += 1
            if pending.startswith(reasoning.open_tag, after):
                pos = after + len(reasoning.open_tag)
                self._open_may_repeat = False
            elif not final and (after == n or pending[after:] in reasoning.open_prefixes):
                self._open_layout = after - pos
                return pos, False
            else:
                self._open_may_repeat = False
        position, tag = find_first(pending, self._reasoning_tags, pos)
        if tag is None:
            end = (
                len(pending) if final else stable_prefix_end(pending, self._reasoning_prefixes, pos)
            )
            if end > pos:
                out.append((DeltaMessage(reasoning_content=pending[pos:end]), False))
            return end, False
        if position > pos:
            out.append((DeltaMessage(reasoning_content=pending[pos:position]), False))
        pos = position + len(tag)
        if tag == reasoning.close_tag:
            self._mode = PLAIN
            layout = self._answer_tags or reasoning.close_layout
            self._answer_layout = _AFTER_REASONING if layout else None
        else:
            self._enter_tool(PLAIN if reasoning.tool_open_ends_reasoning else REASONING, REASONING)
        return pos, True

    def _resolve_answer_layout(self, pending: str, pos: int, final: bool) -> int:
        """Decide the newlines after the reasoning close tag or an answer tag.

        After the reasoning close tag they are the template's separation of reasoning and
        answer (ERNIE-4.5 writes ``</think>\n\n<response>`` or ``</think>\nanswer``, Hunyuan
        ``</think>\n<answer>``; Granite 4.2 ``</think>\n``, its ``close_layout``): dropped.
        After an answer tag they are layout when a protocol tag or the end of the output
        follows, the answer's own text otherwise.

        Returns where plain text resumes, or ``-1`` while undecided (the newlines and a tag
        prefix after them stay pending; ``_layout_seen`` remembers how many newlines were
        scanned, so a long run is scanned once).
        """
        n = len(pending)
        after = pos + self._layout_seen
        while after < n and pending[after] in self._layout_chars:
            after += 1
        if after == n and not final:
            self._layout_seen = after - pos
            return -1
        if after == pos:
            self._answer_layout = None
            return pos
        if not final and pending[after:] in self._plain_prefixes:
            self._layout_seen = after - pos
            return -1  # a tag may be starting: wait for it
        always = self._answer_layout is _AFTER_REASONING
        self._answer_layout = None
        self._layout_seen = 0
        if always or after == n:
            return after
        for tag in self._plain_tags[1:]:  # a tool or answer tag (not the reasoning open tag)
            if pending.startswith(tag, after):
                return after
        return pos

    def _longer_tag_at(self, pending: str, start: int, open_tag: str, final: bool) -> bool | None:
        """Whether a tag of the current channel that begins with the tool open tag and is
        longer (Inkling's ``<|message_model|><|content_text|>`` beside ``<|message_model|>``)
        stands at ``start``, where the open tag does: the channel reads that tag there, as
        ``find_first`` prefers the longer one. ``None`` while the text after it may still
        make one (fuzz finding json-ec8a7540ec: the newlines after a block were kept for a
        block that never opened, and came out after later text)."""
        left = len(pending) - start  # characters from ``start``, sliced only when fewer
        for tag in self._plain_tags if self._mode is PLAIN else self._reasoning_tags:
            if len(tag) > len(open_tag) and tag.startswith(open_tag):
                if pending.startswith(tag, start):
                    return True
                if not final and left < len(tag) and tag.startswith(pending[start:]):
                    return None
        return False

    def _hold_separators(self, pending: str, pos: int, first: int) -> int:
        """Undecided: the newlines before ``first`` wait in ``_held_separators``, the rest
        (those the open tag may begin with) stays pending; ``_resolve_separator``'s
        ``-(keep + 1)``."""
        if first > pos:
            self._held_separators.append(pending[pos:first])
        return -(first + 1)

    def _enter_tool(self, return_mode: str, found_in: str) -> None:
        tool = self.tool_parser
        assert tool is not None
        self._return_mode = return_mode
        self._tool_found_in = found_in
        self._mode = TOOL
        tool.begin_tool_block()

    def _resolve_separator(
        self, pending: str, pos: int, final: bool, out: list[tuple[DeltaMessage, bool]]
    ) -> int:
        """Decide the newlines after a tool block: dropped only if another block opens.

        Returns where the suspended channel resumes (past the newlines when the next block
        really opens), or ``-(keep + 1)`` while undecided: the newlines are held until the
        text after them shows whether another block follows, and ``pending[keep:]`` is what
        stays pending (only the newlines an open tag may begin with; the rest of the run
        waits in ``_held_separators``). Each newline is looked at once.
        """
        tool = self.tool_parser
        assert tool is not None
        open_tag = tool.open_tag
        separators = tool.block_separators
        end = pos
        n = len(pending)
        while end < n and pending[end] in separators:
            end += 1
        # The open tag may itself begin with newlines (DSML): only the last ones of the run
        # can be its beginning.
        first = max(pos, end - (len(open_tag) - len(open_tag.lstrip(separators))))
        if end == n and not final:
            return self._hold_separators(pending, pos, first)  # nothing but newlines yet
        for start in range(first, end + 1):
            if pending.startswith(open_tag, start):
                longer = self._longer_tag_at(pending, start, open_tag, final)
                if longer is None:  # a longer tag may be arriving: wait for it
                    return self._hold_separators(pending, pos, first)
                if longer:
                    break  # the channel reads a longer tag here, not another block
                self._after_block = False
                self._separators_before_tool = "".join(self._held_separators) + pending[pos:start]
                self._held_separators = []
                return start
        if not final and (
            any(pending[start:] in tool.open_prefixes for start in range(first, end + 1))
            or pending[end:] in self._answer_prefixes
        ):
            return self._hold_separators(pending, pos, first)
        self._after_block = False
        if any(pending.startswith(tag, end) for tag in self._answer_tags):
            # ``</tool_calls>\n</answer>``: newlines before an answer wrapper tag are layout.
            self._held_separators = []
            return end
        if self._held_separators:
            held = "".join(self._held_separators)
            self._held_separators = []
            if self._mode is PLAIN:
                out.append((DeltaMessage(content=held), False))
            else:
                out.append((DeltaMessage(reasoning_content=held), False))
        return pos
