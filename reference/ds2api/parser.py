"""The ds2api dialect's place in the reference parser: a response parser around the sieve.

ds2api's text-release semantics do not fit the plain / reasoning / tool machine: a block is
held until it proves to be a valid call and is otherwise released whole as text, fenced and
inline code are inert, and prose after a call is text again (seed 003 §3). So the dialect
brings its own ``ResponseParser``, which feeds each chunk to the ``Sieve`` and turns its
events into OpenAI deltas. A call is emitted whole (first fragment: id, type, name; second:
the complete arguments) when its block resolves: before that it may still turn out to be
text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..reasoning import ReasoningParser
from ..response_parser import ResponseParser
from ..tags import longest_first
from ..tool_parser import ToolParser
from ..types import DeltaMessage, DeltaToolCall, Request
from .sieve import Sieve

#: The canonical spellings of the six tool tags, DSML shell and legacy XML. Opening
#: ``invoke`` / ``parameter`` tags carry attributes, so only the part up to the name is fixed.
CANONICAL_TAGS = tuple(
    f"<{slash}{prefix}{name}{'>' if slash or name == 'tool_calls' else ''}"
    for prefix in ("|DSML|", "")
    for name in ("tool_calls", "invoke", "parameter")
    for slash in ("", "/")
)


class Ds2apiToolParser(ToolParser):
    """Declares the dialect's policy and tags; the parsing itself is the sieve's.

    ds2api returns calls to tools the request did not offer (the allow-list is not a
    security boundary, seed 003 §2), so the reference does not filter names either.
    """

    open_tag = "<|DSML|tool_calls>"
    close_tag = "</|DSML|tool_calls>"
    filters_unknown_names = False

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        """The canonical tags, each with every proper prefix.

        The format is drift-tolerant (any protocol prefix, fullwidth and CJK punctuation,
        confusable letters, noise), so its tags cannot be listed; these are the spellings the
        seed recommends plus the legacy XML ones. The sieve decides nothing before a shell
        is complete, so a chunk may end anywhere: every proper prefix is declared.
        """
        return {tag: longest_first(tag[:i] for i in range(1, len(tag))) for tag in CANONICAL_TAGS}

    def _consume_stream_payload(self, text: str, deltas: list[DeltaToolCall], final: bool) -> int:
        raise NotImplementedError("the ds2api sieve consumes the whole response")


class Ds2apiResponseParser(ResponseParser):
    """One response in the ds2api dialect: plain text and whole tool calls.

    There is no reasoning channel: ds2api receives DeepSeek's thinking separately from the
    text it sieves, so the dialect registers no reasoning parser.
    """

    #: The sieve holds text it could not yet decide until a later decision point, not until
    #: the text so far decides it: fed one token at a time, ``If a < b and c >`` has
    #: released ``If a `` where the same text in one chunk is released whole (its result is
    #: the same for every chunking; only the pace differs).
    releases_as_it_reads = False

    def __init__(
        self,
        request: Request | None = None,
        *,
        tool_parser: type[ToolParser] | None = None,
        reasoning_parser: type[ReasoningParser] | None = None,
        reasoning_tag_ids: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(
            request,
            tool_parser=tool_parser,
            reasoning_parser=reasoning_parser,
            reasoning_tag_ids=reasoning_tag_ids,
        )
        # tool_choice "none" leaves no tool parser: the whole response is then text
        self._sieve = Sieve() if self.tool_parser is not None else None
        self._calls = 0

    @property
    def tool_emitted(self) -> bool:
        return self._calls > 0

    @property
    def held_back(self) -> str:
        return self._sieve.held_back if self._sieve is not None else ""

    def stream_chunk(
        self, text: str, token_ids: Sequence[int] = (), *, final: bool = False
    ) -> list[tuple[DeltaMessage, bool]]:
        if self._sieve is None:
            return [(DeltaMessage(content=text), False)] if text else []
        out: list[tuple[DeltaMessage, bool]] = []
        pending: list[str] = []
        for event in self._sieve.feed(text, final=final):
            if isinstance(event, str):
                pending.append(event)
                continue
            if pending:
                out.append((DeltaMessage(content="".join(pending)), False))
                pending = []
            name, arguments = event
            index = self._calls
            self._calls += 1
            fragments = [
                DeltaToolCall(index, f"call_{index}", "function", name),
                DeltaToolCall(index, arguments=json.dumps(arguments, ensure_ascii=False)),
            ]
            out.append((DeltaMessage(tool_calls=fragments), True))
        if pending and (content := "".join(pending)):
            out.append((DeltaMessage(content=content), False))
        return out
