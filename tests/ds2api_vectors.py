"""The ds2api reference vectors: recorded from ds2api's own Go and Node test suites.

They live outside the project, in ``shared/reference-data/ds2api/cases.jsonl`` next to the
repository (``../shared`` from the repository root), or wherever ``TOOLCONFORM_SHARED``
points; tests that need them skip when they are absent. The format is described in
``shared/research/ds2api-semantics.md`` §2.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolconform.reference import FinalResult, get_dialect


def _shared_folder() -> Path:
    configured = os.environ.get("TOOLCONFORM_SHARED")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parents[1].parent / "shared"


CASES_FILE = _shared_folder() / "reference-data" / "ds2api" / "cases.jsonl"
SKIP_REASON = f"ds2api reference vectors not found at {CASES_FILE} (set TOOLCONFORM_SHARED)"


def load_cases() -> list[dict[str, Any]]:
    """The ``parse`` and ``stream`` vectors, or ``[]`` when the data is absent."""
    if not CASES_FILE.exists():
        return []
    with CASES_FILE.open(encoding="utf-8") as lines:
        cases = [json.loads(line) for line in lines if line.strip()]
    return [case for case in cases if case["kind"] in ("parse", "stream")]


@dataclass(frozen=True)
class Outcome:
    """What a vector compares: the calls (name, input) and, for streams, the text."""

    calls: list[dict[str, Any]]
    text: str | None


def expected(case: dict[str, Any]) -> Outcome:
    """ds2api's result after the final flush; Go is normative where Go and Node disagree."""
    cross = case["cross_impl"]
    use_go = not cross["agree"] or case.get("flushed") is False
    calls = cross["go_calls"] if use_go else case["expected_calls"]
    if case["kind"] != "stream":
        return Outcome(calls, None)
    return Outcome(calls, cross["go_text"] if use_go else case["expected_text"])


def chunks_of(case: dict[str, Any]) -> list[str]:
    return case["chunks"] if case["kind"] == "stream" else [case["input"]]


def replay(chunks: Sequence[str], *, final: bool = True) -> FinalResult:
    """Feed the chunks to a fresh ds2api parser; the last one is final when ``final``."""
    parser = get_dialect("ds2api").new_parser()
    if final:
        return parser.parse_stream(chunks)
    messages = [message for chunk in chunks for message, _ in parser.stream_chunk(chunk)]
    return FinalResult.from_deltas(messages)


def outcome(result: FinalResult, *, with_text: bool) -> Outcome:
    calls = [{"name": c.name, "input": json.loads(c.arguments)} for c in result.calls]
    return Outcome(calls, result.content if with_text else None)
