"""DeepSeek V3 and V3.1 tool calls: a section of calls between special tokens.

Both wrap the calls in ``<｜tool▁calls▁begin｜>`` … ``<｜tool▁calls▁end｜>`` and close each
call with ``<｜tool▁call▁end｜>``; they differ in the call layout (``｜`` is U+FF5C, ``▁``
U+2581)::

    V3    <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\\n```json\\n{…}\\n```<｜tool▁call▁end｜>
    V3.1  <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>

Every marker is one token of the DeepSeek vocabularies, so none can be cut. V3's code fence
is text: ```` ```json\\n ```` can end a chunk after ```` ` ````, ```` ``` ```` or
```` ```json ````, and ```` \\n``` ```` after its newline.

Reasoning: DeepSeek-V3 (and V3-0324) does not think; the dialect has no reasoning channel.
V3.1 thinks when the request asks for it (its template then opens ``<think>``).
"""

from __future__ import annotations

import re

from ..reasoning import ThinkingFlagReasoningParser
from ..registry import Dialect, register
from ..section_tool_parser import SectionToolParser
from ..types import DeltaToolCall, Request

# V3's function name ends at its line break (or, malformed, where the fence or JSON begins).
_NAME_END = re.compile(r"[\s`{<]")
_FENCE = "```"
_FENCE_OPEN = "```json\n"
_FENCE_CLOSE = "\n```"
_WHITESPACE = " \t\r\n"


class DeepSeekToolParser(SectionToolParser):
    """The markers DeepSeek V3 and V3.1 share; V3.1's layout is the driver's default."""

    open_tag = "<｜tool▁calls▁begin｜>"
    close_tag = "<｜tool▁calls▁end｜>"
    call_open = "<｜tool▁call▁begin｜>"
    call_separator = "<｜tool▁sep｜>"
    call_close = "<｜tool▁call▁end｜>"
    payload_starts = ("<｜tool▁call▁begin｜>",)


class DeepSeekV3ToolParser(DeepSeekToolParser):
    """V3: the header is the type word; the name and a fenced JSON value follow the separator."""

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        tags[_FENCE_OPEN] = ("```json", "```", "`")
        tags[_FENCE_CLOSE] = ("\n",)
        return tags

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._name_read = False
        self._name_searched = 0

    def _read_header(self, header: str) -> tuple[str | None, str | None]:
        self._name_read = False
        self._name_searched = 0
        return None, None

    def _arguments_start(
        self, text: str, start: int, deltas: list[DeltaToolCall]
    ) -> tuple[int, bool]:
        n = len(text)
        i = start
        if not self._name_read:
            match = _NAME_END.search(text, i + self._name_searched)
            if match is None:
                self._name_searched = n - i
                return i, False  # the name is only useful whole
            name = text[i : match.start()]
            if name:
                self._emit_delta(deltas, name=name)
            self._name_read = True
            i = match.start()
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if text.startswith(_FENCE, i):
            language_end = i + len(_FENCE)
            while language_end < n and text[language_end].isalpha():
                language_end += 1
            if language_end == n:
                return i, False  # "```json" may still grow
            return language_end, True
        if i == n or _FENCE.startswith(text[i:]):
            return i, False  # a fence may follow
        return i, True


register(
    Dialect(
        name="deepseek_v3",
        description="DeepSeek-V3: section tokens, function<｜tool▁sep｜>NAME and fenced JSON",
        tool_parser=DeepSeekV3ToolParser,
        tokenizer_families=("deepseek-v3",),
    )
)
register(
    Dialect(
        name="deepseek_v31",
        description="DeepSeek-V3.1: section tokens, NAME<｜tool▁sep｜>JSON; <think> on request",
        tool_parser=DeepSeekToolParser,
        reasoning_parser=ThinkingFlagReasoningParser,
        tokenizer_families=("deepseek-v3.1",),
    )
)
