"""Tencent Hy3 / Hy4 (Hunyuan): GLM's pairs, several calls in one ``<tool_calls>`` block.

::

    <tool_calls>
    <tool_call>get_weather<tool_sep>
    <arg_key>city</arg_key>
    <arg_value>Oslo</arg_value>
    </tool_call>
    </tool_calls>

The block holds any number of ``<tool_call>NAME…</tool_call>`` calls. Hy3 (``hy_v3``)
ends the name with ``<tool_sep>`` (vLLM 0.33's ``hy_v3`` parser, SGLang 0.5.23's
``hunyuan`` detector); Hy4 (``hy_v4``) runs it into the first ``<arg_key>`` (vLLM's
``hy_v4``). Both read a name up to ``<tool_sep>``, ``<arg_key>`` or the call's end, so
each dialect also reads the other's layout. Values are typed by the tool's schema (both
engines: bool, int, number, JSON, else the string), layout between tags is skipped; a value
whose ``</arg_value>`` is missing ends at ``<arg_key>``, ``</tool_call>`` or
``</tool_calls>`` (dedicated tokens, as in GLM), and a call whose ``</tool_call>`` is
missing ends at the next ``<tool_call>`` or the block's end.

Every structural tag is a special token of the Hunyuan vocabulary. A checkpoint may add a
shared suffix to all of them (``<tool_calls:6124c78e>``; both engines read it from the
vocabulary at start-up): that is the same grammar with other tag strings, and these
dialects are the suffix-less form, which both engines fall back to.

Reasoning: ``<think>`` … ``</think>``, and ``<tool_calls>`` inside reasoning ends it
(SGLang's ``hunyuan`` reasoning detector). Hy3's template leaves ``<think>`` to the model
(vLLM's ``hy_v3`` reasoning parser opens reasoning only when the model writes it), so its
output starts as content; Hy4's template injects ``<think>`` into the prompt (vLLM's
``hy_v4``), so its output starts inside reasoning unless thinking is off.

No PyPI wheel ships the Hunyuan tokenizer: both are cut with the tag-aligned model.
"""

from __future__ import annotations

from ..markup import skip_stray_text, skip_whitespace, tag_at
from ..registry import Dialect, register
from ..tool_parser import ToolParser
from ..xml_tool_parser import DONE, FUNCTION
from .glm import (
    ARG_KEY_CLOSE,
    ARG_KEY_OPEN,
    ARG_VALUE_CLOSE,
    ARG_VALUE_OPEN,
    Glm45ReasoningParser,
    Glm47ReasoningParser,
    Glm47ToolParser,
)

CALL_OPEN = "<tool_call>"
CALL_CLOSE = "</tool_call>"
TOOL_SEP = "<tool_sep>"
BLOCK_CLOSE = "</tool_calls>"


class HunyuanToolParser(Glm47ToolParser):
    open_tag = "<tool_calls>"
    close_tag = BLOCK_CLOSE
    call_open_tag = CALL_OPEN
    call_close_tag = CALL_CLOSE
    arg_value_end_tags = (ARG_KEY_OPEN, CALL_CLOSE, BLOCK_CLOSE, CALL_OPEN)
    payload_starts = (CALL_OPEN,)
    name_ends = (TOOL_SEP, ARG_KEY_OPEN)
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        CALL_OPEN: (),
        CALL_CLOSE: (),
        TOOL_SEP: (),
        ARG_KEY_OPEN: (),
        ARG_KEY_CLOSE: (),
        ARG_VALUE_OPEN: (),
        ARG_VALUE_CLOSE: (),
    }

    def _payload_verdict(self, text: str, final: bool) -> int:
        """The block's payload begins with ``<tool_call>`` (or is empty): ``payload_starts``."""
        return ToolParser._payload_verdict(self, text, final)

    def _consume_function(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        if self._search.open:  # the rest of a name begun in an earlier chunk
            return self._function_name(payload, pos, final)
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (self.call_open_tag, self.close_tag))
        if tag == self.call_open_tag:
            return self._function_name(payload, pos + len(tag), final)
        if tag == self.close_tag:
            return pos, None, DONE
        if tag is None:
            return skip_stray_text(payload, pos), None, FUNCTION
        return (len(payload), None, DONE) if final else None


register(
    Dialect(
        name="hy_v3",
        description="Tencent Hy3: <tool_calls><tool_call>NAME<tool_sep><arg_key>K…, "
        "<think> by the model",
        tool_parser=HunyuanToolParser,
        reasoning_parser=Glm45ReasoningParser,
    )
)
register(
    Dialect(
        name="hy_v4",
        description="Tencent Hy4: <tool_calls><tool_call>NAME<arg_key>K…, reasoning that "
        "starts open",
        tool_parser=HunyuanToolParser,
        reasoning_parser=Glm47ReasoningParser,
    )
)
