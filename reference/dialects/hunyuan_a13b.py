"""Hunyuan-A13B: ``<think>`` reasoning, an ``<answer>`` wrapper, calls in ``<tool_calls>[…]``.

The model writes the open tag itself (vLLM's ``hunyuan_a13b`` reasoning parser starts idle
and enters reasoning at ``<think>\\n``), so the output starts as content; its fast-thinking
mode writes an empty ``<think>\\n\\n</think>``. The answer is wrapped in ``<answer>`` …
``</answer>``: protocol, dropped with its layout (one newline inside each side, and the
newlines between ``</think>`` or a wrapper tag and another tag or the end), as vLLM's
parser drops the token sequences ``\\n</think>\\n<answer>\\n`` and ``\\n</answer>``. Reasoning
keeps its text verbatim, the newlines after ``<think>`` and before ``</think>`` included, as
in every dialect with ``<think>`` (vLLM drops them: ``hunyuan_a13b/impl/reasoning-layout``).

Tool calls are one ``<tool_calls>`` block with a JSON array of envelopes (the same grammar as
Jamba). vLLM reads a block inside ``<think>`` as no call; the reference reads it as a call
after which reasoning resumes, as for every ``<think>`` dialect.

Hunyuan's vocabulary is byte-level BPE (the ids vLLM hard-codes spell ``<th`` ``ink``
``>\\n`` and ``</`` ``think`` ``>\\n``): a chunk can end after ``<th`` or ``<think`` of the
open tag and after ``</`` or ``</think`` of the close tag; ``>`` always goes with the newline
that follows. The other tags are taken to split the same way (``<`` ``answer`` ``>``). No
PyPI wheel ships the tokenizer: the tag-aligned model, with these prefixes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..reasoning import AlwaysReasoningParser, ModelOpensReasoningParser
from ..registry import Dialect, register
from .jamba import ToolCallsArrayParser


class HunyuanA13BToolParser(ToolCallsArrayParser):
    open_prefixes = ("<tool_calls", "<tool", "<")
    close_prefixes = ("</tool_calls", "</tool", "</")


class HunyuanA13BReasoningParser(AlwaysReasoningParser, ModelOpensReasoningParser):
    """The model writes ``<think>``, and the channel stays without thinking: the model still
    writes an empty think block then."""

    open_prefixes = ("<think", "<th")
    close_prefixes = ("</think", "</")
    answer_tags: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "<answer>\n": ("<answer>", "<answer", "<"),
        "<answer>": ("<answer", "<"),
        "\n</answer>": ("\n</answer", "\n</", "\n"),
        "</answer>": ("</answer", "</"),
    }


register(
    Dialect(
        name="hunyuan_a13b",
        description="Hunyuan-A13B: <think> reasoning, <answer> wrapper, "
        "a JSON array in <tool_calls>",
        tool_parser=HunyuanA13BToolParser,
        reasoning_parser=HunyuanA13BReasoningParser,
    )
)
