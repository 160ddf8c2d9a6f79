"""SGLang 0.5.x: ``ReasoningParser`` then ``FunctionCallParser``, as ``serving_chat`` runs them.

Per engine step the server first splits the delta with the reasoning parser
(``parse_stream_chunk``) and hands the reasoning parser's normal text to the function-call
parser; on the last step (the stop token, an empty delta) it also calls ``parse_stream_end``
on both and streams the arguments of the last call that its detector parsed but never
streamed. The adapter does exactly that, with two choices of its own:

- **Draining.** SGLang's detectors advance at most one state per ``parse_streaming_increment``,
  so a chunk holding two calls releases the second only on further calls; SGLang's tests
  poke with ``""`` until nothing comes out. ``factory`` drains after every chunk (the API as
  its own test suite drives it); ``serving_factory`` does not, like ``serving_chat`` 0.5.23,
  which pokes once only through the empty final step.
  The pokes after one chunk are bounded (``DRAIN_LIMIT``): a detector that answers every
  poke would otherwise never be drained.
- **Positions.** Calls are indexed by their position in the stream (a new call starts at each
  item that carries a name), not by SGLang's ``tool_index``.

Which responses start inside reasoning comes, on a server, from the chat template; without a
template the server falls back to the detector's ``reasoning_default`` and the request's
``chat_template_kwargs``, which the adapter applies. ``sglang/__init__.py`` imports the whole
runtime (torch.distributed, triton, the HTTP server); the adapter registers ``sglang`` and
``sglang.srt`` as bare packages over the installed folders so that only the parser modules
and what they import run. Tool-call ids follow the server: ``call_<24 hex>``, and
``functions.NAME:INDEX`` for ``kimi_k2``.
"""

from __future__ import annotations

import importlib
import json
import sys
import types
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import util
from typing import Any

from .base import NOT_CERTIFIED, Engine, EngineFactory, tool_call_dict

ENGINE = Engine(
    name="SGLang",
    distribution="sglang",
    homepage="https://github.com/sgl-project/sglang",
    tox_env="sglang",
)

#: Pokes with "" after one chunk, at most (draining adapter).
DRAIN_LIMIT = 32


@dataclass(frozen=True)
class Binding:
    """The ``--tool-call-parser`` and ``--reasoning-parser`` an SGLang server uses."""

    tool_parser: str | None = None
    reasoning_parser: str | None = None

    def describe(self) -> str:
        return ", ".join(
            (
                f"--tool-call-parser {self.tool_parser}" if self.tool_parser else "no tool parser",
                f"--reasoning-parser {self.reasoning_parser}"
                if self.reasoning_parser
                else "no reasoning parser",
            )
        )


#: Our dialect names → SGLang 0.5.23's registered parser names (as its model docs pair them).
BINDINGS: dict[str, Binding] = {
    "qwen3": Binding("qwen25", "qwen3"),
    "qwen25": Binding("qwen25"),
    "internlm": Binding("interns1"),
    "llama3_json": Binding("llama3"),
    "deepseek_r1": Binding(None, "deepseek-r1"),
    "qwen3_coder": Binding("qwen3_coder"),
    "qwen35": Binding("qwen3_coder", "qwen3"),
    "glm45": Binding("glm45", "glm45"),
    "glm47": Binding("glm47", "glm45"),
    "minimax_m2": Binding("minimax-m2", "minimax"),
    "minimax_m3": Binding("minimax-m3", "minimax-m3"),
    "deepseek_v3": Binding("deepseekv3"),
    "deepseek_v31": Binding("deepseekv31", "deepseek-v3"),
    "deepseek_v32": Binding("deepseekv32", "deepseek-v3"),
    "deepseek_v4": Binding("deepseekv4", "deepseek-v4"),
    "kimi_k2": Binding("kimi_k2", "kimi_k2"),
    "mistral": Binding("mistral"),
    "gpt_oss": Binding("gpt-oss", "gpt-oss"),
    # JSON in tags / after a marker: SGLang has no detector for longcat, granite*,
    # ernie45, jamba, hunyuan_a13b (its "hunyuan" reads Hunyuan 3's format) or phi4_mini_json.
    "hermes": Binding("hermes"),
    "trinity": Binding("trinity", "qwen3"),
    "apertus": Binding("apertus2509", "apertus2509"),
    # Pythonic, Gemma and reasoning-only dialects. SGLang has no OLMo 3 or
    # FunctionGemma parser; its pythonic detector strips Llama 4's <|python_start|> and
    # <|python_end|> itself.
    "pythonic": Binding("pythonic"),
    "llama4_pythonic": Binding("pythonic"),
    "lfm2": Binding("lfm2"),
    "gemma4": Binding("gemma4", "gemma4"),
    "kimi_vl": Binding(None, "kimi"),
    # XML-like and DSML families (Qwen3-Coder XML, GLM pairs, invoke/parameter,
    # DSML). SGLang has no Seed-OSS, Step-5 or Hy4 detector.
    "mimo": Binding("mimo", "mimo"),
    "step3p5": Binding("step3p5", "step3p5"),
    "nanbeige": Binding("nanbeige", "nanbeige"),
    "ling3": Binding("ling3", "ling3"),
    "poolside_v1": Binding("poolside_v1", "poolside_v1"),
    "spark25": Binding("spark25"),
    "iquest_q1": Binding("iquest_q1", "iquest_q1"),
    "hy_v3": Binding("hunyuan", "hunyuan"),
    "dots": Binding("dots", "dots"),
    "deepseek_v41": Binding("deepseekv41", "deepseek-v41"),
    "gigachat35": Binding("gigachat35", "gigachat35"),
    "k2_horizon": Binding("k2_horizon", "k2_horizon"),
    "step3": Binding("step3", "step3"),
    "nemotron3": Binding("qwen3_coder", "nemotron_3"),
    "granite42": Binding("qwen3_coder", "granite_thinking_parser"),
    "kimi_k3": Binding("kimi_k3", "kimi_k3"),
    # The dialects that follow (SGLang has no xLAM detector).
    "minicpm5": Binding("minicpm5"),
    "gigachat3": Binding("gigachat3"),
    "gigachat31": Binding("gigachat3"),
    "inkling": Binding("inkling", "inkling"),
    # SGLang's muse detectors read the Glimmer profile (MuseGlimmerDetector).
    "muse_glimmer": Binding("muse", "muse"),
}


class _Api:
    """The imported parser classes and protocol models of SGLang."""

    def __init__(self) -> None:
        _bypass_package_init()
        self.function_call_parser = importlib.import_module(
            "sglang.srt.function_call.function_call_parser"
        ).FunctionCallParser
        self.reasoning_parser = importlib.import_module(
            "sglang.srt.parser.reasoning_parser"
        ).ReasoningParser
        self.protocol = importlib.import_module("sglang.srt.entrypoints.openai.protocol")

    def request(self, body: Mapping[str, Any]) -> Any:
        """SGLang's own request object for an OpenAI request body."""
        fields = {
            "model": "toolconform",
            "messages": [{"role": "user", "content": "toolconform"}],
            **body,
            "stream": True,
        }
        return self.protocol.ChatCompletionRequest(**fields)


def _bypass_package_init() -> None:
    """Make the parser modules importable without SGLang's runtime (module docstring)."""
    if "sglang" in sys.modules:
        return
    spec = util.find_spec("sglang")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("No module named 'sglang'")
    root = next(iter(spec.submodule_search_locations))
    for name, path in (("sglang", root), ("sglang.srt", f"{root}/srt")):
        package = types.ModuleType(name)
        package.__path__ = [path]
        package.__package__ = name
        sys.modules[name] = package


def _starts_in_reasoning(name: str, detector: Any, request: Any) -> bool:
    """``serving_chat``'s decision (``_get_reasoning_from_request``) when no chat template
    says so: the detector's default, or for ``minimax-m3`` the template's ``thinking_mode``
    (only ``enabled`` prefills ``<mm:think>``)."""
    kwargs = request.chat_template_kwargs or {}
    if name == "minimax-m3":
        return kwargs.get("thinking_mode") == "enabled"
    mode = getattr(detector, "reasoning_default", None)
    if mode == "always":
        return True
    if mode == "mistral":
        return request.reasoning_effort not in (None, "none")
    if mode in ("thinking", "enable_thinking"):
        return kwargs.get(mode) is not False
    if mode in ("explicit_thinking", "explicit_enable_thinking"):
        return kwargs.get(mode.removeprefix("explicit_")) is True
    return False


class SGLangSession:
    """One response through SGLang's reasoning and function-call parsers."""

    def __init__(self, api: _Api, dialect: str, body: Mapping[str, Any], *, drain: bool) -> None:
        self._api = api
        self._binding = BINDINGS[dialect]
        self._request = api.request(body)
        self._drain = drain
        self._tools = list(self._request.tools or [])
        self._tool_active = bool(self._binding.tool_parser) and self._tool_parsing_active()
        self._reasoning = self._reasoning_parser(stream=True) if self._uses_reasoning() else None
        self._calls = self._function_call_parser() if self._tool_active else None
        self._position: dict[int, int] = {}
        self._count = 0

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        return self._step(text, final=False)

    def finish(self, text: str = "", token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        """The last step (``parse_stream_end``, the unstreamed arguments), with the last
        chunk's text, if any, in it."""
        return self._step(text, final=True)

    def parse(self, text: str) -> dict[str, Any]:
        """The non-streaming server path: ``parse_non_stream`` of both parsers."""
        reasoning = None
        if self._uses_reasoning():
            reasoning, text = self._reasoning_parser(stream=False).parse_non_stream(text)
        calls: list[dict[str, Any]] = []
        if self._tool_active:
            parser = self._function_call_parser()
            if parser.has_tool_call(text):
                try:
                    text, items = parser.parse_non_stream(text)
                except Exception:  # the server logs the error and keeps the text, no calls
                    items = []
                for item in items:
                    calls.append(
                        {
                            "id": self._call_id(item.name, len(calls)),
                            "type": "function",
                            "function": {"name": item.name, "arguments": item.parameters},
                        }
                    )
        return {"content": text, "reasoning_content": reasoning, "tool_calls": calls}

    def _step(self, delta: str, *, final: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if self._reasoning is not None:
            reasoning, delta = self._reasoning.parse_stream_chunk(delta)
            reasoning, delta = reasoning or "", delta or ""
            if final:
                end_reasoning, end_normal = self._reasoning.parse_stream_end()
                reasoning += end_reasoning or ""
                delta += end_normal or ""
            if reasoning:
                out.append({"reasoning_content": reasoning})
        if self._calls is None:
            if delta:
                out.append({"content": delta})
            return out
        self._emit(out, *self._calls.parse_stream_chunk(delta))
        if self._drain:
            # A detector that answers every poke (DeepSeek-V3.1's re-sends the same
            # arguments) would be drained forever: a chunk holds at most a few calls, so a
            # bounded number of pokes releases all it can, and the repeats stay visible.
            for _ in range(DRAIN_LIMIT):
                if not self._emit(out, *self._calls.parse_stream_chunk("")):
                    break
        if final:
            self._emit(out, *self._calls.parse_stream_end())
            self._emit_unstreamed_arguments(out)
        return out

    def _emit(self, out: list[dict[str, Any]], normal: str | None, items: list[Any]) -> bool:
        """Append one parser step's normal text and call items; whether there was any."""
        if normal:
            out.append({"content": normal})
        for item in items:
            out.append({"tool_calls": [self._entry(item)]})
        return bool(normal or items)

    def _entry(self, item: Any) -> dict[str, Any]:
        """A call item as a delta entry, indexed by the call's position in the stream."""
        if item.name or item.tool_index not in self._position:
            self._position[item.tool_index] = self._count
            self._count += 1
        index = self._position[item.tool_index]
        call_id = self._call_id(item.name, item.tool_index) if item.name else None
        return tool_call_dict(index, call_id, "function", item.name or None, item.parameters)

    def _emit_unstreamed_arguments(self, out: list[dict[str, Any]]) -> None:
        """What ``serving_chat`` sends at the end: the last call's arguments not yet streamed."""
        detector = self._calls.detector
        parsed = getattr(detector, "prev_tool_call_arr", None)
        streamed = getattr(detector, "streamed_args_for_tool", None)
        if not parsed or not streamed:
            return
        last = len(parsed) - 1
        if last >= len(streamed):
            return
        expected = parsed[last].get("arguments", {})
        if not isinstance(expected, str):
            expected = json.dumps(expected, ensure_ascii=False)
        sent = streamed[last]
        if expected.startswith(sent) and len(expected) > len(sent):
            index = self._position.get(last, last)
            out.append(
                {
                    "tool_calls": [
                        tool_call_dict(index, None, "function", None, expected[len(sent) :])
                    ]
                }
            )

    def _call_id(self, name: str, tool_index: int) -> str:
        if self._binding.tool_parser == "kimi_k2":
            return f"functions.{name}:{tool_index}"
        return f"call_{uuid.uuid4().hex[:24]}"

    def _uses_reasoning(self) -> bool:
        return bool(self._binding.reasoning_parser) and self._request.separate_reasoning

    def _tool_parsing_active(self) -> bool:
        if not self._tools:
            enum = self._api.function_call_parser.ToolCallParserEnum
            return enum[self._binding.tool_parser].parses_without_tools()
        if self._request.tool_choice == "none":
            return False
        if self._request.tool_choice != "auto" and not self._parses_choice_natively():
            raise NotImplementedError(
                "SGLang answers tool_choice 'required' or a named tool with a grammar-"
                "constrained output; this adapter models it only where the detector parses "
                "it in its own format without a grammar (parses_required_natively)"
            )
        return True

    def _parses_choice_natively(self) -> bool:
        """Whether serving parses a 'required' or named tool_choice with the detector
        itself, as under 'auto' and with no grammar to keep other tools out
        (``serving_chat``: ``parses_required_natively``)."""
        return bool(self._function_call_parser().detector.parses_required_natively())

    def _reasoning_parser(self, *, stream: bool) -> Any:
        name = self._binding.reasoning_parser
        default = self._api.reasoning_parser(model_type=name, stream_reasoning=True).detector
        return self._api.reasoning_parser(
            model_type=name,
            stream_reasoning=self._request.stream_reasoning if stream else False,
            force_reasoning=_starts_in_reasoning(name, default, self._request),
            request=self._request,
            tool_call_parser_active=self._tool_active,
        )

    def _function_call_parser(self) -> Any:
        choice = self._request.tool_choice
        return self._api.function_call_parser(
            tools=self._tools,
            tool_call_parser=self._binding.tool_parser,
            tool_choice=None if choice in ("auto", "none") else choice,
        )


def _open(drain: bool) -> Any:
    def open_session(api: _Api, dialect: str, request: Mapping[str, Any], _family: Any) -> Any:
        return SGLangSession(api, dialect, request, drain=drain)

    return open_session


_DIALECTS = {name: binding.describe() for name, binding in BINDINGS.items()}

#: The parsers driven as SGLang's own tests drive them: drained with ``""`` after each chunk.
factory = EngineFactory(ENGINE, _DIALECTS, _Api, _open(drain=True), api="parsers, drained")

#: Registered names served by another name's parser class (``kind:name`` → that name).
ALIASES: dict[str, str] = {
    # The same detector class, built the same way (function_call_parser.py and
    # reasoning_parser.py map these names to it).
    "tool:qwen": "qwen25",
    "tool:glm": "glm45",
    "reasoning:interns1": "qwen3",
    "reasoning:qwen3-thinking": "minimax",
}
#: Registered names not certified here, and why (``kind:name`` → the reason).
UNCOVERED: dict[str, str] = {
    "tool:beam": NOT_CERTIFIED["template"],
    "reasoning:beam": NOT_CERTIFIED["template"],
    "tool:response_template": NOT_CERTIFIED["template"],
    "reasoning:response_template": NOT_CERTIFIED["template"],
    "tool:cohere_command4": NOT_CERTIFIED["cohere"],
    "reasoning:cohere_command4": NOT_CERTIFIED["cohere"],
    "reasoning:minimax-append-think": NOT_CERTIFIED["minimax_append_think"],
    "reasoning:mistral": NOT_CERTIFIED["magistral"],
}


def registered_names() -> dict[str, list[str]]:
    """The tool detector and reasoning parser names this SGLang registers."""
    api = factory.load()
    return {
        "tool": sorted(api.function_call_parser.ToolCallParserEnum),
        "reasoning": sorted(api.reasoning_parser.DetectorMap),
    }


#: The parsers driven exactly as ``serving_chat`` 0.5.23 drives them (no draining).
serving_factory = EngineFactory(ENGINE, _DIALECTS, _Api, _open(drain=False), api="serving_chat")
