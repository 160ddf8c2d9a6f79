"""Adapter programs: every parser under test runs in one, spoken to over the JSON-lines
protocol.

A ``cmd:COMMAND`` adapter is such a program in any language; a Python factory is served by
the adapter host (``adapters.host``). The harness starts the program, says ``hello``, and
then opens one session per response — or, when the program offers ``run``, sends a whole
chunking in one request (``docs/protocol.md``, schema in ``toolconform/harness/protocol``).

The program is untrusted, so it is started in a session of its own, in a scratch directory,
with an address-space limit, optionally inside an OS sandbox (``Launch.sandbox``: bubblewrap,
no network, a read-only file system but its scratch directory, the corpus, expectations and
report hidden), and every reply is read with a size bound by a reader that looks at each
byte once. Outcomes are kept apart: an ``error`` reply is the parser's own error for that
input; ``skipped`` (to ``open`` only) is a known gap; a dead process, garbage on stdout, a
wrong id or no reply in time is a crash or a timeout, and an oversized reply is an output
limit — the program is killed with everything it started, and restarted for the next case.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ... import __version__
from ..chunkings import Ending
from ..events import AdapterOutputError
from ..processes import cpu_seconds, kill_tree, reset_peak, resident_bytes
from ..protocol import PROTOCOL_VERSION, problems
from .base import Adapter, AdapterCrash, AdapterError, SessionSkipped

#: Seconds the program may take to start and answer ``hello``.
HELLO_TIMEOUT = 60.0
#: Seconds any other single request may take (the per-feed limit is usually lower).
REQUEST_TIMEOUT = 120.0
#: How many bytes of reply each byte of a request allows beyond the output limit: the
#: reference's deltas of a 1 MiB output in ~4-character chunks (a full-mode timed run) are
#: up to 13 MiB, 3.7× their request; an engine's more verbose deltas several times more.
REPLY_PER_REQUEST_BYTE = 32
#: The longest single wait for a reply, in seconds (a longer deadline is waited out in
#: slices of it).
_SELECT_SLICE = 3600.0
#: The sandbox tool (Debian package ``bubblewrap``).
BWRAP = "bwrap"
#: The string-hash seed every adapter program runs with (``PYTHONHASHSEED``), unless the run
#: sets ``TOOLCONFORM_HASH_SEED``. Python draws one per process, so a parser that iterates a
#: set of names answers by the draw: SGLang 0.5.23's MiniMax-M2 detector streams the
#: arguments that arrive in one chunk in set order, which gave each worker its own key order,
#: a verdict that changed from run to run, and a reproduce command that did not reproduce.
#: Fixed, every run of a case sees the same parser; the report's options record the seed. An
#: inherited ``PYTHONHASHSEED`` is the harness's, not the parser's: tox sets a random one.
HASH_SEED = "0"
HASH_SEED_VARIABLE = "PYTHONHASHSEED"
HASH_SEED_SETTING = "TOOLCONFORM_HASH_SEED"


def hash_seed() -> str:
    """The ``PYTHONHASHSEED`` adapter programs get: ``TOOLCONFORM_HASH_SEED``, or ``HASH_SEED``."""
    return os.environ.get(HASH_SEED_SETTING) or HASH_SEED


#: How many other seeds ``result.seed-invariant`` runs a case under. One is a small sample:
#: against seed 0, seed 1 found 2 of the 4 SGLang 0.5.23 MiniMax-M2 cases that seeds 1 and 2
#: together find (its detector orders parameters by a set).
OTHER_HASH_SEEDS = 2


def other_hash_seeds(seed: str) -> tuple[str, ...]:
    """The seeds ``result.seed-invariant`` runs a case under besides ``seed``: the next ones.
    One fixed seed makes verdicts repeat but says nothing of the others a server draws; a
    set of two names has the same order under two seeds about half the time."""
    try:
        first = int(seed)
    except ValueError:
        first = -1
    if not 0 <= first < 2**32:
        raise AdapterError(
            f"{HASH_SEED_SETTING}={seed!r}: a hash seed is an integer from 0 to 4294967295"
        )
    return tuple(str((first + step) % 2**32) for step in range(1, OTHER_HASH_SEEDS + 1))


class ProtocolCrash(AdapterCrash):
    """The program died, printed something that is not a reply, or did not answer in time."""


class OutputLimitExceeded(AdapterCrash):
    """A reply larger than the launch's output limit: the program is stopped, not read."""


class ImplementationError(Exception):
    """The program replied with an ``error``: the parser failed on this input."""

    def __init__(self, message: str, kind: str = "") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Launch:
    """How adapter programs are started and bounded (picklable: workers receive it)."""

    #: Bytes of address space per program (``RLIMIT_AS``); ``None``: unlimited.
    memory_limit: int | None = 8 * 2**30
    #: Bytes one reply may hold (a long request allows more: ``REPLY_PER_REQUEST_BYTE``).
    output_limit: int = 16 * 2**20
    #: Run the program under bubblewrap (no network, read-only but its scratch directory).
    sandbox: bool = False
    #: Files and directories a sandboxed program must not see (corpus, expectations, report).
    hidden: tuple[str, ...] = ()
    #: The directory certify was started in: relative paths of a ``cmd:`` command and
    #: ``module:factory`` imports resolve against it (the program itself runs elsewhere).
    workdir: str = field(default_factory=os.getcwd)
    #: Validate every message against the protocol schema (``TOOLCONFORM_VALIDATE_PROTOCOL``).
    validate: bool = field(
        default_factory=lambda: bool(os.environ.get("TOOLCONFORM_VALIDATE_PROTOCOL"))
    )
    #: The program's ``PYTHONHASHSEED`` (``hash_seed``; ``result.seed-invariant`` starts
    #: one more program under each of ``other_hash_seeds``).
    hash_seed: str = field(default_factory=hash_seed)


def sandbox_available() -> str | None:
    """Why ``--sandbox`` cannot work here, or ``None`` when it can."""
    path = shutil.which(BWRAP)
    if path is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    probe = subprocess.run(
        [path, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        return f"bubblewrap cannot create a sandbox here: {probe.stderr.strip()[:200]}"
    return None


def _resolved(argv: Sequence[str], workdir: str) -> list[str]:
    """The command with relative paths that exist under ``workdir`` made absolute, so the
    program finds its script although it runs in a scratch directory."""
    out = []
    for position, argument in enumerate(argv):
        candidate = Path(workdir) / argument
        relative = not argument.startswith("-") and not Path(argument).is_absolute()
        if relative and (position > 0 or "/" in argument) and candidate.exists():
            argument = str(candidate.resolve())
        out.append(argument)
    return out


def _sandboxed(argv: list[str], scratch: str, launch: Launch) -> list[str]:
    wrapper = [
        shutil.which(BWRAP) or BWRAP,
        "--die-with-parent",
        "--new-session",
        "--unshare-all",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        "--bind", scratch, scratch,
        "--chdir", scratch,
        "--setenv", "HOME", scratch,
    ]  # fmt: skip
    for hidden in launch.hidden:
        path = Path(hidden).resolve()
        if path.is_dir():
            wrapper += ["--tmpfs", str(path)]
        elif path.exists():
            wrapper += ["--ro-bind", "/dev/null", str(path)]
    return [*wrapper, "--", *argv]


class _Process:
    """One running adapter program and its line-oriented conversation."""

    def __init__(self, argv: Sequence[str], launch: Launch, environment: dict[str, str]) -> None:
        self.launch = launch
        self.scratch = tempfile.mkdtemp(prefix="toolconform-adapter-")
        command = list(argv)
        if launch.sandbox:
            command = _sandboxed(command, self.scratch, launch)
        # Lives as long as the program; closed in stop().
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.popen = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=self.scratch,
                env={**os.environ, HASH_SEED_VARIABLE: launch.hash_seed, **environment},
                start_new_session=True,
            )
        except OSError as error:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.stderr.close()
            raise AdapterError(f"cannot start {argv[0]!r}: {error.strerror or error}") from None
        if launch.memory_limit:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                import resource

                limit = (launch.memory_limit, launch.memory_limit)
                resource.prlimit(self.popen.pid, resource.RLIMIT_AS, limit)
        self._ids = itertools.count()
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer already known to hold no newline
        self._selector = selectors.DefaultSelector()
        assert self.popen.stdout is not None
        os.set_blocking(self.popen.stdout.fileno(), False)
        self._selector.register(self.popen.stdout, selectors.EVENT_READ)

    def request(self, kind: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request (``kind`` is its schema name) and return the reply to it."""
        message = {"cmd": kind, "id": next(self._ids), **message}
        if self.launch.validate:
            found = problems(kind, message)
            assert not found, f"the harness built an invalid {kind}: {found}"
        line = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
        try:
            assert self.popen.stdin is not None
            self.popen.stdin.write(line)
            self.popen.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ProtocolCrash(self._died("while writing a request")) from None
        # A reply may be as long as the output limit, or as its request times
        # ``REPLY_PER_REQUEST_BYTE``: a megabyte's chunks give a megabyte's deltas back.
        limit = max(self.launch.output_limit, REPLY_PER_REQUEST_BYTE * len(line))
        reply = self._read_reply(timeout, limit)
        if reply.get("id") != message["id"]:
            raise ProtocolCrash(f"reply id {reply.get('id')!r} to request id {message['id']}")
        return reply

    def _read_reply(self, timeout: float, limit: int) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                break
            self._scanned = len(self._buffer)
            if len(self._buffer) > limit:
                raise OutputLimitExceeded(
                    f"a reply longer than the output limit of {limit / 2**20:g} MiB"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProtocolCrash(f"no reply within {timeout:g} s")
            # Waited for in slices: poll(2) takes at most ~24 days, and a deadline of a
            # feed timeout per chunk of a megabyte's chunks is further away than that.
            if not self._selector.select(min(remaining, _SELECT_SLICE)):
                continue
            assert self.popen.stdout is not None
            data = os.read(self.popen.stdout.fileno(), 1 << 20)
            if not data:
                raise ProtocolCrash(self._died("before replying"))
            self._buffer += data
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        self._scanned = 0
        if len(line) > limit:
            raise OutputLimitExceeded(
                f"a reply of {len(line) / 2**20:.1f} MiB, over the output limit of "
                f"{limit / 2**20:g} MiB"
            )
        try:
            reply = json.loads(line.decode("utf-8", "surrogatepass"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise ProtocolCrash(f"printed a line that is not JSON: {line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise ProtocolCrash(f"printed a reply that is not an object: {line[:200]!r}")
        return reply

    def _died(self, when: str) -> str:
        try:  # stdout closed: the exit status follows shortly
            code = self.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail()
        if code is None:
            state = "stopped answering"
        elif code < 0:
            state = f"was killed by signal {-code}"
        else:
            state = f"exited with status {code}"
        return f"the adapter program {state} {when}" + (f"; stderr: {tail}" if tail else "")

    def stderr_tail(self) -> str:
        with contextlib.suppress(OSError, ValueError):
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - 600))
            return self.stderr.read().decode("utf-8", "replace").strip()
        return ""

    def cpu_seconds(self) -> float | None:
        """CPU time of the program and everything it started, measured from outside."""
        return cpu_seconds(self.popen.pid)

    def stop(self, *, graceful: bool = True) -> None:
        """Say bye, and end the program with every process it started, whatever it does."""
        if graceful and self.popen.poll() is None:
            with contextlib.suppress(AdapterCrash, AssertionError, OSError):
                self.request("bye", {}, timeout=2)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=2)
        kill_tree(self.popen.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for stream in (self.popen.stdin, self.popen.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self._selector.close()
        self.stderr.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


class SubprocessFactory:
    """A session factory over the protocol; restarts the program after a crash."""

    output_mode = "deltas"
    in_process = False

    def __init__(self, spec: str, argv: Sequence[str], launch: Launch) -> None:
        self.spec = spec
        # A command's relative paths are the user's, not the scratch directory's.
        self.argv = _resolved(argv, launch.workdir) if spec.startswith("cmd:") else list(argv)
        self.launch = launch
        self._process: _Process | None = None
        self._sessions = itertools.count()
        self.hello: dict[str, Any] = {}
        self._ensure()
        self.implementation = dict(self.hello["implementation"])
        self.configuration = {
            name: str(value) for name, value in (self.hello.get("configuration") or {}).items()
        }
        self.dialects = {
            name: self.configuration.get(name, name) for name in self.hello["dialects"]
        }
        self.output_mode = self.hello.get("output_mode", "deltas")
        self.capabilities = dict(self.hello.get("capabilities") or {})
        self.endings = tuple(self.capabilities.get("endings") or (Ending.STEP,))

    def _ensure(self) -> _Process:
        if self._process is not None and self._process.popen.poll() is None:
            return self._process
        if self._process is not None:
            self._process.stop()
        # The host imports a factory from where this process would have: its directory first.
        path = [
            self.launch.workdir,
            *(entry for entry in sys.path if entry and os.path.isdir(entry)),
        ]
        environment = {"TOOLCONFORM_HOST_PATH": os.pathsep.join(path)}
        process = _Process(self.argv, self.launch, environment)
        try:
            hello = process.request(
                "hello",
                {
                    "protocol": PROTOCOL_VERSION,
                    "suite": {"name": "toolconform", "version": __version__},
                },
                timeout=HELLO_TIMEOUT,
            )
        except AdapterCrash as error:
            tail = process.stderr_tail()
            process.stop()
            detail = f"; stderr: {tail}" if tail and "stderr:" not in str(error) else ""
            raise AdapterError(
                f"adapter {self.spec!r} failed the handshake: {error}{detail}"
            ) from None
        if "error" in hello:
            process.stop()
            message = (hello["error"] or {}).get("message", hello["error"])
            raise AdapterError(f"adapter {self.spec!r} could not start: {message}")
        found = problems("hello_response", hello)
        if found:
            process.stop()
            raise AdapterError(f"adapter {self.spec!r} sent an invalid hello reply: {found[0]}")
        self._process, self.hello = process, hello
        return process

    @property
    def pid(self) -> int | None:
        return self._process.popen.pid if self._process is not None else None

    def cpu_seconds(self) -> float | None:
        return self._process.cpu_seconds() if self._process is not None else None

    def resident_bytes(self, *, peak: bool = False) -> int | None:
        """Resident memory of the program and what it started, measured from outside; with
        ``peak``, its highest since ``reset_peak``."""
        if self._process is None:
            return None
        return resident_bytes(self._process.popen.pid, peak=peak)

    def reset_peak(self) -> bool:
        """Start measuring the program's peak memory afresh; whether the system allows it."""
        return self._process is not None and reset_peak(self._process.popen.pid)

    def call(
        self, kind: str, message: dict[str, Any], reply_kind: str, *, timeout: float | None = None
    ) -> dict[str, Any]:
        """One request; a crash stops the program (the next call restarts it)."""
        process = self._ensure()
        try:
            reply = process.request(kind, message, timeout=timeout or REQUEST_TIMEOUT)
        except BaseException:
            self.kill()
            raise
        if "error" in reply:
            error = reply["error"]
            if isinstance(error, dict):
                raise ImplementationError(
                    str(error.get("message", error)), str(error.get("kind", ""))
                )
            raise ImplementationError(str(error))
        if reply.get("skipped"):
            if kind not in ("open", "run"):
                raise AdapterOutputError(
                    f"replied 'skipped' to {kind}: a case may be skipped only in reply to open"
                )
            raise SessionSkipped(str(reply.get("reason", "skipped by the implementation")))
        if self.launch.validate:
            found = problems(reply_kind, reply)
            if found:
                self.kill()
                raise ProtocolCrash(f"invalid {reply_kind}: {found[0]}")
        return reply

    def kill(self) -> None:
        """End the program now, without the farewell a hung or broken one cannot answer."""
        if self._process is not None:
            self._process.stop(graceful=False)
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
        feed_timeout: float | None = None,
        budget: float | None = None,
        timeout: float | None = None,
        outputs: bool = True,
    ) -> list[dict[str, Any]]:
        """Several chunkings in one round trip, each in a fresh session; without ``outputs``
        the program may reply with the count of each chunking's outputs instead of them."""
        message: dict[str, Any] = {
            "dialect": dialect,
            "request": request,
            "chunkings": chunkings,
            "repeat": repeat,
            "tokenizer_family": tokenizer_family,
        }
        if not outputs:
            message["outputs"] = False
        if feed_timeout is not None:
            message["feed_timeout"] = feed_timeout
        if budget is not None:
            message["budget"] = budget
        reply = self.call("run", message, "run_response", timeout=timeout)
        results = reply.get("results")
        if not isinstance(results, list) or len(results) > len(chunkings):
            self.kill()
            raise ProtocolCrash(f"a run reply without one result per chunking: {str(reply)[:200]}")
        return results

    def reseeded(self, seed: str) -> SubprocessFactory:
        """The same program, started under another hash seed (``result.seed-invariant``)."""
        return SubprocessFactory(self.spec, self.argv, replace(self.launch, hash_seed=seed))

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

    def finish(
        self,
        text: str = "",
        token_ids: list[int] | None = None,
        *,
        finish_reason: str | None = None,
    ) -> Any:
        message: dict[str, Any] = {"session": self._session}
        if text:  # the last chunk, with the end of the stream (``endings``)
            message.update(text=text, token_ids=token_ids)
        if finish_reason is not None:  # the ``length`` ending: cut at max_tokens
            message["finish_reason"] = finish_reason
        return self._reply(self._factory.call("finish", message, "deltas_response"))

    def parse(self, text: str) -> dict[str, Any] | None:
        if not self._factory.capabilities.get("parse"):
            return None
        message = {"dialect": self._dialect, "request": self._request, "text": text}
        return self._factory.call("parse", message, "parse_response")["message"]


def start_program_adapter(spec: str, argv: Sequence[str], launch: Launch) -> Adapter:
    """Start the program, shake hands, and wrap it as an adapter."""
    return Adapter.from_factory(spec, SubprocessFactory(spec, argv, launch))
