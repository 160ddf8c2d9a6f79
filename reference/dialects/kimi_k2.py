"""Kimi K2 / K2.5 tool calls: a section of calls whose header is the call id.

    <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>
    {…}<|tool_call_end|>…<|tool_calls_section_end|>

The header ``functions.NAME:IDX`` is kept as the call id (the id Kimi's own templates expect
back) and the name is the header without its ``functions.`` prefix and ``:IDX`` counter.
Every marker, ``<think>`` and ``</think>`` are single added tokens; ``functions.`` is text
and can end a chunk after ``function`` or ``functions``, and after ``f`` when a letter
precedes it (``af`` · ``unction``), as derived from the o200k surrogate of Kimi's vocabulary
(approximate: Kimi's own ranks are not obtainable). The header is held whole, so these only
matter to the chunkers.

Reasoning: K2 Thinking, K2.5 and K2.6 start thinking unless the request turns it off
(``thinking: false``), and a tool section inside reasoning ends it without ``</think>``, as
vLLM and SGLang parse Kimi output.
"""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from ..section_tool_parser import SectionToolParser

_FUNCTIONS = "functions."


class KimiK2ToolParser(SectionToolParser):
    open_tag = "<|tool_calls_section_begin|>"
    close_tag = "<|tool_calls_section_end|>"
    call_open = "<|tool_call_begin|>"
    call_separator = "<|tool_call_argument_begin|>"
    call_close = "<|tool_call_end|>"

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        tags[_FUNCTIONS] = ("functions", "function", "f")
        return tags

    def _read_header(self, header: str) -> tuple[str | None, str | None]:
        name = header
        prefix, colon, counter = header.rpartition(":")
        if colon and counter.isdigit():
            name = prefix
        name = name.removeprefix(_FUNCTIONS)
        return name, header or None


class KimiK2ReasoningParser(ReasoningParser):
    """``<think>`` from the first token unless thinking is off; a tool section ends it."""

    tool_open_ends_reasoning = True


register(
    Dialect(
        name="kimi_k2",
        description="Kimi K2/K2.5: tool-call section tokens, functions.NAME:IDX ids, <think>",
        tool_parser=KimiK2ToolParser,
        reasoning_parser=KimiK2ReasoningParser,
        tokenizer_families=("kimi-k2",),
    )
)
