"""The checks are linear in the output: a harness slower than the parser it judges would
blame the parser (or never finish). Asserted as a ratio within one run."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from toolconform.harness.cases import Case, Expectation
from toolconform.harness.checks import CaseContext, Run, verdicts
from toolconform.harness.chunkings import Chunking
from toolconform.harness.events import CONTENT, REASONING, Event
from toolconform.reference import FinalResult, get_dialect

from ..support import LINEAR_RATIO, cpu_ratio_of

SMALL, LARGE = 20_000, 160_000  # ×8


def _verdicts(field: str, size: int) -> Callable[[], dict]:
    """The checks of one run whose ``field`` differs from the expected text by one stray
    character in its middle, ready to be timed."""
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
    assert verdicts(run, context)["result.content" if field == CONTENT else "result.reasoning"]
    return lambda: verdicts(run, context)


@pytest.mark.parametrize("field", [CONTENT, REASONING])
def test_the_checks_stay_linear_on_a_one_character_difference(field: str) -> None:
    ratio = cpu_ratio_of(_verdicts(field, SMALL), _verdicts(field, LARGE), rounds=3)
    assert ratio < LINEAR_RATIO, f"time({LARGE})/time({SMALL}) = {ratio:.1f}"
