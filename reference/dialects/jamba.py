"""AI21 Jamba tool calls: ``<tool_calls>[{"name", "arguments"}, …]</tool_calls>``.

One block holds a JSON array of envelopes, one call each (vLLM's ``jamba`` parser). A lone
envelope without the brackets is read as one call. ``<tool_calls>`` and ``</tool_calls>``
are tokens of Jamba's vocabulary (vLLM's parser refuses a tokenizer without them), so no
chunk ends inside one. No PyPI wheel ships the tokenizer: the tag-aligned model. Jamba
does not think: no reasoning channel.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register


class ToolCallsArrayParser(JsonToolParser):
    """``<tool_calls>`` then a JSON array of envelopes then ``</tool_calls>``."""

    open_tag = "<tool_calls>"
    close_tag = "</tool_calls>"
    accepts_envelope_list = True
    payload_starts = ("[", "{")


register(
    Dialect(
        name="jamba",
        description="AI21 Jamba: a JSON array of envelopes in <tool_calls> … </tool_calls>",
        tool_parser=ToolCallsArrayParser,
    )
)
