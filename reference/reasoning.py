"""Reasoning declarations: which tags delimit reasoning and whether a response starts in it.

A ``ReasoningParser`` holds no buffer and recognises nothing itself; it is a protocol
description that the response parser reads (seed 000, "ReasoningParser 虽然名为 Parser，却有意
只充当协议描述器"). The response parser owns the buffer, the tag search and the routing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from .types import Request


class ReasoningParser:
    """``<think>`` … ``</think>``, and the template may already have opened the block.

    This is the convention of Qwen3, QwQ and DeepSeek-R1: the chat template ends the prompt
    inside ``<think>``, so the output starts in reasoning whether or not the model repeats
    the open tag, also after layout whitespace (``"\n<think>R"`` is reasoning ``R``, as
    vLLM's R1 parser reads it). A request that turns thinking off (``thinking: false``)
    disables the reasoning channel: the template then closes the block in the prompt.
    """

    open_tag: ClassVar[str] = "<think>"
    close_tag: ClassVar[str] = "</think>"
    #: Proper prefixes of the tags that can end a decoded chunk, longest first.
    open_prefixes: ClassVar[tuple[str, ...]] = ()
    close_prefixes: ClassVar[tuple[str, ...]] = ()
    #: Whether a tool open tag inside reasoning also ends reasoning (no ``</think>`` needed).
    tool_open_ends_reasoning: ClassVar[bool] = False
    #: Tags that wrap the answer after reasoning (ERNIE-4.5's ``<response>`` … ``</response>``,
    #: Hunyuan-A13B's ``<answer>`` … ``</answer>``), each with the proper prefixes that can end
    #: a chunk. They are protocol: dropped wherever they stand in the answer. Newlines between
    #: the reasoning close tag or such a tag and another protocol tag (or the end) are layout
    #: and dropped too; a tag written with its layout newline (``<response>\n``,
    #: ``\n</response>``) is declared as a tag of its own, the bare tag being its prefix.
    answer_tags: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: Characters the template writes right after the close tag, dropped where the answer
    #: begins with them (Granite 4.2's ``</think>\n``: "" keeps the answer as written).
    close_layout: ClassVar[str] = ""
    #: Whether an output that starts as content may open with a bare close tag: MiniMax-M3's
    #: template writes one before every answer without reasoning, so a model that does not
    #: think may too. Protocol there, dropped; anywhere else it is text.
    close_may_lead: ClassVar[bool] = False

    def __init__(self, request: Request) -> None:
        self.request = request

    def enabled(self) -> bool:
        """Whether this request has a reasoning channel at all."""
        return self.request.thinking is not False

    def starts_in_reasoning(self) -> bool:
        """Whether the first output character is already reasoning."""
        return True


class ThinkingFlagReasoningParser(ReasoningParser):
    """Reasoning only when the request asks for it (DeepSeek V3.1 / V3.2 / V4 templates).

    Without ``thinking: true`` the response starts as plain content; a ``<think>`` that the
    model emits anyway still opens reasoning.
    """

    def starts_in_reasoning(self) -> bool:
        return self.request.thinking is True


class ModelOpensReasoningParser(ReasoningParser):
    """The template leaves ``<think>`` to the model (Seed-OSS, dots.llm): the output
    starts as content, and reasoning only where the model opens it."""

    def starts_in_reasoning(self) -> bool:
        return False


class AlwaysReasoningParser(ReasoningParser):
    """The template always opens ``<think>`` and has no switch (MiniMax-M2, Step-3.5):
    the output starts in reasoning whatever the request's thinking flag says."""

    def enabled(self) -> bool:
        return True


class ReasoningTokenCounter:
    """Counts reasoning tokens by the raw tag span, from the token ids of the stream.

    Every id strictly between the open and the close tag counts, including the ids of a
    tool block nested in reasoning, although its text never reaches ``reasoning_content``
    (seed 000: reasoning tokens follow the raw tag interval, not the output channel).
    """

    __slots__ = ("_close_id", "_inside", "_open_id", "count")

    def __init__(self, open_id: int, close_id: int, *, inside: bool) -> None:
        self._open_id = open_id
        self._close_id = close_id
        self._inside = inside
        self.count = 0

    def feed(self, token_ids: Iterable[int]) -> None:
        for token_id in token_ids:
            if token_id == self._open_id:
                self._inside = True
            elif token_id == self._close_id:
                self._inside = False
            elif self._inside:
                self.count += 1
