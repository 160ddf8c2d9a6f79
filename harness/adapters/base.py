"""The in-process adapter contract and the wrapper the harness drives.

A parser under test is reached through a *factory*:

    factory(dialect: str, request: dict, *, tokenizer_family: str | None = None) -> session

``request`` is an OpenAI chat-completion request body (``tools``, ``tool_choice``,
``chat_template_kwargs`` …); ``tokenizer_family`` names the tokenizer whose token ids the
harness passes (factories that do not need it may omit the keyword). The session has

    session.feed(text: str, token_ids: list[int] | None = None) -> list[dict]
    session.finish() -> list[dict]
    session.parse(text: str) -> dict          # optional: the non-streaming result

and returns OpenAI chat-completion-chunk deltas as plain dicts (``content``,
``reasoning_content``, ``tool_calls: [{index, id, type, function: {name, arguments}}]``).
A factory whose ``output_mode`` attribute is ``"snapshots"`` returns instead, from ``feed``
and ``finish``, the whole message parsed so far (llama.cpp style); the harness diffs
consecutive snapshots. Optional factory attributes: ``implementation`` (name, version,
language, homepage) and ``dialects`` (the dialect names it supports, mapped to its own).

A factory whose ``endings`` attribute holds ``"with-last-chunk"`` also has its sessions
called as ``finish(text, token_ids)``: the last chunk comes with the end of the stream, as
a server sends ``finish_reason`` on the chunk that carries the last text; the harness then
runs some chunkings so (the report says which endings a parser was run under). One that
holds ``"length"`` models the serving layer: its sessions are also called as
``finish(text, token_ids, finish_reason="length")`` (the output cut at ``max_tokens``), and
it reports the client-visible reason as ``finish_reason`` in a delta of finish's reply
(checked by ``result.finish-reason`` wherever it is reported).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..chunkings import ENDINGS, Ending
from ..events import Event, Normalizer


class Session(Protocol):
    def feed(self, text: str, token_ids: list[int] | None = None) -> Any: ...

    def finish(
        self, text: str = "", token_ids: list[int] | None = None, *, finish_reason: str = "stop"
    ) -> Any: ...


class AdapterError(Exception):
    """The adapter could not be loaded or does not support what was asked (a usage error)."""


class AdapterCrash(Exception):
    """The parser's process died or broke the protocol: a crash, not a wrong result."""


class SessionSkipped(Exception):
    """Raised by a factory (or replied by a program) for a case it knowingly does not support."""


@dataclass
class Adapter:
    """A loaded adapter: its factory, what it says about itself, and how it reports."""

    spec: str
    factory: Callable[..., Session]
    implementation: dict[str, Any] = field(default_factory=dict)
    dialects: dict[str, str] | None = None
    output_mode: str = "deltas"
    #: Whether the parser runs in this process (its CPU time is then measurable here).
    in_process: bool = True
    #: How its streams may end (``chunkings.ENDINGS``): ``step`` always.
    endings: tuple[str, ...] = (Ending.STEP,)

    @classmethod
    def from_factory(cls, spec: str, factory: Callable[..., Session]) -> Adapter:
        dialects = getattr(factory, "dialects", None)
        if dialects is not None and not isinstance(dialects, Mapping):
            dialects = {name: name for name in dialects}
        implementation = dict(getattr(factory, "implementation", None) or {})
        implementation.setdefault("name", spec)
        endings = tuple(getattr(factory, "endings", None) or (Ending.STEP,))
        unknown = sorted(set(endings) - set(ENDINGS))
        if unknown:
            raise AdapterError(f"{spec}: unknown endings {unknown} (known: {', '.join(ENDINGS)})")
        return cls(
            spec=spec,
            factory=factory,
            implementation=implementation,
            dialects=dict(dialects) if dialects is not None else None,
            output_mode=getattr(factory, "output_mode", "deltas"),
            in_process=getattr(factory, "in_process", True),
            endings=tuple(dict.fromkeys((Ending.STEP, *endings))),
        )

    def supports(self, dialect: str) -> bool:
        return self.dialects is None or dialect in self.dialects

    def open(
        self, dialect: str, request: Mapping[str, Any], tokenizer_family: str | None = None
    ) -> StreamingSession:
        """A fresh session for one response, normalizing its output to events."""
        session = self.raw_session(dialect, request, tokenizer_family)
        return StreamingSession(session, snapshots=self.output_mode == "snapshots")

    def raw_session(
        self, dialect: str, request: Mapping[str, Any], tokenizer_family: str | None = None
    ) -> Session:
        """The implementation's own session, its output untouched (what benchmarks time)."""
        kwargs = {}
        if tokenizer_family is not None and _accepts_keyword(self.factory, "tokenizer_family"):
            kwargs["tokenizer_family"] = tokenizer_family
        return self.factory(dialect, dict(request), **kwargs)

    def close(self) -> None:
        """Release what the adapter holds (a subprocess); in-process factories hold nothing."""
        close = getattr(self.factory, "close", None)
        if callable(close):
            close()


def _accepts_keyword(function: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def end_session(
    session: Session,
    text: str = "",
    token_ids: list[int] | None = None,
    finish_reason: str | None = None,
) -> Any:
    """Call a session's ``finish`` with only what its adapter declared it takes: nothing for
    a separate final step (every session has that form), the last chunk (``with-last-chunk``),
    and the engine's reason where it is not ``stop`` (``length``)."""
    if finish_reason is not None:
        return session.finish(text, token_ids, finish_reason=finish_reason)
    if text:
        return session.finish(text, token_ids)
    return session.finish()


class StreamingSession:
    """Wraps a session and returns normalized events per chunk."""

    def __init__(self, session: Session, *, snapshots: bool) -> None:
        self._session = session
        self._normalizer = Normalizer(snapshots=snapshots)

    def feed(self, text: str, token_ids: Sequence[int] | None = None) -> list[Event]:
        ids = list(token_ids) if token_ids is not None else None
        return self._normalizer.events(self._session.feed(text, ids))

    def finish(
        self,
        text: str = "",
        token_ids: Sequence[int] | None = None,
        *,
        finish_reason: str | None = None,
    ) -> list[Event]:
        """The end of the stream; with ``text``, the last chunk comes with it; with
        ``finish_reason`` (``length``: cut at ``max_tokens``), the engine's reason too."""
        ids = list(token_ids) if token_ids is not None else None
        return self._normalizer.events(end_session(self._session, text, ids, finish_reason))

    def parse(self, text: str) -> dict[str, Any] | None:
        """The session's non-streaming result, if it offers one."""
        parse = getattr(self._session, "parse", None)
        return parse(text) if callable(parse) else None
