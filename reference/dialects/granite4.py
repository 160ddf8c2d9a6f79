"""IBM Granite 4.0 tool blocks: ``<tool_call>\\n{"name", "arguments"}\\n</tool_call>``.

Granite 4's chat template writes hermes blocks, one per call, and vLLM's ``granite4`` parser
reads them so; ``<tool_call>`` and ``</tool_call>`` are added tokens of Granite 4's
vocabulary. No PyPI wheel ships that tokenizer: the dialect is cut with the tag-aligned
model. Granite 4.0 (the model vLLM's parser is named after) does not think: no reasoning
channel.
"""

from __future__ import annotations

from ..registry import Dialect, register
from .hermes import HermesToolParser

register(
    Dialect(
        name="granite4",
        description="IBM Granite 4.0: hermes JSON tool blocks, no reasoning",
        tool_parser=HermesToolParser,
    )
)
