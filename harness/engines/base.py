"""What every engine adapter shares: the factory object, its metadata and its two errors.

An engine adapter is the in-process adapter of the harness for a third-party
parser: ``factory(dialect, request, *, tokenizer_family=None) -> session``. The engines are
heavy optional installs, so a factory module must import without its engine; the engine is
imported on the first call, and a missing engine becomes one ``ImportError`` line that names
the tox environment which installs it. A dialect the engine has no parser for is a
``LookupError`` that lists the dialects it does cover.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Protocol

from ..chunkings import Ending


class EngineSession(Protocol):
    """One response: feed the engine chunks in order, then finish.

    Both return the OpenAI chat-completion-chunk deltas the engine streams, as plain dicts
    (``content``, ``reasoning_content``, ``tool_calls``).
    """

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]: ...

    def finish(
        self, text: str = "", token_ids: list[int] | None = None
    ) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class Engine:
    """A third-party parser implementation as the reports name it."""

    name: str
    #: The PyPI distribution whose installed version is reported.
    distribution: str
    homepage: str
    #: The tox environment that installs it (``tox -e NAME``).
    tox_env: str

    def version(self) -> str | None:
        """The installed version, read from package metadata without importing the engine."""
        try:
            return metadata.version(self.distribution)
        except metadata.PackageNotFoundError:
            return None

    def missing(self, cause: BaseException) -> ImportError:
        """The one-line error for an engine that cannot be imported here."""
        state = "is not installed" if self.version() is None else "cannot be imported"
        return ImportError(f"{self.name} {state} ({cause}): run `tox -e {self.tox_env}`")


#: Why a model family both engines register is not certified here (each engine's
#: ``UNCOVERED`` maps its own names onto these).
NOT_CERTIFIED = {
    "template": "template-driven: parses by a checkpoint's own response_template metadata",
    "cohere": "needs the cohere_melody package, which does not install here",
    "granite_markers": (
        "not yet a dialect: Granite 3.2's reasoning opens and closes at prose markers spelt "
        "several ways (Here is my thought process: / Here's my response:), and the response "
        "parser takes one open tag per dialect"
    ),
    "minimax_append_think": (
        "not yet a dialect: the whole output is content with <think> put in front once, "
        "</think> kept in the text and no reasoning (both engines), a text the model did not "
        "write; the minimax_m2 dialect separates the reasoning"
    ),
    "magistral": (
        "not yet a dialect: vLLM reads Magistral's [THINK] … [/THINK] only where [THINK] is "
        "a token of the vocabulary (tekken v13), which no mistral-common wheel checked ships "
        "(1.8.0, 1.10.0, 1.12.0, 1.13.1: tekken v3 only); SGLang matches the text, for "
        "requests that set reasoning_effort"
    ),
}


#: Opens a session: ``(engine module handle, dialect, request, tokenizer_family)``.
SessionOpener = Callable[[Any, str, Mapping[str, Any], str | None], EngineSession]


class EngineFactory:
    """The adapter callable: validates the dialect, imports the engine once, opens sessions.

    ``load`` imports the engine and returns whatever handle ``open_session`` needs; it runs on
    the first call only, so that listing adapters or reading their metadata stays cheap.
    Every engine session takes the last chunk with ``finish`` as its server does; one that
    runs the server's own finish-reason logic (``reports_finish_reason``) is also cut at
    ``max_tokens`` (the ``length`` ending) and reports the reason the client sees.
    """

    def __init__(
        self,
        engine: Engine,
        dialects: Mapping[str, str],
        load: Callable[[], Any],
        open_session: SessionOpener,
        *,
        api: str = "",
        reports_finish_reason: bool = False,
    ) -> None:
        self.endings = (
            Ending.STEP,
            Ending.WITH_LAST_CHUNK,
            *((Ending.LENGTH,) if reports_finish_reason else ()),
        )
        self.engine = engine
        #: ``{our dialect name: how it maps onto the engine's parser names}``.
        self.dialects = dict(dialects)
        self._load = load
        self._open_session = open_session
        self._api = api
        self._handle: Any = None

    @property
    def implementation(self) -> dict[str, Any]:
        """Name, version, language and homepage, as the report's header shows them."""
        name = f"{self.engine.name} ({self._api})" if self._api else self.engine.name
        return {
            "name": name,
            "version": self.engine.version(),
            "language": "python",
            "homepage": self.engine.homepage,
        }

    def import_error(self) -> str | None:
        """Why the engine cannot be used here, or ``None`` when it imports."""
        try:
            self.load()
        except ImportError as error:
            return str(error)
        return None

    def load(self) -> Any:
        """The engine handle, importing the engine on first use."""
        if self._handle is None:
            try:
                self._handle = self._load()
            except ImportError as error:
                raise self.engine.missing(error) from error
        return self._handle

    def __call__(
        self,
        dialect: str,
        request: Mapping[str, Any],
        *,
        tokenizer_family: str | None = None,
    ) -> EngineSession:
        if dialect not in self.dialects:
            covered = ", ".join(sorted(self.dialects))
            raise LookupError(
                f"{self.implementation['name']} has no parser for dialect {dialect!r}; "
                f"it covers: {covered}"
            )
        return self._open_session(self.load(), dialect, server_request(request), tokenizer_family)


def server_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """The request as a server of these engines receives it.

    The corpus turns thinking on or off with an engine-neutral top-level ``thinking`` flag,
    which no engine's request model knows: a client of these servers says it in
    ``chat_template_kwargs``, where the chat template (and the reasoning parsers that read
    the same kwargs) look for it, under ``enable_thinking`` (Qwen3, GLM, …) or ``thinking``
    (DeepSeek V3.1, Kimi …), or as MiniMax-M3's ``thinking_mode`` (``enabled`` /
    ``disabled``). The flag is copied there under each name; kwargs the request already
    gives win.
    """
    request = dict(body)
    thinking = request.get("thinking")
    if isinstance(thinking, bool):
        kwargs = dict(request.get("chat_template_kwargs") or {})
        for name in ("enable_thinking", "thinking"):
            kwargs.setdefault(name, thinking)
        kwargs.setdefault("thinking_mode", "enabled" if thinking else "disabled")
        request["chat_template_kwargs"] = kwargs
    return request


def tool_call_dict(
    index: int | None,
    call_id: str | None,
    call_type: str | None,
    name: str | None,
    arguments: str | None,
) -> dict[str, Any]:
    """One ``tool_calls`` entry of a delta, leaving out what the engine left unset."""
    entry: dict[str, Any] = {}
    if index is not None:
        entry["index"] = index
    if call_id is not None:
        entry["id"] = call_id
    if call_type is not None:
        entry["type"] = call_type
    function: dict[str, str] = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    entry["function"] = function
    return entry
