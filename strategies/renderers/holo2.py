"""Holo2: the chat template opens ``<think>`` (thinking on by default), the model writes its
reasoning, ``</think>``, then the answer. The same text as DeepSeek-R1's, with Qwen3's
tokenizer."""

from __future__ import annotations

from . import register
from .deepseek_r1 import DeepSeekR1Renderer


class Holo2Renderer(DeepSeekR1Renderer):
    dialect = "holo2"


register(Holo2Renderer())
