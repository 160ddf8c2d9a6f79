"""Muse (Spark; Glimmer, ``muse_glimmer``): addressed messages, each call an ATEM block.

``render("muse", Response(reasoning="Hm.", calls=(Call("f", {"a": 1}),)))`` →
``' to=self<|message|>Hm.<|eom|><|start|>assistant to=f.f<|message|><atem:function_calls>
\\n<atem:invoke name="f.f">\\n<atem:parameter name="a">1</atem:parameter>\\n</atem:invoke>
\\n</atem:function_calls><|eot|>'``.

As the chat template lays a turn out: the prompt ends with ``<|start|>assistant``, so the
first message starts at its recipient and every later one with ``<|start|>assistant``;
reasoning is a ``to=self`` message, content a ``to=user`` one, each call a message of its
own addressed to the tool (one invoke per message), its name doubled as the model writes a
tool offered without a namespace (``f`` is listed as ``f.*``). Every message ends with
``<|eom|>`` but the last, which ends the turn with ``<|eot|>``. Values are MiniMax-M2's,
typed by the tool's schema and written inline; a value or text holding one of the four
markers (each a special token that ends a body) is not carried. Empty bodies are not
written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...reference import Request
from ...reference.schema_values import JSON_TYPES
from ..responses import Call, Response
from . import REASONING_TAIL, register
from .minimax_m2 import MiniMaxM2Renderer
from .typed_values import fit_typed_call

MARKERS = ("<|start|>", "<|message|>", "<|eom|>", "<|eot|>")


class MuseRenderer(MiniMaxM2Renderer):
    dialect = "muse"
    layout = (
        "addressed messages: ` to=self` reasoning, one ` to=NAME.NAME` message per call with "
        "an `<atem:function_calls>` block of one invoke (values typed and inline, as "
        "MiniMax-M2's), ` to=user` content; `<|eom|>` ends every message but the last, "
        "`<|eot|>`"
    )
    grammar = "xml"
    open_tag = "<atem:function_calls>"
    close_tag = "</atem:function_calls>"
    invoke_tag = "atem:invoke"
    parameter_tag = "atem:parameter"

    def render(self, response: Response, variant: str | None = None) -> str:
        messages = self._text_message("self", response.reasoning or "")
        messages += self._call_messages(response.reasoning_calls)
        messages += self._text_message("self", response.reasoning_tail)
        messages += self._text_message("user", response.content)
        messages += self._call_messages(response.calls)
        messages += self._text_message("user", response.content_tail)
        if not messages:
            return ""
        ends = ["<|eom|>"] * (len(messages) - 1) + ["<|eot|>"]
        return "<|start|>assistant".join(map("".join, zip(messages, ends, strict=True)))

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """One message per call, each with its own ``<|start|>assistant`` and ``<|eom|>``:
        calls that follow other output (``render`` leaves out the first, which the prompt
        wrote)."""
        return "".join(
            f"<|start|>assistant{message}<|eom|>" for message in self._call_messages(calls)
        )

    def invoke(self, call: Call) -> str:
        return super().invoke(Call(_doubled(call.name), call.arguments))

    def value_end_tags(self) -> tuple[str, ...]:
        return (*super().value_end_tags(), *MARKERS)

    def fit_text(self, text: str) -> str:
        """Text without the markers, which would end its body."""
        for marker in MARKERS:
            text = text.replace(marker, "")
        return text

    def request(self, response: Response, tools: list[dict[str, Any]] | None) -> Request:
        """Any request: the headers route, there is no thinking switch."""
        return Request(tools=tools)

    def _call_messages(self, calls: Sequence[Call]) -> list[str]:
        return [
            f" to={_doubled(call.name)}<|message|>{self.open_tag}\n{self.invoke(call)}"
            f"{self.close_tag}"
            for call in calls
        ]

    @staticmethod
    def _text_message(recipient: str, text: str) -> list[str]:
        return [f" to={recipient}<|message|>{text}"] if text else []


def _doubled(name: str) -> str:
    """The name as the model writes it: a name without a namespace is its own namespace."""
    return name if "." in name else f"{name}.{name}"


class MuseGlimmerRenderer(MuseRenderer):
    """Muse's layout; the Glimmer profile reads every value as JSON, and joins two
    reasoning messages with a newline (so no reasoning follows a call in reasoning)."""

    dialect = "muse_glimmer"
    layout = (
        "as `muse`; a string that reads as JSON is not drawn (Glimmer decodes every value), "
        "nor reasoning after a call (two reasoning messages read back joined by a newline)"
    )
    supports = MuseRenderer.supports - {REASONING_TAIL}

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        """A string is carried only where it does not read as JSON, whatever the schema."""
        anything = {"properties": dict.fromkeys(call.arguments, _ANY_JSON)}
        return fit_typed_call(call, anything, value_end_tags=self.value_end_tags())


#: A parameter schema that allows every JSON type: how Glimmer reads any value.
_ANY_JSON = {"type": sorted(JSON_TYPES)}


register(MuseRenderer())
register(MuseGlimmerRenderer())
