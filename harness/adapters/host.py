"""The adapter host: the only process in which a Python adapter's code ever runs.

    python -m toolconform.harness.adapters.host SPEC

serves the JSON-lines adapter protocol (``docs/protocol.md``) on its stdin and stdout for
an in-process adapter ``SPEC`` (a built-in name or ``module:callable``). The harness starts
one host per worker and talks to it exactly as it talks to a ``cmd:`` program in any
language, so the parser under test never shares an interpreter with the checks, the oracle,
the expected results or the report: all it receives is the model output, the request and
the chunking, and all it returns is JSON.

The host keeps the protocol channel for itself (the adapter's own prints go to stderr, where
the harness keeps their tail), puts the directories of ``TOOLCONFORM_HOST_PATH`` in front of
``sys.path`` (the directory certify was started in, so ``mymodule:factory`` imports from
there), and implements the batched ``run`` command with a per-feed time limit and a budget
for the whole chunking, so that a slow parser is judged without a round trip per chunk.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from typing import Any, BinaryIO

from .limit import FeedLimit, FeedTimeout

#: The environment variable listing directories to import adapter modules from.
PATH_VARIABLE = "TOOLCONFORM_HOST_PATH"


def _describe(error: BaseException) -> str:
    where = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    location = f" at {where[0].filename}:{where[0].lineno}" if where else ""
    return f"{type(error).__name__}: {error}{location}"


class Host:
    """One loaded adapter and the sessions it has open."""

    def __init__(self, spec: str, channel: BinaryIO) -> None:
        self.spec = spec
        self.channel = channel
        self.adapter: Any = None
        self.sessions: dict[str, Any] = {}

    def send(self, message: dict[str, Any]) -> None:
        try:
            line = json.dumps(message, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as error:
            line = json.dumps(
                {
                    "id": message.get("id"),
                    "error": {
                        "kind": "contract",
                        "message": f"the adapter's output is not JSON: {error}",
                    },
                }
            )
        self.channel.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.channel.flush()

    # ------------------------------------------------------------------ commands

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        from . import SessionSkipped  # noqa: F401  (the contract's exceptions, imported early)
        from .loading import load_in_process

        self.adapter = load_in_process(self.spec)
        from ...reference import dialect_names

        dialects = self.adapter.dialects
        configuration = {name: str(value) for name, value in (dialects or {}).items()}
        implementation = {"language": "python", "version": "", **self.adapter.implementation}
        implementation = {key: str(value) for key, value in implementation.items() if value}
        implementation.setdefault("version", "")
        return {
            "ok": True,
            "protocol": 1,
            "implementation": implementation,
            "dialects": sorted(dialects) if dialects is not None else dialect_names(),
            "configuration": configuration,
            "output_mode": self.adapter.output_mode,
            "capabilities": {
                "token_ids": True,
                "parse": True,
                "run": True,
                "endings": list(self.adapter.endings),
            },
        }

    def open_session(self, dialect: str, request: dict[str, Any], family: str | None) -> Any:
        from . import SessionSkipped

        try:
            return self.adapter.raw_session(dialect, request, family)
        except LookupError as error:
            if type(error) is not LookupError:  # a KeyError inside the parser is a bug
                raise
            raise SessionSkipped(str(error)) from None

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | None:
        from . import SessionSkipped
        from .base import end_session

        command = request.get("cmd")
        if command == "hello":
            return self.hello(request)
        if self.adapter is None:
            return {"error": {"kind": "protocol", "message": "hello first"}}
        try:
            if command == "open":
                self.sessions[request["session"]] = self.open_session(
                    request["dialect"], request["request"], request.get("tokenizer_family")
                )
                return {"ok": True}
            if command == "feed":
                return self._output(
                    self.sessions[request["session"]].feed(
                        request["text"], request.get("token_ids")
                    )
                )
            if command == "finish":
                session = self.sessions.pop(request["session"])
                return self._output(
                    end_session(
                        session,
                        request.get("text") or "",
                        request.get("token_ids"),
                        request.get("finish_reason"),
                    )
                )
            if command == "parse":
                session = self.open_session(request["dialect"], request["request"], None)
                parse = getattr(session, "parse", None)
                return {"message": parse(request["text"]) if callable(parse) else None}
            if command == "run":
                return self.run(request)
            if command == "bye":
                return {"ok": True}
        except SessionSkipped as skipped:
            if command in ("open", "run"):
                return {"skipped": True, "reason": str(skipped)}
            return {
                "error": {
                    "kind": "contract",
                    "message": f"the adapter skipped after the session opened: {skipped}",
                }
            }
        except Exception as error:  # the parser under test raised: that is its answer
            return {"error": {"kind": "raised", "message": _describe(error)}}
        return {"error": {"kind": "protocol", "message": f"unknown command {command!r}"}}

    def _output(self, output: Any) -> dict[str, Any]:
        if self.adapter.output_mode == "snapshots":
            return {"message": output}
        return {"deltas": output}

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        """Each chunking in a fresh session, feed by feed, under the per-feed limit."""
        feed_timeout = request.get("feed_timeout")
        budget = request.get("budget")
        results = []
        repeat = int(request.get("repeat", 1))
        for chunking in request["chunkings"]:
            # Repetitions (for timing) share the budget, and the first that does not
            # complete is the result: a measurement is bounded as a whole, as one run is.
            started, done = time.perf_counter(), 0
            while True:
                left = None if budget is None else budget - (time.perf_counter() - started)
                result = self._run_one(request, chunking, feed_timeout, left)
                done += 1
                if "error" in result or done >= repeat:
                    break
            if repeat > 1:
                result["repetitions"] = done
            results.append(result)
            if "error" in result and result["error"]["kind"] in ("timeout", "memory"):
                break  # a parser that hung or ran out of memory once will again
        return {"results": results}

    def _run_one(
        self,
        request: dict[str, Any],
        chunking: dict[str, Any],
        feed_timeout: float | None,
        budget: float | None,
    ) -> dict[str, Any]:
        from ..chunkings import FINISH_REASONS, Ending
        from . import SessionSkipped
        from .base import end_session

        outputs: list[Any] = []
        # ``outputs: false`` (certify's timed runs, which read the time alone): each output
        # is dropped as it comes (``None`` kept in its place, to count it), so that the time
        # and the memory measured are the parser's, not those of keeping and encoding its
        # deltas for the reply.
        keep = request.get("outputs", True) is not False
        ids = chunking.get("token_ids")
        start = time.perf_counter_ns()
        error = None
        opened = False
        try:
            with FeedLimit(feed_timeout) as limit:
                limit.since = time.perf_counter_ns()
                session = self.open_session(
                    request["dialect"], request["request"], request.get("tokenizer_family")
                )
                limit.since = None
                opened = True
                chunks = chunking["chunks"]
                ending = chunking.get("ending", Ending.STEP)
                with_last = ending != Ending.STEP and bool(chunks)
                fed = len(chunks) - with_last
                for position, chunk in enumerate(chunks[:fed]):
                    now = time.perf_counter_ns()
                    if budget is not None and (now - start) / 1e9 > budget:
                        error = {"kind": "budget", "message": f"past the budget of {budget:.1f} s"}
                        break
                    limit.since = now
                    output = session.feed(chunk, ids[position] if ids else None)
                    limit.since = None
                    outputs.append(output if keep else None)
                else:
                    # With the last chunk (with-last-chunk, length) and the engine's reason.
                    last, last_ids = (
                        (chunks[-1], ids[-1] if ids else None) if with_last else ("", None)
                    )
                    limit.since = time.perf_counter_ns()
                    output = end_session(session, last, last_ids, FINISH_REASONS.get(ending))
                    limit.since = None
                    outputs.append(output if keep else None)
        except SessionSkipped as skipped:
            if not opened:
                raise
            error = {"kind": "contract", "message": f"skipped after the session opened: {skipped}"}
        except FeedTimeout as timeout:
            error = {"kind": "timeout", "message": str(timeout)}
        except MemoryError:
            outputs = []  # give the memory back before replying
            error = {"kind": "memory", "message": "MemoryError"}
        except Exception as raised:
            error = {"kind": "raised", "message": _describe(raised)}
        result: dict[str, Any] = {
            "chunks": outputs if keep else len(outputs),
            "elapsed_ns": time.perf_counter_ns() - start,
        }
        if error is not None:
            result["error"] = {**error, "chunk": len(outputs)}
        return result


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m toolconform.harness.adapters.host SPEC", file=sys.stderr)
        return 2
    # The protocol owns the real stdout; whatever the adapter prints goes to stderr.
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    for directory in reversed(os.environ.get(PATH_VARIABLE, "").split(os.pathsep)):
        if directory and directory not in sys.path:
            sys.path.insert(0, directory)
    host = Host(args[0], channel)
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            rid = request["id"]
        except (ValueError, KeyError, TypeError):
            host.send({"id": None, "error": {"kind": "protocol", "message": "not a request"}})
            continue
        try:
            reply = host.handle(request)
        except BaseException as error:  # loading the adapter failed, or it exited
            reply = {"error": {"kind": "load", "message": _describe(error)}}
            host.send({"id": rid, **reply})
            if not isinstance(error, Exception):
                raise
            if request.get("cmd") == "hello":
                return 3
            continue
        host.send({"id": rid, **(reply or {})})
        if request.get("cmd") == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
