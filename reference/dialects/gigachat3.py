"""GigaChat 3 and 3.1 tool calls: one JSON envelope after a function-call header.

- ``gigachat3`` (GigaChat 3.0): the call is a message of the ``function call`` role after
  the assistant's, ``[content]<|message_sep|>\\n\\nfunction call<|role_sep|>\\n{"name",
  "arguments"}``. ``<|message_sep|>\\n\\n`` and ``<|role_sep|>\\n`` are single tokens of the
  GigaChat vocabulary (newlines included); ``function call`` between them is text, cut
  after ``function``. The whole header is the open tag: the content ends where it begins.
- ``gigachat31`` (GigaChat 3.1): ``[content]<|function_call|>{"name", "arguments"}``, the
  marker one special token.

Both have one call per response and no close tag: the block ends with the envelope, and
the model ends its turn there. vLLM 0.33's and SGLang 0.5.23's ``gigachat3`` parsers read
either header (``(?:function call<|role_sep|>\\n|<|function_call|>)(.*)``), the content
before ``<|message_sep|>`` or ``<|function_call|>``, and the rest as one JSON object. The
models do not think (the templates have no reasoning): no reasoning channel. No PyPI wheel
ships the GigaChat tokenizer: the tag-aligned model, with the header's token cuts.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register

MESSAGE_SEP = "<|message_sep|>\n\n"
ROLE_SEP = "<|role_sep|>\n"
FUNCTION_CALL_HEADER = MESSAGE_SEP + "function call" + ROLE_SEP


class GigaChat3ToolParser(JsonToolParser):
    open_tag = FUNCTION_CALL_HEADER
    close_tag = None
    open_prefixes = (MESSAGE_SEP + "function call", MESSAGE_SEP + "function", MESSAGE_SEP)


class GigaChat31ToolParser(JsonToolParser):
    open_tag = "<|function_call|>"
    close_tag = None


register(
    Dialect(
        name="gigachat3",
        description="GigaChat 3: <|message_sep|>, then a 'function call' message with one "
        "JSON envelope",
        tool_parser=GigaChat3ToolParser,
    )
)
register(
    Dialect(
        name="gigachat31",
        description="GigaChat 3.1: <|function_call|> then one JSON envelope",
        tool_parser=GigaChat31ToolParser,
    )
)
