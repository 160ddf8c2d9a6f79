"""Nanbeige (SGLang's ``nanbeige``): Qwen3-Coder's XML calls and Qwen3's ``<think>``.

SGLang 0.5.23 binds ``nanbeige`` to its ``qwen3_coder`` tool detector and to its Qwen3
reasoning detector, the pair it serves Qwen3.5 with; vLLM 0.33 has no Nanbeige parser. So
the dialect reads as ``qwen35`` does: Qwen3-Coder's grammar and value layout, reasoning
that the template opens (a repeated ``<think>`` is protocol) unless thinking is off, and a
tool block inside reasoning resumes reasoning.

No PyPI wheel ships the Nanbeige tokenizer: the dialect is cut with the tag-aligned model,
with Qwen3-Coder's tag prefixes.
"""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from .qwen3_coder import Qwen3CoderToolParser

register(
    Dialect(
        name="nanbeige",
        description="Nanbeige: Qwen3-Coder XML tool calls, <think> reasoning that starts open",
        tool_parser=Qwen3CoderToolParser,
        reasoning_parser=ReasoningParser,
    )
)
