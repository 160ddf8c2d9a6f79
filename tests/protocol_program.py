"""A JSON-lines adapter program backed by the reference parser, which can misbehave on cue.

``python protocol_program.py [MODE]``: MODE makes it, when a fed chunk contains "Bei",
print garbage (``garbage``), exit (``die``), reply an error (``error``), stop answering
(``hang``), reply to the wrong id (``wrong-id``) or skip (``skip-feed``: skipping is an
answer to ``open`` only); ``skip`` declines every open. ``detach`` starts, during the
handshake, a process in a session of its own that later tries to rewrite the report in
``$TOOLCONFORM_TEST_REPORT``; ``spawn`` starts a busy helper process. Both write the pid of
what they started to ``$TOOLCONFORM_TEST_MARKS/pids``. ``ends`` declares every ending
(``with-last-chunk``, ``length``): finish then takes the last chunk and the engine's reason,
and its reply carries the client's finish reason.
"""

from __future__ import annotations

import json
import os
import sys
import time

from toolconform.harness.adapters.reference import ReferenceSession

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
sessions: dict[str, ReferenceSession] = {}


def reply(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _remember(pid: int) -> None:
    marks = os.environ.get("TOOLCONFORM_TEST_MARKS")
    if marks:
        with open(os.path.join(marks, "pids"), "a") as pids:
            pids.write(f"{pid}\n")


def _detach() -> None:
    """Double fork and setsid: the grandchild belongs to no one we know."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            _remember(os.getpid())
            time.sleep(3)
            report = os.environ.get("TOOLCONFORM_TEST_REPORT")
            if report and os.path.isdir(report):
                for name in ("report.json", "report.md", "badge.svg"):
                    with open(os.path.join(report, name), "w") as forged:
                        forged.write("PASS")
            os._exit(0)
        os._exit(0)
    os.wait()


def _spawn() -> None:
    if os.fork() == 0:
        _remember(os.getpid())
        while True:  # a parser that keeps running at full speed
            pass


for line in sys.stdin:
    request = json.loads(line)
    rid, cmd = request["id"], request["cmd"]
    if cmd == "hello":
        if MODE == "detach":
            _detach()
        if MODE == "spawn":
            _spawn()
        reply(
            {
                "id": rid,
                "ok": True,
                "protocol": 1,
                "dialects": ["qwen3", "qwen25"],
                "implementation": {
                    "name": "protocol-program",
                    "version": "1",
                    "language": "python",
                },
                "capabilities": {
                    "parse": True,
                    **(
                        {"endings": ["step", "with-last-chunk", "length"]} if MODE == "ends" else {}
                    ),
                },
            }
        )
    elif cmd == "open":
        if MODE == "skip":
            reply(
                {
                    "id": rid,
                    "skipped": True,
                    "reason": "not today",
                    "issue": "https://example.org/1",
                }
            )
            continue
        sessions[request["session"]] = ReferenceSession(request["dialect"], request["request"])
        reply({"id": rid, "ok": True})
    elif cmd == "feed":
        if "Bei" in request["text"]:
            if MODE == "garbage":
                print("Traceback (most recent call last): oops", flush=True)
                continue
            if MODE == "die":
                os._exit(7)
            if MODE == "error":
                reply({"id": rid, "error": {"message": "parser exploded", "kind": "parser"}})
                continue
            if MODE == "hang":
                time.sleep(3600)
            if MODE == "skip-feed":
                reply({"id": rid, "skipped": True, "reason": "changed my mind"})
                continue
            if MODE == "wrong-id":
                reply({"id": rid + 1000, "deltas": []})
                continue
        reply({"id": rid, "deltas": sessions[request["session"]].feed(request["text"])})
    elif cmd == "finish":
        session = sessions.pop(request["session"])
        reason = request.get("finish_reason") or "stop"
        deltas = session.finish(
            request.get("text", ""), request.get("token_ids"), finish_reason=reason
        )
        reply({"id": rid, "deltas": deltas})
    elif cmd == "parse":
        reply(
            {
                "id": rid,
                "message": ReferenceSession(request["dialect"], request["request"]).parse(
                    request["text"]
                ),
            }
        )
    elif cmd == "bye":
        reply({"id": rid, "ok": True})
        break
