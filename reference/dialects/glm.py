"""GLM-4.5 / 4.6 and GLM-4.7 / GLM-5 tool calls: ``<tool_call>NAME<arg_key>K</arg_key>…``.

GLM-4.5 and 4.6 lay a call out on lines (their chat template writes
``<tool_call>{name}\\n<arg_key>{k}</arg_key>\\n<arg_value>{v}</arg_value>\\n</tool_call>``);
GLM-4.7 and later write it on one line (``<tool_call>{name}<arg_key>{k}</arg_key>
<arg_value>{v}</arg_value></tool_call>``). In both the name is the text after
``<tool_call>``; for GLM-4.5 the end of its line already completes it, so it is emitted
before the first argument arrives. Newlines between tags are layout. A value is exactly the
text between ``<arg_value>`` and ``</arg_value>`` (the templates write it verbatim, JSON only
for non-strings), typed by the tool's schema.

Every GLM tag is one token in the GLM-4.5 and GLM-4.7-Flash vocabularies, so no tag prefix
can end a chunk (offline-tokenizers §4). Because the tags are dedicated tokens, they always
mean protocol, never value text: a value whose ``</arg_value>`` is missing ends at
``<arg_key>`` or ``</tool_call>``; a key with no value at all
(``<arg_key>k</arg_key></tool_call>``) is skipped, since there is no value to report; and
a stray or duplicated tag between a key and its value (``</arg_key></arg_key>``,
``</arg_value>``, ``<arg_value><arg_value>``) is dropped, so it cannot leak into the value
(before: ``{"path": "</arg_key><arg_value>(local)"}``).

Reasoning: a tool open tag inside reasoning ends reasoning without ``</think>`` (SGLang's
``glm45`` detector and LMDeploy's GLM tests). GLM-4.5's template leaves ``<think>`` to the
model, so its output starts as content; GLM-4.7's template ends the prompt with ``<think>``
(``</think>`` when thinking is off), so its output starts inside reasoning.
"""

from __future__ import annotations

from typing import ClassVar

from ..markup import skip_stray_text, skip_whitespace, tag_at
from ..reasoning import ModelOpensReasoningParser, ReasoningParser
from ..registry import Dialect, register
from ..types import Request
from ..xml_tool_parser import ARG_NAME, ARG_START, DONE, FUNCTION, XmlToolParser

ARG_KEY_OPEN = "<arg_key>"
ARG_KEY_CLOSE = "</arg_key>"
ARG_VALUE_OPEN = "<arg_value>"
ARG_VALUE_CLOSE = "</arg_value>"
TOOL_CLOSE = "</tool_call>"


class Glm47ToolParser(XmlToolParser):
    """GLM-4.7's payload: one call per block, ``NAME<arg_key>K</arg_key><arg_value>V…``.

    The dialects that spell the same pairs with other tags (IQuest's outer
    ``<iquest_tool_call>``, K2 Horizon's ``<ifm|arg_key>``) or hold several calls in one
    block (Hunyuan's ``<tool_calls>`` of ``<tool_call>NAME…</tool_call>``) set the tag
    attributes below: every hook reads its tags from the class.
    """

    open_tag = "<tool_call>"
    close_tag = TOOL_CLOSE
    arg_key_open: ClassVar[str] = ARG_KEY_OPEN
    arg_key_close: ClassVar[str] = ARG_KEY_CLOSE
    value_repeated_open = ARG_VALUE_OPEN
    arg_value_close_tag = ARG_VALUE_CLOSE
    #: The tags that open and close each call of a block that holds several; "": the
    #: block is one call (GLM). The next call's open tag also ends a call left open.
    call_open_tag: ClassVar[str] = ""
    call_close_tag: ClassVar[str] = ""
    arg_value_end_tags = (ARG_KEY_OPEN, TOOL_CLOSE)
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        ARG_KEY_OPEN: (),
        ARG_KEY_CLOSE: (),
        ARG_VALUE_OPEN: (),
        ARG_VALUE_CLOSE: (),
    }
    #: What completes the function name after ``<tool_call>`` (besides the tags that end a
    #: call); a marker that is not the first argument's tag is consumed with the name.
    name_ends: ClassVar[tuple[str, ...]] = (ARG_KEY_OPEN,)

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        #: A key whose </arg_key> came: what follows is read up to its value's start.
        self._closed_key: str | None = None
        calls = tuple(tag for tag in (self.call_close_tag, self.call_open_tag) if tag)
        #: The tags that end the current call: its own close tag, the block's, the next's.
        self._call_ends = (*calls, self.close_tag)

    def begin_tool_block(self) -> None:
        super().begin_tool_block()
        self._closed_key = None

    def _payload_verdict(self, text: str, final: bool) -> int:
        """A payload is a function name (one word) and then ``<arg_key>`` or the close tag;
        ``<tool_call>`` followed by prose ("marks a call") is text."""
        return self._word_then_tag_verdict(text, "<", (self.arg_key_open, self.close_tag))

    def _consume_function(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        if not self._search.open:  # else: the rest of a name begun in an earlier chunk
            pos = skip_whitespace(payload, pos)
            if payload.startswith(self.open_tag, pos):
                return pos + len(self.open_tag), None, FUNCTION  # a repeated open tag: dropped
        return self._function_name(payload, pos, final)

    def _function_name(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        """The name from ``pos`` to the first of ``name_ends`` or of the call's end tags."""
        call_ends = self._call_ends
        end, marker, name = self._search.first(payload, (*self.name_ends, *call_ends), pos)
        if marker is None:
            # An unfinished name at the end of the input is no name: invent none.
            return (len(payload), None, DONE) if final else None
        name = name.strip()
        if marker in call_ends and not name:  # an empty call: nothing to report
            if marker == self.close_tag:
                return end, None, DONE
            if marker == self.call_close_tag:
                end += len(marker)
            return end, None, FUNCTION
        if marker not in call_ends and marker != self.arg_key_open:
            end += len(marker)  # GLM-4.5's line end, Hunyuan's <tool_sep>
        return end, name, ARG_START

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        pos = skip_whitespace(payload, pos)
        key_open = self.arg_key_open
        if self._closed_key is not None:
            # Between a key and its value: each stray close tag is consumed once.
            tag = tag_at(payload, pos, self._between_key_and_value())
            if tag == self.value_repeated_open:
                return pos + len(tag), ARG_NAME
            if tag in (self.arg_key_close, self.arg_value_close_tag):
                return pos + len(tag), ARG_START
            if tag is None:
                return pos, ARG_NAME  # <arg_value> is missing: the value is the text that follows
            if not tag:
                return None
            if tag not in self._call_ends and tag != key_open:
                return self._consume_between_tag(payload, pos, tag)
            self._closed_key = None  # <arg_key> or the call's end: a key without a value
        tag = tag_at(payload, pos, (key_open, *self._call_ends))
        if tag is None:
            return skip_stray_text(payload, pos), ARG_START
        if not tag:
            return None
        if tag == key_open:
            return pos + len(tag), ARG_NAME
        if tag == self.call_close_tag:
            return pos + len(tag), DONE
        return pos, DONE  # the block's close tag ends the call (GLM), or a call left open

    def _between_key_and_value(self) -> tuple[str, ...]:
        """The tags that may stand between a key's close tag and its value."""
        return (
            self.value_repeated_open,
            self.arg_key_close,
            self.arg_value_close_tag,
            self.arg_key_open,
            *self._call_ends,
        )

    def _consume_between_tag(self, payload: str, pos: int, tag: str) -> tuple[int, str] | None:
        """A tag of the dialect's own between a key and its value (K2 Horizon's type)."""
        raise NotImplementedError

    def _consume_arg_name(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        key = self._closed_key
        if key is not None:  # _consume_arg_start found where the key's value starts
            self._closed_key = None
            return pos, key
        value_open = self.value_repeated_open
        end, marker, name = self._search.first(
            payload, (self.arg_key_close, value_open, self.arg_key_open, *self._call_ends), pos
        )
        if marker is None:
            return None
        if marker == self.arg_key_open or marker in self._call_ends:
            return end, None  # the key never closed and no value follows
        name = name.strip()
        if marker == value_open:  # </arg_key> is missing
            return end + len(marker), name
        # What stands between </arg_key> and the value (layout, <arg_value>, stray tags) is
        # read by _consume_arg_start, which consumes it as it goes.
        self._closed_key = name
        return end + len(marker), None


class Glm45ToolParser(Glm47ToolParser):
    name_ends = ("\n", ARG_KEY_OPEN)

    def _payload_verdict(self, text: str, final: bool) -> int:
        """As GLM-4.7, and the end of the name's line confirms it (the template's layout)."""
        return self._word_then_tag_verdict(text, "<", (ARG_KEY_OPEN, self.close_tag), "\n")


class Glm45ReasoningParser(ModelOpensReasoningParser):
    """GLM-4.5 / 4.6: the model opens ``<think>`` itself; a tool call ends reasoning."""

    tool_open_ends_reasoning = True


class Glm47ReasoningParser(ReasoningParser):
    """GLM-4.7 / GLM-5: the template opens ``<think>``; a tool call ends reasoning."""

    tool_open_ends_reasoning = True


register(
    Dialect(
        name="glm45",
        description="GLM-4.5/4.6: <tool_call>NAME\\n<arg_key>K</arg_key>\\n<arg_value>V…, "
        "<think> opened by the model",
        tool_parser=Glm45ToolParser,
        reasoning_parser=Glm45ReasoningParser,
        tokenizer_families=("glm-4.5",),
    )
)
register(
    Dialect(
        name="glm47",
        description="GLM-4.7/GLM-5: <tool_call>NAME<arg_key>K</arg_key><arg_value>V…, "
        "reasoning that starts open",
        tool_parser=Glm47ToolParser,
        reasoning_parser=Glm47ReasoningParser,
        tokenizer_families=("glm-4.5", "glm-4.7-flash"),
    )
)
