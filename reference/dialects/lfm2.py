"""LiquidAI LFM2 / LFM2.5: ``<|tool_call_start|>[f(a=1), g()]<|tool_call_end|>``.

A Python list of calls between two special tokens (LFM2's chat template writes the
assistant's calls that way). SGLang's ``lfm2`` detector also accepts a JSON array of
``{"name", "arguments"}`` objects there; vLLM's parser and LFM2's template do not, so the
reference reads a payload that is no call list as prose (``lfm2/impl/json-array-payload``).
The model has no reasoning channel in this dialect. LFM2's tokenizer ships in no wheel:
the dialect is cut with the tag-aligned model, the markers whole.
"""

from __future__ import annotations

from ..pythonic_tool_parser import PythonicToolParser
from ..registry import Dialect, register


class Lfm2ToolParser(PythonicToolParser):
    open_tag = "<|tool_call_start|>"
    close_tag = "<|tool_call_end|>"
    opens_list = True


register(
    Dialect(
        name="lfm2",
        description="LFM2: a Python list of calls inside <|tool_call_start|> … <|tool_call_end|>",
        tool_parser=Lfm2ToolParser,
    )
)
