"""Adapters that attack the harness instead of parsing: the trust boundary's test subjects.

Each one tries something a parser under test must never get away with — forging the
verdict, reading the expected answers, outliving the run, breaking the checker with garbage
or size — and the tests assert that certify records the right outcome, leaves no process
behind and writes a complete report.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

from toolconform.harness.adapters.reference import ReferenceSession

#: Where a test tells a hostile adapter to leave its marks (counters).
MARKS = "TOOLCONFORM_TEST_MARKS"


def _mark(name: str, text: str) -> None:
    directory = os.environ.get(MARKS)
    if directory:
        (Path(directory) / name).write_text(text)


class _Nothing:
    """Parses nothing: every case it is certified on must fail."""

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        return []

    def finish(self) -> list[dict[str, Any]]:
        return []


def forges_verdicts(dialect: str, request: dict[str, Any]) -> _Nothing:
    """Replaces the checks with ones that pass everything — in the process it runs in."""
    from toolconform.harness import checks, execution

    def everything_passes(run, context):
        return {check.id: None for check in checks.CATALOGUE}

    checks.verdicts = everything_passes
    execution.verdicts = everything_passes
    return _Nothing()


def _rewrite_reports() -> None:
    from toolconform.harness import report

    report.Report.passed = property(lambda self: True)  # type: ignore[method-assign]
    original = report.Report.to_json

    def to_json(self):
        data = original(self)
        data["verdict"] = "pass"
        data["gate"] = {**data["gate"], "verdict": "pass", "reasons": []}
        return data

    report.Report.to_json = to_json  # type: ignore[method-assign]


_rewrite_reports()  # at import, as an adapter module would


def rewrites_the_report(dialect: str, request: dict[str, Any]) -> _Nothing:
    """Its module rewrote ``Report.passed`` and ``to_json`` at import."""
    return _Nothing()


class _Replays:
    """Looks up the stack for the harness's case and replays its expected answer."""

    def __init__(self) -> None:
        self.done = False

    def _expected(self) -> dict[str, Any] | None:
        frame = sys._getframe()
        while frame is not None:
            for value in frame.f_locals.values():
                expectations = getattr(value, "expectations", None)
                if expectations and hasattr(expectations[0], "content"):
                    return expectations[0].to_json()
            frame = frame.f_back
        return None

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        if self.done:
            return []
        self.done = True
        expected = self._expected()
        if expected is None:
            return []
        calls = [
            {
                "index": index,
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": call["name"], "arguments": str(call.get("arguments"))},
            }
            for index, call in enumerate(expected["tool_calls"])
        ]
        return [{"content": expected["content"], "tool_calls": calls}]

    def finish(self) -> list[dict[str, Any]]:
        return []


def replays_expected_answers(dialect: str, request: dict[str, Any]) -> _Replays:
    return _Replays()


class _CorpusReader:
    """Finds the case being run in the compiled corpus on disk and replays its answer — a
    cheat that works wherever the corpus is readable, which only a sandbox prevents."""

    CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "dist" / "cases.jsonl"

    def __init__(self) -> None:
        self.text = ""

    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        self.text += text
        return []

    def finish(self) -> list[dict[str, Any]]:
        import json

        try:
            lines = self.CORPUS.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        for line in lines:
            case = json.loads(line)
            if case["output"] == self.text and case.get("expect"):
                expected = case["expect"][0]
                calls = [
                    {
                        "index": index,
                        "id": f"call_{index}",
                        "type": "function",
                        "function": {
                            "name": call["name"],
                            "arguments": call.get("arguments_raw")
                            or json.dumps(call.get("arguments")),
                        },
                    }
                    for index, call in enumerate(expected["tool_calls"])
                ]
                delta: dict[str, Any] = {"content": expected["content"], "tool_calls": calls}
                if expected.get("reasoning") is not None:
                    delta["reasoning_content"] = expected["reasoning"]
                return [delta]
        return []


def reads_the_corpus(dialect: str, request: dict[str, Any]) -> _CorpusReader:
    return _CorpusReader()


class _Garbage:
    """Returns one wrong-shaped output, chosen by the request's first tool name."""

    SHAPES: ClassVar[dict[str, Any]] = {
        "list-name": [{"tool_calls": [{"index": 0, "id": "a", "function": {"name": ["x"]}}]}],
        "dict-id": [{"tool_calls": [{"index": 0, "id": {"x": 1}, "function": {"name": "now"}}]}],
        "bool-index": [{"tool_calls": [{"index": True, "id": "a", "function": {"name": "now"}}]}],
        "none": None,
        "number-content": [{"content": 7}],
        "parse-only": [],  # streams nothing (wrong, but well formed); its parse is garbage
    }

    def __init__(self, shape: str) -> None:
        self.shape = shape

    def feed(self, text: str, token_ids: list[int] | None = None) -> Any:
        return self.SHAPES[self.shape]

    def finish(self) -> list[dict[str, Any]]:
        return []

    def parse(self, text: str) -> Any:
        return {"content": ["not", "text"], "tool_calls": "nope"}


def returns_garbage(dialect: str, request: dict[str, Any]) -> _Garbage:
    return _Garbage(os.environ.get("TOOLCONFORM_TEST_SHAPE", "list-name"))


class _Huge(ReferenceSession):
    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        if "Bei" in text:
            return [{"content": "x" * (50 * 2**20)}]
        return super().feed(text, token_ids)


def floods_its_output(dialect: str, request: dict[str, Any]) -> _Huge:
    """One 50 MB content delta when a chunk holds "Bei"."""
    return _Huge(dialect, request)


class _Chatty(ReferenceSession):
    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        print("PASS: 9999 cases, every check green", flush=True)
        print("\x1b[2J\x1b[31mFAKE\x1b[0m", file=sys.stderr, flush=True)
        return super().feed(text, token_ids)


def prints_fake_log_lines(dialect: str, request: dict[str, Any]) -> _Chatty:
    return _Chatty(dialect, request)


def moves_and_deletes(dialect: str, request: dict[str, Any]) -> ReferenceSession:
    """Deletes what it finds in its working directory, then moves away from it."""
    for entry in Path.cwd().iterdir():
        if entry.is_file():
            entry.unlink()
    os.chdir("/")
    return ReferenceSession(dialect, request)


def fails_to_start_again() -> None:
    """At import: counts its imports; every import after the second fails."""
    directory = os.environ.get(MARKS)
    if not directory:
        return
    counter = Path(directory) / "imports"
    count = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(count))
    if count > 2 and os.environ.get("TOOLCONFORM_TEST_FAIL_AGAIN"):
        raise RuntimeError(f"import number {count} fails")


fails_to_start_again()


class _DiesOnBei(ReferenceSession):
    def feed(self, text: str, token_ids: list[int] | None = None) -> list[dict[str, Any]]:
        if "Bei" in text:
            os._exit(9)
        return super().feed(text, token_ids)


def dies_then_cannot_restart(dialect: str, request: dict[str, Any]) -> _DiesOnBei:
    return _DiesOnBei(dialect, request)


def hangs_at_import_when_asked() -> None:
    if os.environ.get("TOOLCONFORM_TEST_HANG_IMPORT"):
        time.sleep(3600)


hangs_at_import_when_asked()


def exits_at_import_when_asked() -> None:
    if os.environ.get("TOOLCONFORM_TEST_EXIT_IMPORT"):
        sys.exit(0)


exits_at_import_when_asked()


def reference(dialect: str, request: dict[str, Any]) -> ReferenceSession:
    return ReferenceSession(dialect, request)
