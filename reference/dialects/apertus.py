"""Swiss AI Apertus: ``<|tools_prefix|>[{"NAME": {arguments}}, …]<|tools_suffix|>``.

One block holds a JSON array of single-key objects, the key naming the function and its
value the arguments (vLLM's ``apertus`` and SGLang's ``apertus2509`` parsers; the
template writes them so). Reasoning, when the model deliberates, is wrapped in
``<|inner_prefix|>`` … ``<|inner_suffix|>``, which the model writes itself: the output starts
as content (SGLang's ``apertus2509`` reasoning detector does not force reasoning). Every
marker is a special token of Apertus' vocabulary (both engines keep special tokens for it),
so no chunk ends inside one. No PyPI wheel ships the tokenizer: the tag-aligned model.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..reasoning import ModelOpensReasoningParser
from ..registry import Dialect, register


class ApertusToolParser(JsonToolParser):
    open_tag = "<|tools_prefix|>"
    close_tag = "<|tools_suffix|>"
    accepts_envelope_list = True
    name_keyed = True
    payload_starts = ("[", "{")


class ApertusReasoningParser(ModelOpensReasoningParser):
    open_tag = "<|inner_prefix|>"
    close_tag = "<|inner_suffix|>"


register(
    Dialect(
        name="apertus",
        description="Apertus: [{NAME: arguments}] between <|tools_prefix|> and "
        "<|tools_suffix|>, <|inner_prefix|> reasoning",
        tool_parser=ApertusToolParser,
        reasoning_parser=ApertusReasoningParser,
    )
)
