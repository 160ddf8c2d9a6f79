"""gpt-oss (OpenAI Harmony): a sequence of messages, each on a channel.

``render("gpt_oss", Response(reasoning="Hm.", content="Hi."))`` →
``'<|channel|>analysis<|message|>Hm.<|end|><|start|>assistant<|channel|>final<|message|>Hi.
<|return|>'``.

The prompt ends with ``<|start|>assistant``, so the first message starts at its channel and
every later one with ``<|start|>assistant``. Reasoning is an ``analysis`` message; a call is
a ``commentary`` message to ``functions.NAME`` whose body is the JSON arguments, ended by
``<|call|>``; content before calls is a ``commentary`` preamble, any other content a
``final`` message ended by ``<|return|>``. The parser routes each body by its header, so
reasoning may go on after calls (another ``analysis`` message) and content after them
(a ``final`` one). Empty bodies are not written.

The recipient stands where gpt-oss writes it, after the channel (``recipient-in-channel``:
``<|channel|>commentary to=functions.f <|constrain|>json<|message|>``), or in the role
header, which Harmony also allows and llama.cpp's parser reads too (``recipient-in-header``:
`` to=functions.f<|channel|>commentary json<|message|>``). Arguments are JSON; a value whose
text holds a Harmony marker (a special token that ends any body) is not carried.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..responses import Call, Response
from . import (
    CALLS,
    CONTENT_TAIL,
    MULTIPLE_CALLS,
    REASONING,
    REASONING_CALLS,
    REASONING_TAIL,
    Renderer,
    register,
)

RECIPIENT_IN_CHANNEL = "recipient-in-channel"
RECIPIENT_IN_HEADER = "recipient-in-header"
MARKERS = (
    "<|start|>",
    "<|channel|>",
    "<|message|>",
    "<|constrain|>",
    "<|end|>",
    "<|call|>",
    "<|return|>",
)


def _arguments(call: Call) -> str:
    return json.dumps(dict(call.arguments), ensure_ascii=False)


def _call_message(call: Call, variant: str) -> str:
    """A call's message without its ``<|start|>assistant``."""
    recipient = f"to=functions.{call.name}"
    if variant == RECIPIENT_IN_HEADER:
        header = f" {recipient}<|channel|>commentary json"
    else:
        header = f"<|channel|>commentary {recipient} <|constrain|>json"
    return f"{header}<|message|>{_arguments(call)}<|call|>"


def _text_message(channel: str, text: str, end: str) -> list[str]:
    return [f"<|channel|>{channel}<|message|>{text}{end}"] if text else []


class GptOssRenderer(Renderer):
    dialect = "gpt_oss"
    layout = (
        "Harmony messages: `analysis` reasoning, `commentary` calls to `functions.N` ended by "
        "`<|call|>`, a `commentary` preamble before calls, `final` content; the recipient "
        "after the channel or in the header (variants `recipient-in-channel`, "
        "`recipient-in-header`)"
    )
    grammar = "harmony"
    supports = frozenset(
        {REASONING, REASONING_CALLS, REASONING_TAIL, CALLS, MULTIPLE_CALLS, CONTENT_TAIL}
    )
    variants = (RECIPIENT_IN_CHANNEL, RECIPIENT_IN_HEADER)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """One message per call, each with its own ``<|start|>assistant``: a call that
        follows other output (``render`` leaves out the first, which the prompt wrote)."""
        variant = variant or RECIPIENT_IN_CHANNEL
        return "".join(f"<|start|>assistant{_call_message(call, variant)}" for call in calls)

    def render(self, response: Response, variant: str | None = None) -> str:
        variant = variant or RECIPIENT_IN_CHANNEL
        messages = _text_message("analysis", response.reasoning or "", "<|end|>")
        messages += [_call_message(call, variant) for call in response.reasoning_calls]
        messages += _text_message("analysis", response.reasoning_tail, "<|end|>")
        if response.calls:
            messages += _text_message("commentary", response.content, "<|end|>")
        else:
            messages += _text_message("final", response.content, "<|return|>")
        messages += [_call_message(call, variant) for call in response.calls]
        messages += _text_message("final", response.content_tail, "<|return|>")
        return "<|start|>assistant".join(messages)

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        """Every call whose arguments hold no Harmony marker."""
        text = _arguments(call)
        return None if any(marker in text for marker in MARKERS) else call


register(GptOssRenderer())
