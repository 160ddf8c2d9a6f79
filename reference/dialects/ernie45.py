"""ERNIE-4.5 (Thinking): ``<tool_call>`` JSON blocks, reasoning then a ``<response>`` wrapper.

ERNIE-4.5-21B-A3B-Thinking answers ``reasoning\\n</think>\\n\\n<response>\\nanswer\\n</response>``
(or ``reasoning\\n</think>\\nanswer``), and calls tools with hermes blocks after ``</think>``:
``</think>\\n\\n<tool_call>\\n{"name", "arguments"}\\n</tool_call>``. The template opens the
reasoning (the output starts inside it, as vLLM's ``ernie45`` reasoning parser reads it:
everything before ``</think>`` is reasoning). ``<response>`` and ``</response>`` are
protocol, dropped with their layout: the newlines after ``</think>``, one newline after
``<response>`` and before ``</response>``, and newlines between a wrapper tag and another tag
or the end. vLLM does so in streaming (it strips a newline token after ``</think>``,
``<response>`` and ``</response>``) and keeps the newlines inside the wrapper in its
complete parse; the corpus follows the template's layout.

Text after a tool block is content, as in every dialect (seed 000); vLLM's ``ernie45`` tool
parser drops it once a call was emitted (``ernie45/impl/text-after-block``).

``<think>``, ``</think>``, ``<tool_call>``, ``</tool_call>``, ``<response>`` and ``</response>``
are added tokens of ERNIE's vocabulary (vLLM looks each up by id), so only the layout
variants can be cut: after ``<response>`` (before its newline) and after the newline of
``\\n</response>``. No PyPI wheel ships the tokenizer: the tag-aligned model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..reasoning import AlwaysReasoningParser
from ..registry import Dialect, register
from .hermes import HermesToolParser


class Ernie45ReasoningParser(AlwaysReasoningParser):
    """Always reasoning first: the Thinking model's template has no switch to turn it off."""

    answer_tags: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "<response>\n": ("<response>",),
        "<response>": (),
        "\n</response>": ("\n",),
        "</response>": (),
    }


register(
    Dialect(
        name="ernie45",
        description="ERNIE-4.5 Thinking: reasoning, </think>, <response> wrapper, "
        "hermes JSON tool blocks",
        tool_parser=HermesToolParser,
        reasoning_parser=Ernie45ReasoningParser,
    )
)
