"""PLaMo 3 tool calls: a section of requests in ``<|plamo:…:plamo|>`` markers.

::

    <|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|>
    <|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|>
    <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"city": "Oslo"}
    <|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>
    <|plamo:end_tool_requests:plamo|>

(one line: the breaks are only for reading). The grammar is vLLM 0.33's ``plamo3`` parser
(``vllm/parser/plamo3.py``): the requests are the section, each request a call whose
header is the name between its two name markers, and the arguments marker with its
``<|plamo:constrain|>json<|plamo:msg|>`` tail is the separator before one JSON object;
``<|plamo:end_tool_request:plamo|>`` after the arguments is text between calls, dropped.
The reference reads it with the section driver.

Reasoning: ``<|plamo:begin_think:plamo|>`` … ``<|plamo:end_think:plamo|>``. Thinking is on
by default (vLLM's parser starts in reasoning unless the request's ``enable_thinking`` is
false), and a tool section inside reasoning ends it.

Tokens: vLLM's parser says PLaMo's markers are not single tokens: ``<|plamo:begin_``,
``<|plamo:end_`` and ``:plamo|>`` are tokens of their own, the word between them text. No
PyPI wheel ships the PLaMo tokenizer, so the dialect is cut with the tag-aligned model at
those token edges (after ``<|plamo:begin_`` and before ``:plamo|>``); how the word itself
is split is not known here. SGLang 0.5.23 has no PLaMo parser.
"""

from __future__ import annotations

from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from ..section_tool_parser import SectionToolParser


def _marker(word: str, begin: bool = True) -> str:
    return f"<|plamo:{'begin' if begin else 'end'}_{word}:plamo|>"


def _cuts(marker: str) -> tuple[str, ...]:
    """Where a chunk may end inside one marker: after its first token, before its last."""
    head = marker[: marker.index("_") + 1]  # "<|plamo:begin_" or "<|plamo:end_"
    return (marker[: -len(":plamo|>")], head)


BEGIN_REQUESTS = _marker("tool_requests")
END_REQUESTS = _marker("tool_requests", begin=False)
BEGIN_REQUEST = _marker("tool_request")
END_REQUEST = _marker("tool_request", begin=False)
BEGIN_NAME = _marker("tool_name")
END_NAME = _marker("tool_name", begin=False)
BEGIN_ARGUMENTS = _marker("tool_arguments") + "<|plamo:constrain|>json<|plamo:msg|>"
END_ARGUMENTS = _marker("tool_arguments", begin=False)
BEGIN_THINK = _marker("think")
END_THINK = _marker("think", begin=False)


class Plamo3ToolParser(SectionToolParser):
    open_tag = BEGIN_REQUESTS
    close_tag = END_REQUESTS
    open_prefixes = _cuts(BEGIN_REQUESTS)
    close_prefixes = _cuts(END_REQUESTS)
    call_open = BEGIN_REQUEST
    call_separator = BEGIN_ARGUMENTS
    call_close = END_ARGUMENTS
    call_open_prefixes = _cuts(BEGIN_REQUEST)
    call_separator_prefixes = (
        _marker("tool_arguments") + "<|plamo:constrain|>json",
        _marker("tool_arguments") + "<|plamo:constrain|>",
        _marker("tool_arguments"),
        *_cuts(_marker("tool_arguments")),
    )
    call_close_prefixes = _cuts(END_ARGUMENTS)
    payload_starts = (BEGIN_REQUEST,)

    @classmethod
    def protocol_tags(cls) -> dict[str, tuple[str, ...]]:
        tags = super().protocol_tags()
        for marker in (BEGIN_NAME, END_NAME, END_REQUEST):
            tags[marker] = _cuts(marker)
        return tags

    def _read_header(self, header: str) -> tuple[str | None, str | None]:
        """The name between its two markers; no call without them."""
        if not header.startswith(BEGIN_NAME):
            return None, None
        end = header.find(END_NAME, len(BEGIN_NAME))
        if end < 0:
            return None, None
        return header[len(BEGIN_NAME) : end].strip() or None, None


class Plamo3ReasoningParser(ReasoningParser):
    open_tag = BEGIN_THINK
    close_tag = END_THINK
    open_prefixes = _cuts(BEGIN_THINK)
    close_prefixes = _cuts(END_THINK)
    tool_open_ends_reasoning = True


register(
    Dialect(
        name="plamo3",
        description="PLaMo 3: <|plamo:begin_tool_requests:plamo|> sections of named requests "
        "with JSON arguments, reasoning first unless thinking is off",
        tool_parser=Plamo3ToolParser,
        reasoning_parser=Plamo3ReasoningParser,
    )
)
