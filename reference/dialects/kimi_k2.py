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

Reasoning: the variants differ, and the request's thinking flag selects one. Kimi K2
(Instruct, the model the dialect is named after) does not think: its output starts as
content, as vLLM and SGLang serve it (their Kimi K2 recipes configure no reasoning parser,
and SGLang's ``kimi_k2`` reasoning detector does not force reasoning), and a ``<think>`` the
model writes anyway still opens reasoning. K2 Thinking, K2.5 and K2.6 templates open
``<think>`` in the prompt: with ``thinking: true`` the output starts inside reasoning, as
vLLM's ``kimi_k2`` reasoning parser (thinking by default) reads it. ``thinking: false``
turns the channel off. A tool section inside reasoning ends it without ``</think>``, as
vLLM and SGLang parse Kimi output.
"""

from __future__ import annotations

from ..reasoning import ThinkingFlagReasoningParser
from ..registry import Dialect, register
from ..section_tool_parser import SectionToolParser

_FUNCTIONS = "functions."


class KimiK2ToolParser(SectionToolParser):
    open_tag = "<|tool_calls_section_begin|>"
    close_tag = "<|tool_calls_section_end|>"
    call_open = "<|tool_call_begin|>"
    call_separator = "<|tool_call_argument_begin|>"
    call_close = "<|tool_call_end|>"
    payload_starts = ("<|tool_call_begin|>",)

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


class KimiK2ReasoningParser(ThinkingFlagReasoningParser):
    """Content first (K2 Instruct) unless ``thinking: true`` (K2 Thinking, K2.5, K2.6); a
    tool section ends reasoning."""

    tool_open_ends_reasoning = True


register(
    Dialect(
        name="kimi_k2",
        description="Kimi K2/K2.5: tool-call section tokens, functions.NAME:IDX ids, "
        "<think> on request",
        tool_parser=KimiK2ToolParser,
        reasoning_parser=KimiK2ReasoningParser,
        tokenizer_families=("kimi-k2",),
    )
)
