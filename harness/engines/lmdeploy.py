"""LMDeploy ≥ 0.18: its response parser, one instance per response, as its API server runs it.

LMDeploy 0.18 is the first release with seed 000's architecture: a ``ResponseParser``
(registry ``default``) composed from a registered reasoning parser and tool parser, fed with
``stream_chunk(delta_text, delta_token_ids, final=...)``; GPT-OSS has its own response
parser (``gpt-oss``) that reads token ids through openai-harmony.

Two things keep the adapter faithful without the engine's GPU stack:

- **Light import.** ``lmdeploy/__init__.py`` imports torch, transformers and the inference
  pipeline; the parsers need none of them. Before the first import, ``lmdeploy`` and
  ``lmdeploy.serve`` are registered as bare packages over the installed folders and
  ``lmdeploy.utils`` as a module that only provides ``get_logger`` (the one name the parsers
  take from it). The parser code that runs is the installed release, unchanged.
- **Class-state isolation.** ``set_parsers`` writes class attributes of the response parser
  (research §5, §8.9), so each dialect is configured on a throw-away subclass of its own and
  sessions of different dialects never see each other's parsers.

The request body is validated by LMDeploy's own pydantic ``ChatCompletionRequest``, so fields
it does not know (e.g. a top-level ``thinking``) are ignored as the server would ignore them.
The end of a stream is an empty engine step with ``final=True``, as when the last step only
carries the stop token. Deltas are serialized as the server does
(``model_dump(mode="json", exclude_none=True)``), keeping ``content``, ``reasoning_content``
and ``tool_calls``.
"""

from __future__ import annotations

import importlib
import logging
import sys
import types
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import util
from typing import Any

from .base import Engine, EngineFactory
from .harmony_vocab import harmony_encoding

ENGINE = Engine(
    name="LMDeploy",
    distribution="lmdeploy",
    homepage="https://github.com/InternLM/lmdeploy",
    tox_env="lmdeploy",
)

#: The fields of a streamed delta that the adapter contract carries.
DELTA_FIELDS = ("content", "reasoning_content", "tool_calls")


@dataclass(frozen=True)
class Binding:
    """How one of our dialects is configured on an LMDeploy server (its CLI flags)."""

    tool_parser: str | None = None
    reasoning_parser: str | None = None
    response_parser: str = "default"
    note: str = ""

    def describe(self) -> str:
        if self.response_parser != "default":
            parts = [f"response parser {self.response_parser!r}"]
        else:
            parts = [
                f"--tool-call-parser {self.tool_parser}" if self.tool_parser else "no tool parser",
                f"--reasoning-parser {self.reasoning_parser}"
                if self.reasoning_parser
                else "no reasoning parser",
            ]
        text = ", ".join(parts)
        return f"{text} ({self.note})" if self.note else text


#: Our dialect names → LMDeploy 0.18.0's registered parser names.
BINDINGS: dict[str, Binding] = {
    "qwen3": Binding("qwen3", "default"),
    "qwen25": Binding("qwen2d5"),
    "internlm": Binding("internlm"),
    "llama3_json": Binding("llama3"),
    "deepseek_r1": Binding(None, "default", note="'deepseek-r1' is a deprecated alias of it"),
    "qwen3_coder": Binding("qwen3coder"),
    "qwen35": Binding("qwen3coder", "default"),
    "glm45": Binding(
        "glm47",
        "default",
        note="no GLM-4.5 parser is registered; glm47 is LMDeploy's only GLM tool parser",
    ),
    "glm47": Binding("glm47", "default"),
    "deepseek_v32": Binding("deepseek-v32", "deepseek-v32"),
    "deepseek_v4": Binding("deepseek-v4", "deepseek-v4"),
    "kimi_k2": Binding(
        "kimi_k2",
        "default",
        note="0.18.0 registers no Kimi reasoning parser; K2.5 thinks in <think> from the start",
    ),
    "gpt_oss": Binding(
        response_parser="gpt-oss", note="openai-harmony over token ids; needs openai_harmony"
    ),
}


class _Parsers:
    """The imported engine: its request model and one configured parser class per dialect."""

    def __init__(self) -> None:
        _bypass_package_init()
        self.request_model = importlib.import_module(
            "lmdeploy.serve.openai.protocol"
        ).ChatCompletionRequest
        # Importing the package registers every response parser, ``gpt-oss`` included.
        self.manager = importlib.import_module("lmdeploy.serve.parsers").ResponseParserManager
        self._classes: dict[str, type] = {}

    def parser_class(self, dialect: str) -> type:
        """A subclass of the registered response parser holding this dialect's parsers."""
        cls = self._classes.get(dialect)
        if cls is None:
            binding = BINDINGS[dialect]
            if binding.response_parser == "gpt-oss":
                try:
                    harmony_encoding()
                except ImportError as error:
                    raise ENGINE.missing(error) from error
            base = self.manager.get(binding.response_parser)
            attributes = {"reasoning_parser_cls": None, "tool_parser_cls": None, "tokenizer": None}
            if binding.response_parser != "default":
                attributes = {}
            cls = type(f"Toolconform_{dialect}", (base,), attributes)
            if binding.response_parser == "default":
                cls.set_parsers(
                    reasoning_parser_name=binding.reasoning_parser,
                    tool_parser_name=binding.tool_parser,
                )
            self._classes[dialect] = cls
        return cls

    def request(self, body: Mapping[str, Any]) -> Any:
        """LMDeploy's own request object for an OpenAI request body."""
        fields = {"model": "toolconform", "messages": [], **body, "stream": True}
        return self.request_model(**fields)


def _bypass_package_init() -> None:
    """Make ``lmdeploy.serve.parsers`` importable without torch (see the module docstring)."""
    if "lmdeploy" in sys.modules:
        return
    spec = util.find_spec("lmdeploy")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("No module named 'lmdeploy'")
    root = next(iter(spec.submodule_search_locations))
    for name, path in (("lmdeploy", root), ("lmdeploy.serve", f"{root}/serve")):
        package = types.ModuleType(name)
        package.__path__ = [path]
        package.__package__ = name
        sys.modules[name] = package
    logs = types.ModuleType("lmdeploy.utils")
    logs.get_logger = lambda name="lmdeploy", *args, **kwargs: logging.getLogger(name)  # type: ignore[attr-defined]
    sys.modules["lmdeploy.utils"] = logs


class LMDeploySession:
    """One response through one LMDeploy response parser."""

    def __init__(self, parsers: _Parsers, dialect: str, request: Mapping[str, Any]) -> None:
        self._cls = parsers.parser_class(dialect)
        self._request = parsers.request(request)
        self._parser = self._cls(self._request)
        self._token_driven = BINDINGS[dialect].response_parser == "gpt-oss"

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        ids = self._ids(text, token_ids)
        return _deltas(self._parser.stream_chunk(text, ids, final=False))

    def finish(self, text: str = "", token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        """``stream_chunk(..., final=True)``: LMDeploy's parser takes the last chunk with the
        end of the stream itself."""
        return _deltas(self._parser.stream_chunk(text, self._ids(text, token_ids), final=True))

    def parse(self, text: str) -> dict[str, Any]:
        """The non-streaming result: ``parse_complete`` on a fresh parser, as the server does."""
        content, calls, reasoning = self._cls(self._request).parse_complete(
            text, self._ids(text, None) or None
        )
        return {
            "content": content,
            "reasoning_content": reasoning,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": call.type,
                    "function": {"name": call.function.name, "arguments": call.function.arguments},
                }
                for call in calls or ()
            ],
        }

    def _ids(self, text: str, token_ids: list[int] | None) -> list[int]:
        """The ids of a chunk; the GPT-OSS parser reads only ids, so text alone is encoded."""
        if token_ids is not None:
            return list(token_ids)
        if self._token_driven and text:
            return list(harmony_encoding().encode(text, allowed_special="all"))
        return []


def _deltas(pairs: list[tuple[Any, bool]]) -> list[dict[str, Any]]:
    """LMDeploy's ``(DeltaMessage, tool_emitted)`` pairs as the server serializes them."""
    deltas = []
    for message, _ in pairs:
        dumped = message.model_dump(mode="json", exclude_none=True)
        deltas.append({key: dumped[key] for key in DELTA_FIELDS if key in dumped})
    return deltas


factory = EngineFactory(
    ENGINE,
    {name: binding.describe() for name, binding in BINDINGS.items()},
    _Parsers,
    lambda parsers, dialect, request, _family: LMDeploySession(parsers, dialect, request),
    api="response parser",
)
