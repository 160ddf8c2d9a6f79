"""Inkling: typed message blocks, ``<|message_model|><|content_KIND|>…<|end_message|>``.

::

    <|message_model|><|content_thinking|>reasoning<|end_message|>
    <|message_model|><|content_text|>visible text<|end_message|>
    <|message_model|>get_weather<|content_invoke_tool_json|>{"name": "get_weather",
    "args": {"city": "SF"}}<|end_message|>

(the breaks inside the call are only for reading). Every marker is a special token. The
blocks may repeat in any order. A thinking block is reasoning; a text block is content,
its two markers protocol (dropped, as the answer wrappers of ERNIE-4.5 are); a tool block
is one call, its payload a JSON envelope whose arguments field is ``args``. Between
``<|message_model|>`` and the content kind a tool block may name its function (SGLang
0.5.23's ``inkling`` detector writes it there, vLLM 0.33's ``inkling`` parser reads it as
metadata); the envelope's ``name`` is the call's name. So the tool block's open tag is
``<|message_model|>``, confirmed when at most one word and ``<|content_invoke_tool_json|>``
follow; the longer ``<|message_model|><|content_thinking|>`` and
``<|message_model|><|content_text|>`` are matched first where they stand.

The model opens reasoning itself, with a thinking block: the output starts as content,
whatever the request's thinking flag. Not modelled: a block that a content-kind marker
opens without ``<|message_model|>`` (vLLM accepts that for the first block),
``<|content_invoke_tool_text|>`` and ``<|content_tool_error|>`` blocks (vLLM renders them
as text) and the ``<|content_model_end_sampling|>`` end of a block. No PyPI wheel ships
the Inkling tokenizer: the tag-aligned model, the two markers of an open tag cut between
them.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..reasoning import ModelOpensReasoningParser
from ..registry import Dialect, register

MESSAGE_MODEL = "<|message_model|>"
CONTENT_TEXT = "<|content_text|>"
CONTENT_THINKING = "<|content_thinking|>"
CONTENT_TOOL_JSON = "<|content_invoke_tool_json|>"
END_MESSAGE = "<|end_message|>"


class InklingToolParser(JsonToolParser):
    open_tag = MESSAGE_MODEL
    close_tag = END_MESSAGE
    argument_field = "args"

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        # The content-kind markers are special tokens on their own too: protocol wherever
        # they stand, so free text never holds one.
        return {
            **super().protocol_tags(),
            CONTENT_TOOL_JSON: (),
            CONTENT_TEXT: (),
            CONTENT_THINKING: (),
        }

    def _payload_verdict(self, text: str, final: bool) -> int:
        return self._word_then_tag_verdict(text, "<{", (CONTENT_TOOL_JSON,))


class InklingReasoningParser(ModelOpensReasoningParser):
    open_tag = MESSAGE_MODEL + CONTENT_THINKING
    close_tag = END_MESSAGE
    open_prefixes = (MESSAGE_MODEL,)
    answer_tags = {MESSAGE_MODEL + CONTENT_TEXT: (MESSAGE_MODEL,), END_MESSAGE: ()}  # noqa: RUF012

    def enabled(self) -> bool:
        """Always: the text blocks' markers are this declaration's, and a thinking block
        is reasoning whatever the request says (vLLM's grammar has no thinking switch)."""
        return True


register(
    Dialect(
        name="inkling",
        description="Inkling: <|message_model|> blocks of thinking, text or one JSON tool call",
        tool_parser=InklingToolParser,
        reasoning_parser=InklingReasoningParser,
    )
)
