"""The ds2api sieve's work grows linearly with the output (seed 003, DESIGN "linear").

Measured as a ratio within one run, in process CPU time, so that a slow or busy machine
does not matter: eight times the text must take well under the 64 times a quadratic sieve
would need. The chunks are cut anywhere (ds2api's sieve reads any split, seed 003).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from toolconform.harness.bench.measure import stream_reference
from toolconform.harness.bench.workloads import Workload, fenced_examples, near_miss_prose
from toolconform.strategies.chunking import fixed_size

#: A linear sieve gives about 8; quadratic work would give about 64.
MAX_RATIO = 24


def _best_time(workload: Workload, chunk_size: int, repeats: int) -> float:
    chunks = fixed_size(workload.text, chunk_size)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        stream_reference(workload, chunks)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("shape", [fenced_examples, near_miss_prose], ids=["cdata", "prose"])
@pytest.mark.parametrize(
    ("chunk_size", "small_size"),
    [(1, 8_000), (4, 8_000), (1 << 20, 16_000)],  # a whole 8k text is favoured by the caches
    ids=["chars", "tokens", "whole"],
)
def test_eight_times_the_text_is_not_sixty_four_times_the_work(
    shape: Callable[[str, int], Workload], chunk_size: int, small_size: int
) -> None:
    small = _best_time(shape("ds2api", small_size), chunk_size, repeats=5)
    large = _best_time(shape("ds2api", 8 * small_size), chunk_size, repeats=3)
    assert large / small < MAX_RATIO
