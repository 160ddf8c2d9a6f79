"""Meta Muse (Muse Spark, Muse Glimmer): ATEM calls in Harmony-like addressed messages.

The prompt ends with ``<|start|>assistant``, so the output opens with the first header::

     to=self<|message|>Need the weather.<|eom|>
    <|start|>assistant to=get_weather.get_weather<|message|><atem:function_calls>
    <atem:invoke name="get_weather.get_weather">
    <atem:parameter name="city">Oslo</atem:parameter>
    </atem:invoke>
    </atem:function_calls><|eot|>

(one message per line here for reading; the model writes no newline between them). A
message is a header ending in ``<|message|>`` with its recipient ``to=R``, and a body ended
by ``<|eom|>`` (more messages follow) or ``<|eot|>`` (the turn ends). The framing is
Harmony's (``reference/harmony.py``, ``MessageResponseParser``) with other markers and
another routing, read from Muse's chat template (as its ports write it: the system prompt
offers the recipients ``self``, ``user`` and ``<namespace>.*`` per tool) and from the
engines' own parsers and tests (vLLM 0.33's ``muse`` and ``muse_glimmer`` profiles,
SGLang 0.5.23's ``MuseGlimmerDetector``, LMDeploy's Muse Glimmer parser):

- ``to=self``: reasoning; ``to=user``: content; so is ``to=commentary`` (vLLM's Spark
  profile and SGLang; no template recipient) and a header without a recipient (SGLang's
  and vLLM's Glimmer tests; vLLM's Spark profile makes it reasoning:
  ``muse/impl/bare-header``); ``to=developer`` is dropped (the template drops developer
  messages; it is no tool).
- Any other recipient is a tool channel. Its body's ``<atem:invoke>`` elements are calls,
  inside ``<atem:function_calls>`` or not (every engine and the model's response template
  read invokes wherever they stand in a tool channel); any other text there is dropped.
  An invoke inside a reasoning or content body is that body's text, never a call.
- A call's name is its invoke's ``name``. The model names a tool offered as ``get_weather``
  ``get_weather.get_weather`` (the template lists the recipient ``get_weather.*``; vLLM's
  and SGLang's parsers say so and collapse it): a doubled name ``X.X`` is ``X`` when ``X``
  is offered and ``X.X`` is not, or when the request offers no tools (the engines keep it
  then); nothing else is renamed (SGLang's match on the last segment alone could
  call the wrong tool: ``muse/invalid/namespaced-unknown-name``).
- Values are MiniMax-M2's (the reference reads the invokes with its driver): the text
  between the parameter tags, verbatim, typed by the tool's schema, as vLLM's Spark
  profile types them; the response template, SGLang and vLLM's Glimmer profile decode every
  value as JSON even where the schema says string (``muse/impl/string-that-looks-like-json``).

``muse_glimmer`` is Muse Glimmer's profile (vLLM's ``muse_glimmer``, SGLang's ``muse``, whose
detectors are Glimmer's): every value is read as JSON, a string only where that fails, as
the response template reads it; ``to=developer`` is a tool channel (both engines' Glimmer
readings keep only ``self`` and ``user`` apart, with ``commentary`` disputed:
``muse_glimmer/impl/commentary-message``); two reasoning messages are joined by a newline.

There is no thinking switch (the template has a reasoning strength only) and the output
never starts inside reasoning: the header routes. Consecutive bodies of one channel are
joined as written. A missing ``<|eom|>`` before the next ``<|start|>`` is tolerated (vLLM's
Glimmer test), and an output without any marker is content.

No PyPI wheel ships Muse's tokenizer: the dialect is cut with the tag-aligned model, the
four markers single tokens and the ATEM tags cut as MiniMax-M2's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..harmony import (
    CONTENT,
    DROPPED,
    MESSAGE,
    REASONING,
    RECIPIENT,
    START,
    MessageResponseParser,
)
from ..registry import Dialect, register
from ..schema_values import JSON_TYPES
from ..tags import stable_prefix_end
from ..types import DeltaMessage, DeltaToolCall
from .minimax_m2 import MiniMaxM2ToolParser

EOM = "<|eom|>"
EOT = "<|eot|>"
BLOCK_OPEN = "<atem:function_calls>"
BLOCK_CLOSE = "</atem:function_calls>"
INVOKE_OPEN = "<atem:invoke name="
INVOKE_CLOSE = "</atem:invoke>"
PARAMETER_OPEN = "<atem:parameter name="
PARAMETER_CLOSE = "</atem:parameter>"
#: The route of a tool channel's body.
TOOL_CHANNEL = max(REASONING, CONTENT, DROPPED) + 1
_CALL_STARTS = (BLOCK_OPEN, INVOKE_OPEN)
#: Tails of a tool body that may begin a block or an invoke: held until the next chunk.
_CALL_START_PREFIXES = tuple(
    sorted(
        {tag[:length] for tag in _CALL_STARTS for length in range(1, len(tag))},
        key=lambda prefix: -len(prefix),
    )
)


class MuseToolParser(MiniMaxM2ToolParser):
    """The ATEM invokes of one tool channel's body, read with the MiniMax-M2 driver.

    The response parser opens a block at ``<atem:function_calls>``, or at a bare
    ``<atem:invoke`` (then the block ends with the body), and feeds the body to it.
    """

    open_tag = BLOCK_OPEN
    close_tag = BLOCK_CLOSE
    invoke_open = INVOKE_OPEN
    invoke_close = INVOKE_CLOSE
    parameter_open = PARAMETER_OPEN
    arg_value_close_tag = PARAMETER_CLOSE
    arg_value_end_tags = (INVOKE_CLOSE, BLOCK_CLOSE)
    payload_starts = (INVOKE_OPEN,)
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        INVOKE_OPEN: ("<atem:invoke name", "<atem:invoke", "<atem:", "<"),
        INVOKE_CLOSE: ("</atem:invoke", "</atem:", "</"),
        PARAMETER_OPEN: ("<atem:parameter name", "<atem:parameter", "<atem:", "<"),
        PARAMETER_CLOSE: ("</atem:parameter", "</atem:", "</"),
    }

    def _invoke_header(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        found = super()._invoke_header(payload, pos, final)
        if found is None or found[1] is None:
            return found
        end, name, phase = found
        head, dot, tail = name.partition(".")
        allowed = self._allowed
        if dot and head == tail and (allowed is None or (head in allowed and name not in allowed)):
            name = head  # the template's doubled namespace
        return end, name, phase


class MuseResponseParser(MessageResponseParser):
    """Streaming parser of one Muse response; the same public API as ``ResponseParser``."""

    markers = (START, MESSAGE, EOM, EOT)
    #: Recipients whose bodies are not calls, and where they go (any other is a tool's).
    recipient_routes: ClassVar[Mapping[str, int]] = {
        "self": REASONING,
        "user": CONTENT,
        "commentary": CONTENT,
        "developer": DROPPED,
    }
    _reasoned = False  # whether a reasoning message opened (set on the instance)

    def _open_message(self, header: str, out: list[tuple[DeltaMessage, bool]]) -> None:
        found = RECIPIENT.search(header)
        recipient = found.group(1) if found else None
        if recipient is None:
            self._route = CONTENT
        elif recipient in self.recipient_routes:
            self._route = self.recipient_routes[recipient]
        else:
            self._route = TOOL_CHANNEL if self._calls is not None else DROPPED
        if self._route == REASONING and self.reasoning_separator:
            if self._reasoned:
                out.append((DeltaMessage(reasoning_content=self.reasoning_separator), False))
            self._reasoned = True

    def _route_body(
        self, text: str, start: int, end: int, out: list[tuple[DeltaMessage, bool]], ends: bool
    ) -> int:
        if self._route != TOOL_CHANNEL:
            return super()._route_body(text, start, end, out, ends)
        tool = self._calls
        assert isinstance(tool, MuseToolParser)
        pos = start
        while pos < end or (ends and not tool.block_closed):
            if tool.block_closed:
                position = _call_start(text, pos, end)
                if position < 0:
                    return end if ends else stable_prefix_end(text, _CALL_START_PREFIXES, pos)
                tool.begin_tool_block()
                opens_block = text.startswith(BLOCK_OPEN, position)
                pos = position + len(BLOCK_OPEN) if opens_block else position
            deltas: list[DeltaToolCall] = []
            pos += tool.feed_tool_block(text[pos:end], deltas, ends)
            if deltas:
                out.append((DeltaMessage(tool_calls=deltas), True))
            if tool.block_rejected:  # `<atem:function_calls>` then prose: text, dropped here
                pos += max(tool.stutter - len(tool.rejected_text()), 0)  # and its repeats
            elif not tool.block_closed:
                return pos  # the rest of an open block waits for more text
        return end if ends else pos

    def _close_message(self, out: list[tuple[DeltaMessage, bool]]) -> None:
        if self._route == TOOL_CHANNEL:
            self._route_body("", 0, 0, out, True)  # the body ended: close an open block


def _call_start(text: str, start: int, end: int) -> int:
    """Where the first block or bare invoke in ``text[start:end]`` begins, or -1."""
    found = [at for tag in _CALL_STARTS if (at := text.find(tag, start, end)) >= 0]
    return min(found, default=-1)


register(
    Dialect(
        name="muse",
        description="Muse Spark: addressed messages (to=self, to=user, to=TOOL) with "
        '<atem:invoke name="…"><atem:parameter name="…"> calls',
        tool_parser=MuseToolParser,
        response_parser=MuseResponseParser,
    )
)


class MuseGlimmerToolParser(MuseToolParser):
    """Glimmer's values: every one read as JSON, a string only where that fails."""

    def _value_types(self, name: str) -> frozenset[str]:
        return JSON_TYPES


class MuseGlimmerResponseParser(MuseResponseParser):
    """Glimmer's routing: ``to=developer`` is a tool channel, and two reasoning messages
    are joined by a newline."""

    recipient_routes: ClassVar[Mapping[str, int]] = {
        "self": REASONING,
        "user": CONTENT,
        "commentary": CONTENT,
    }
    reasoning_separator = "\n"


register(
    Dialect(
        name="muse_glimmer",
        description="Muse Glimmer: Muse's addressed messages, every value read as JSON, "
        "to=developer a tool channel, reasoning messages joined by a newline",
        tool_parser=MuseGlimmerToolParser,
        response_parser=MuseGlimmerResponseParser,
    )
)
