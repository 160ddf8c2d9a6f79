"""openai-harmony: its ``StreamableParser`` over token ids, for the ``gpt_oss`` dialect.

openai-harmony is OpenAI's reference parser of the Harmony format, which the engines wrap
(vLLM's ``HarmonyParser``, LMDeploy's ``gpt-oss`` response parser). It parses token ids of
the ``o200k_harmony`` encoding, one ``process(token)`` at a time, and reports per token the
current channel, recipient and ``last_content_delta``; it knows nothing of chat-completion
deltas. The adapter maps its messages onto them the way the Harmony documentation defines the
channels:

- ``analysis`` without a recipient → ``reasoning_content``;
- ``final``, and ``commentary`` without a recipient (a preamble) → ``content``;
- a recipient ``functions.NAME`` (on ``commentary`` or ``analysis``) → a tool call named
  NAME, announced when its header is complete (before any arguments), ids ``call_N``;
- other recipients (built-in tools such as ``browser.search``) are not function calls and
  produce nothing.

Harmony has no notion of the request's tools, so no name is filtered. The response starts
after the prompt's ``<|start|>assistant`` (``role=assistant``). ``feed`` uses the token ids it
is given (``tokenizer_family="gpt-oss"``); without ids it encodes the chunk's text with the
Harmony encoding, special tags included. The vocabulary is loaded offline
(:mod:`.harmony_vocab`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .base import Engine, EngineFactory, tool_call_dict
from .harmony_vocab import harmony_encoding

ENGINE = Engine(
    name="openai-harmony",
    distribution="openai-harmony",
    homepage="https://github.com/openai/harmony",
    tox_env="harmony",
)

FUNCTION_RECIPIENT = "functions."
DIALECTS = {
    "gpt_oss": (
        "StreamableParser(HARMONY_GPT_OSS, role=assistant); analysis → reasoning, final and "
        "recipient-less commentary → content, to=functions.NAME → tool call"
    )
}


class _Harmony:
    """The imported library and its encoding."""

    def __init__(self) -> None:
        self.library = importlib.import_module("openai_harmony")
        self.encoding = harmony_encoding()
        #: The tokens that end a message: the next call message begins after one of them.
        self.message_ends = frozenset(
            token
            for marker in ("<|end|>", "<|call|>", "<|return|>")
            for token in self.encoding.encode(marker, allowed_special="all")
        )


class HarmonySession:
    """One assistant response through one ``StreamableParser``."""

    def __init__(self, harmony: _Harmony) -> None:
        self._harmony = harmony
        library = harmony.library
        self._parser = library.StreamableParser(harmony.encoding, role=library.Role.ASSISTANT)
        self._calls = 0
        # Whether the current message's call was announced (when its body began). Told by
        # the tokens that end a message: ``parser.messages`` and ``parser.state`` serialise
        # the parser's whole state, so reading them with every token is quadratic.
        self._announced = False

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        ids = token_ids if token_ids is not None else self._encode(text)
        deltas: list[dict[str, Any]] = []
        for token in ids:
            self._parser.process(token)
            self._route(deltas)
            if token in self._harmony.message_ends:
                self._announced = False
        return deltas

    def finish(self, text: str = "", token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        """The last chunk's tokens, if any, then end of stream (``process_eos``)."""
        deltas = self.feed(text, token_ids) if text else []
        self._parser.process_eos()
        return deltas

    def parse(self, text: str) -> dict[str, Any]:
        """The complete parse: ``parse_messages_from_completion_tokens``, mapped as above."""
        library = self._harmony.library
        messages = self._harmony.encoding.parse_messages_from_completion_tokens(
            self._encode(text), role=library.Role.ASSISTANT
        )
        content: list[str] = []
        reasoning: list[str] = []
        calls: list[dict[str, Any]] = []
        for message in messages:
            body = "".join(part.text for part in message.content)
            kind = _kind(message.channel, message.recipient)
            if kind == "call":
                name = message.recipient[len(FUNCTION_RECIPIENT) :]
                calls.append(
                    {
                        "id": f"call_{len(calls)}",
                        "type": "function",
                        "function": {"name": name, "arguments": body},
                    }
                )
            elif kind == "reasoning":
                reasoning.append(body)
            elif kind == "content":
                content.append(body)
        return {
            "content": "".join(content),
            "reasoning_content": "".join(reasoning) if reasoning else None,
            "tool_calls": calls,
        }

    def _route(self, deltas: list[dict[str, Any]]) -> None:
        """Turn the parser's state after one token into at most a couple of deltas."""
        parser = self._parser
        channel, recipient = parser.current_channel, parser.current_recipient
        kind = _kind(channel, recipient)
        if kind == "call" and not self._announced and str(parser.state).endswith("CONTENT"):
            self._announced = True
            self._calls += 1
            name = recipient[len(FUNCTION_RECIPIENT) :]
            index = self._calls - 1
            deltas.append(
                {"tool_calls": [tool_call_dict(index, f"call_{index}", "function", name, None)]}
            )
        piece = parser.last_content_delta
        if not piece:
            return
        if kind == "call":
            index = self._calls - 1
            deltas.append({"tool_calls": [tool_call_dict(index, None, None, None, piece)]})
        elif kind == "reasoning":
            deltas.append({"reasoning_content": piece})
        elif kind == "content":
            deltas.append({"content": piece})

    def _encode(self, text: str) -> list[int]:
        return list(self._harmony.encoding.encode(text, allowed_special="all")) if text else []


def _kind(channel: str | None, recipient: str | None) -> str | None:
    """What a message on ``channel`` addressed to ``recipient`` is in chat-completion terms."""
    if recipient:
        return "call" if recipient.startswith(FUNCTION_RECIPIENT) else None
    if channel == "analysis":
        return "reasoning"
    if channel in ("final", "commentary"):
        return "content"
    return None


def _open(harmony: _Harmony, _dialect: str, _request: Mapping[str, Any], _family: Any) -> Any:
    return HarmonySession(harmony)


factory = EngineFactory(ENGINE, DIALECTS, _Harmony, _open, api="StreamableParser")
