"""A JSON-lines adapter program backed by the reference parser, which can misbehave on cue.

``python protocol_program.py [MODE]``: MODE makes it, when a fed chunk contains "Bei",
print garbage (``garbage``), exit (``die``), reply an error (``error``), stop answering
(``hang``), reply to the wrong id (``wrong-id``) or skip (``skip-feed``: skipping is an
answer to ``open`` only); ``skip`` declines every open.
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


for line in sys.stdin:
    request = json.loads(line)
    rid, cmd = request["id"], request["cmd"]
    if cmd == "hello":
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
                "capabilities": {"parse": True},
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
        reply({"id": rid, "deltas": sessions.pop(request["session"]).finish()})
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
