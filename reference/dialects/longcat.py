"""LongCat-Flash tool blocks: ``<longcat_tool_call>{"name", "arguments"}</longcat_tool_call>``.

Hermes' envelope under LongCat's own tags (vLLM's ``longcat`` parser is its hermes parser
with these tags). The tags are added tokens of LongCat's vocabulary, so no chunk ends inside
one. No PyPI wheel ships that tokenizer: the dialect is cut with the tag-aligned model. The
dialect has no reasoning channel: vLLM 0.33 registers no LongCat reasoning parser.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register


class LongcatToolParser(JsonToolParser):
    open_tag = "<longcat_tool_call>"
    close_tag = "</longcat_tool_call>"


register(
    Dialect(
        name="longcat",
        description="LongCat-Flash: hermes JSON envelopes in <longcat_tool_call> blocks",
        tool_parser=LongcatToolParser,
    )
)
