"""The ds2api sieve's work grows linearly with the output (seed 003, DESIGN "linear").

Measured as a ratio within one run, in process CPU time, so that a slow or busy machine
does not matter: eight times the text must take well under the 64 times a quadratic sieve
would need.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from benchmarks.ds2api_workloads import cdata_call, chunks, near_miss_prose
from toolconform.reference import get_dialect

#: A linear sieve gives about 8; quadratic work would give about 64.
MAX_RATIO = 24


def _best_time(pieces: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        parser = get_dialect("ds2api").new_parser()
        start = time.process_time()
        for position, piece in enumerate(pieces):
            parser.stream_chunk(piece, final=position == len(pieces) - 1)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("workload", [cdata_call, near_miss_prose], ids=["cdata", "prose"])
@pytest.mark.parametrize(
    ("chunk_size", "small_size"),
    [(1, 8_000), (4, 8_000), (1 << 20, 16_000)],  # a whole 8k text is favoured by the caches
    ids=["chars", "tokens", "whole"],
)
def test_eight_times_the_text_is_not_sixty_four_times_the_work(
    workload: Callable[[int], str], chunk_size: int, small_size: int
) -> None:
    small = _best_time(chunks(workload(small_size), chunk_size), repeats=5)
    large = _best_time(chunks(workload(8 * small_size), chunk_size), repeats=3)
    assert large / small < MAX_RATIO
