"""The checks are linear in the output: a harness slower than the parser it judges would
blame the parser (or never finish). Asserted as a ratio within one run."""

from __future__ import annotations

import time

import pytest

from toolconform.harness.cases import Case, Expectation
from toolconform.harness.checks import CaseContext, Run, verdicts
from toolconform.harness.chunkings import Chunking
from toolconform.harness.events import CONTENT, REASONING, Event, FinalResult
from toolconform.reference import get_dialect

SMALL, LARGE = 20_000, 160_000  # ×8
ALLOWED = 24  # ×3 slack on linear; a quadratic check measures ~64


def _verdict_seconds(field: str, size: int) -> float:
    text = "reasoning about the weather " * (size // 28)
    stray = text[: len(text) // 2] + "<" + text[len(text) // 2 :]  # one stray character
    expected = Expectation(content="" if field == REASONING else text,
                           reasoning=text if field == REASONING else None)  # fmt: skip
    result = FinalResult(
        "" if field == REASONING else stray, stray if field == REASONING else None, []
    )
    case = Case("t/valid/x", "qwen3", "valid", "must", "", text, {}, (expected,))
    context = CaseContext.build(case, get_dialect("qwen3"), case.expectations)
    chunks = [stray[i : i + 4] for i in range(0, len(stray), 4)]
    events = [[Event(field, chunk)] for chunk in chunks]
    run = Run(Chunking("pieces:test", tuple(chunks)), events, result=result)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        out = verdicts(run, context)
        best = min(best, time.process_time() - start)
    assert out["result.content" if field == CONTENT else "result.reasoning"] is not None
    return best


@pytest.mark.parametrize("field", [CONTENT, REASONING])
def test_the_checks_stay_linear_on_a_one_character_difference(field: str) -> None:
    small, large = _verdict_seconds(field, SMALL), _verdict_seconds(field, LARGE)
    ratio = large / max(small, 1e-6)
    assert ratio < ALLOWED, f"time({LARGE})/time({SMALL}) = {ratio:.1f}"
