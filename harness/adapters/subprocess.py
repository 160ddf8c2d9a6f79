"""``cmd:COMMAND`` adapters: a parser in any language, over the JSON-lines protocol.

The harness starts the program, says ``hello``, and then opens one session per response and
feeds it chunk by chunk (``docs/protocol.md``, schema in ``toolconform/harness/protocol``).
Three outcomes are kept apart: an ``error`` reply is the parser's own error for that case; a
``skipped`` reply is a known gap; a dead process, garbage on stdout, a wrong id or no reply in
time is a crash or a timeout — the process is restarted and the run goes on.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from typing import Any

from ... import __version__
from ..events import AdapterOutputError
from ..protocol import PROTOCOL_VERSION, problems
from .base import Adapter, AdapterCrash, AdapterError, SessionSkipped

#: Seconds the program may take to start and answer ``hello``.
HELLO_TIMEOUT = 60.0
#: Seconds any other request may take (the per-feed limit of the executor is usually lower).
REQUEST_TIMEOUT = 120.0


class ProtocolCrash(AdapterCrash):
    """The program died, printed something that is not a reply, or did not answer in time."""


class ImplementationError(Exception):
    """The program replied with an ``error``: the parser failed on this input."""


class _Process:
    """One running adapter program and its line-oriented conversation."""

    def __init__(self, command: str, *, validate: bool) -> None:
        self.command = command
        self.validate = validate
        # Lives as long as the program; closed in stop().
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.popen = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
            )
        except OSError as error:
            raise AdapterError(f"cannot start {command!r}: {error.strerror or error}") from None
        self._ids = itertools.count()
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        assert self.popen.stdout is not None
        os.set_blocking(self.popen.stdout.fileno(), False)
        self._selector.register(self.popen.stdout, selectors.EVENT_READ)

    def request(self, kind: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request (``kind`` is its schema name) and return the reply to it."""
        message = {"cmd": kind, "id": next(self._ids), **message}
        if self.validate:
            found = problems(kind, message)
            assert not found, f"the harness built an invalid {kind}: {found}"
        line = json.dumps(message, ensure_ascii=False) + "\n"
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(line.encode("utf-8"))
            self.popen.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ProtocolCrash(self._died("while writing a request")) from None
        reply = self._read_reply(timeout)
        if reply.get("id") != message["id"]:
            raise ProtocolCrash(f"reply id {reply.get('id')!r} to request id {message['id']}")
        return reply

    def _read_reply(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProtocolCrash(f"no reply within {timeout:g} s")
            if not self._selector.select(remaining):
                continue
            assert self.popen.stdout is not None
            data = os.read(self.popen.stdout.fileno(), 1 << 16)
            if not data:
                raise ProtocolCrash(self._died("before replying"))
            self._buffer += data
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            raise ProtocolCrash(f"printed a line that is not JSON: {line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise ProtocolCrash(f"printed a reply that is not an object: {line[:200]!r}")
        return reply

    def _died(self, when: str) -> str:
        try:  # stdout closed: the exit status follows shortly
            code = self.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self.stderr.seek(0)
        tail = self.stderr.read()[-600:].decode("utf-8", "replace").strip()
        state = f"exited with status {code}" if code is not None else "stopped answering"
        return f"the adapter program {state} {when}" + (f"; stderr: {tail}" if tail else "")

    def stop(self) -> None:
        if self.popen.poll() is None:
            with contextlib.suppress(ProtocolCrash, AssertionError):
                self.request("bye", {}, timeout=2)
            try:
                self.popen.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._selector.close()
        self.stderr.close()


class SubprocessFactory:
    """A session factory over the protocol; restarts the program after a crash."""

    output_mode = "deltas"
    in_process = False

    def __init__(self, command: str, *, validate: bool = False) -> None:
        self.command = command
        self.validate = validate
        self._process: _Process | None = None
        self._sessions = itertools.count()
        self.hello: dict[str, Any] = {}
        self._ensure()
        self.implementation = dict(self.hello["implementation"])
        self.dialects = {name: name for name in self.hello["dialects"]}
        self.output_mode = self.hello.get("output_mode", "deltas")
        self.capabilities = dict(self.hello.get("capabilities") or {})

    def _ensure(self) -> _Process:
        if self._process is not None and self._process.popen.poll() is None:
            return self._process
        if self._process is not None:
            self._process.stop()
        process = _Process(self.command, validate=self.validate)
        try:
            hello = process.request(
                "hello",
                {
                    "protocol": PROTOCOL_VERSION,
                    "suite": {"name": "toolconform", "version": __version__},
                },
                timeout=HELLO_TIMEOUT,
            )
        except ProtocolCrash as error:
            process.stop()
            raise AdapterError(f"adapter {self.command!r} failed the handshake: {error}") from None
        found = problems("hello_response", hello)
        if found:
            process.stop()
            raise AdapterError(f"adapter {self.command!r} sent an invalid hello reply: {found[0]}")
        self._process, self.hello = process, hello
        return process

    def call(self, kind: str, message: dict[str, Any], reply_kind: str) -> dict[str, Any]:
        """One request; a crash stops the program (the next call restarts it)."""
        process = self._ensure()
        try:
            reply = process.request(kind, message, timeout=REQUEST_TIMEOUT)
        except BaseException:
            self.kill()
            raise
        if "error" in reply:
            raise ImplementationError(str((reply["error"] or {}).get("message", reply["error"])))
        if reply.get("skipped"):
            if kind != "open":
                raise AdapterOutputError(
                    f"replied 'skipped' to {kind}: a case may be skipped only in reply to open"
                )
            raise SessionSkipped(str(reply.get("reason", "skipped by the implementation")))
        if self.validate:
            found = problems(reply_kind, reply)
            if found:
                self.kill()
                raise ProtocolCrash(f"invalid {reply_kind}: {found[0]}")
        return reply

    def kill(self) -> None:
        if self._process is not None:
            self._process.popen.kill()
            self._process.stop()
            self._process = None

    def __call__(
        self, dialect: str, request: dict[str, Any], *, tokenizer_family: str | None = None
    ) -> RemoteSession:
        session = f"s{next(self._sessions)}"
        self.call(
            "open",
            {
                "session": session,
                "dialect": dialect,
                "request": request,
                "tokenizer_family": tokenizer_family,
            },
            "ok_response",
        )
        return RemoteSession(self, session, dialect, request)

    def run_batch(
        self,
        dialect: str,
        request: dict[str, Any],
        chunkings: list[dict[str, Any]],
        *,
        repeat: int = 1,
        tokenizer_family: str | None = None,
    ) -> list[dict[str, Any]]:
        """Several chunkings in one round trip, timed inside the implementation."""
        reply = self.call(
            "run",
            {
                "dialect": dialect,
                "request": request,
                "chunkings": chunkings,
                "repeat": repeat,
                "tokenizer_family": tokenizer_family,
            },
            "run_response",
        )
        return reply["results"]

    def close(self) -> None:
        if self._process is not None:
            self._process.stop()
            self._process = None


class RemoteSession:
    """One response in the adapter program."""

    def __init__(
        self, factory: SubprocessFactory, session: str, dialect: str, request: dict[str, Any]
    ) -> None:
        self._factory = factory
        self._session = session
        self._dialect = dialect
        self._request = request

    def _reply(self, reply: dict[str, Any]) -> Any:
        return reply.get("deltas", reply.get("message"))

    def feed(self, text: str, token_ids: list[int] | None = None) -> Any:
        message = {"session": self._session, "text": text, "token_ids": token_ids}
        return self._reply(self._factory.call("feed", message, "deltas_response"))

    def finish(self) -> Any:
        return self._reply(
            self._factory.call("finish", {"session": self._session}, "deltas_response")
        )

    def parse(self, text: str) -> dict[str, Any] | None:
        if not self._factory.capabilities.get("parse"):
            return None
        message = {"dialect": self._dialect, "request": self._request, "text": text}
        return self._factory.call("parse", message, "parse_response")["message"]


def start_subprocess_adapter(spec: str, command: str, *, validate: bool | None = None) -> Adapter:
    """Start the program, shake hands, and wrap it as an adapter."""
    if validate is None:
        validate = bool(os.environ.get("TOOLCONFORM_VALIDATE_PROTOCOL"))
    return Adapter.from_factory(spec, SubprocessFactory(command, validate=validate))
