"""Total work stays linear in the output length (a ratio within one run, generous margin).

Speed itself is measured in benchmarks/; here only the growth is asserted: 8× more output in
engine-sized chunks must cost far less than the 64× a quadratic parser would need.
"""

from __future__ import annotations

import time

from benchmarks.workloads import hermes_long_string, hermes_short_strings


def best_time(function, repeat: int = 3) -> float:
    """CPU time, not wall time: on a loaded machine a long run is preempted and a short one
    is not, which alone pushed the wall-clock ratio of a linear parser past 40."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def test_long_string_argument_is_linear() -> None:
    small, large = hermes_long_string(8_000, 4), hermes_long_string(64_000, 4)
    small.verify()
    large.verify()
    ratio = best_time(large.stream_only) / best_time(small.stream_only)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


def test_many_short_strings_is_linear() -> None:
    small, large = hermes_short_strings(2_048, 4), hermes_short_strings(16_384, 4)
    small.verify()
    large.verify()
    ratio = best_time(large.stream_only) / best_time(small.stream_only)
    assert ratio < 24, f"time(16k strings)/time(2k strings) = {ratio:.1f}: super-linear"
