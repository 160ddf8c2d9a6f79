"""Qwen3-Coder XML tool calls (Qwen3-Coder, Qwen3.5 / 3.6): ``<function=…><parameter=…>``.

::

    <tool_call>
    <function=get_weather>
    <parameter=city>
    Beijing
    </parameter>
    </function>
    </tool_call>

One leading and one trailing newline of a value are layout, not value text. The value ends
at ``</parameter>``; when that tag is missing it ends at the next ``<parameter=``, at
``</function>`` or at ``</tool_call>``, as the reference parser shipped with the model reads
it (``qwen3coder_tool_parser.py``: ``<parameter=(.*?)(?:</parameter>|(?=<parameter=)|
(?=</function>)|$)`` inside ``<tool_call>(.*?)</tool_call>``). A missing ``</function>``
ends the call at the next ``<function=`` or at ``</tool_call>``; several functions in one
block are several calls.

``<tool_call>``, ``</tool_call>``, ``<think>`` and ``</think>`` are single tokens in the
Qwen3 and Qwen3.5 vocabularies. The inner tags are plain text: ``</parameter>`` arrives as
``</`` · ``parameter`` · ``>``, so a chunk may end in ``</`` or ``</parameter``
(offline-tokenizers §4).
"""

from __future__ import annotations

from ..markup import skip_stray_text, skip_whitespace, tag_at
from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from ..xml_tool_parser import (
    ARG_NAME,
    ARG_START,
    DONE,
    FUNCTION,
    ONE_NEWLINE,
    XmlToolParser,
)

FUNCTION_OPEN = "<function="
FUNCTION_CLOSE = "</function>"
PARAMETER_OPEN = "<parameter="
PARAMETER_CLOSE = "</parameter>"


class Qwen3CoderToolParser(XmlToolParser):
    open_tag = "<tool_call>"
    close_tag = "</tool_call>"
    arg_value_close_tag = PARAMETER_CLOSE
    arg_value_end_tags = (PARAMETER_OPEN, FUNCTION_CLOSE, "</tool_call>")
    value_whitespace = ONE_NEWLINE
    payload_starts = (FUNCTION_OPEN,)
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        FUNCTION_OPEN: ("<function", "<"),
        FUNCTION_CLOSE: ("</function", "</"),
        PARAMETER_OPEN: ("<parameter", "<"),
        PARAMETER_CLOSE: ("</parameter", "</"),
    }

    def _consume_function(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        if self._search.open:  # the rest of a header that began in an earlier chunk
            return self._function_header(payload, pos, final)
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (FUNCTION_OPEN, self.close_tag))
        if tag == FUNCTION_OPEN:
            return self._function_header(payload, pos + len(tag), final)
        if tag == self.close_tag:
            return pos, None, DONE
        if tag is None:
            return skip_stray_text(payload, pos), None, FUNCTION
        return (len(payload), None, DONE) if final else None

    def _function_header(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        header = self._search.header(payload, pos)
        if header is None:
            # An unfinished name at the end of the input is no name: invent none.
            return (len(payload), None, DONE) if final else None
        end, name = header
        return (end, None, FUNCTION) if name is None else (end, name.strip(), ARG_START)

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (PARAMETER_OPEN, FUNCTION_CLOSE, self.close_tag, FUNCTION_OPEN))
        if tag == PARAMETER_OPEN:
            return pos + len(tag), ARG_NAME
        if tag == FUNCTION_CLOSE:
            return pos + len(tag), DONE
        if tag:  # </tool_call> or the next <function=: this call's </function> is missing
            return pos, DONE
        if tag is None:
            return skip_stray_text(payload, pos), ARG_START
        return None

    def _consume_arg_name(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        header = self._search.header(payload, pos)
        if header is None:
            return None
        end, name = header
        return end, None if name is None else name.strip()


register(
    Dialect(
        name="qwen3_coder",
        description="Qwen3-Coder: <tool_call><function=NAME><parameter=K>, no reasoning",
        tool_parser=Qwen3CoderToolParser,
        tokenizer_families=("qwen3",),
    )
)
register(
    Dialect(
        name="qwen35",
        description="Qwen3.5/3.6: Qwen3-Coder XML tool calls, <think> reasoning that starts open",
        tool_parser=Qwen3CoderToolParser,
        reasoning_parser=ReasoningParser,
        tokenizer_families=("qwen3.5",),
    )
)
# NVIDIA Nemotron 3 writes Qwen3's format: vLLM's ``nemotron_v3`` parser is its Qwen3 engine
# under another name, SGLang's ``nemotron_3`` detector Qwen3's reasoning. Nemotron's
# tokenizer ships in no wheel: the dialect is cut with the tag-aligned model.
register(
    Dialect(
        name="nemotron3",
        description="NVIDIA Nemotron 3: Qwen3-Coder XML tool calls, <think> reasoning that "
        "starts open",
        tool_parser=Qwen3CoderToolParser,
        reasoning_parser=ReasoningParser,
    )
)


class Granite42ReasoningParser(ReasoningParser):
    """Granite 4.2's template writes ``</think>\\n``: the newlines that begin the answer are
    layout, as both engines' ``granite_thinking_parser`` read them (``lstrip("\\n")`` of the
    content once reasoning has been seen). With thinking off the template closes the block
    in the prompt, and what the model writes is content as written."""

    close_layout = "\n"


# IBM Granite 4.2 writes Nemotron 3's format (vLLM's ``GraniteThinkingParser`` is its
# ``NemotronV3Parser``, SGLang's ``GraniteThinkingDetector`` the same reasoning tags) with
# the template's newline after ``</think>``. No wheel ships its tokenizer: the tag-aligned
# model cuts it.
register(
    Dialect(
        name="granite42",
        description="IBM Granite 4.2: Qwen3-Coder XML tool calls, <think> reasoning that "
        "starts open, newlines after </think> are layout",
        tool_parser=Qwen3CoderToolParser,
        reasoning_parser=Granite42ReasoningParser,
    )
)
