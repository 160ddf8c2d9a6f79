"""Total work stays linear in the output length (a ratio within one run, generous margin).

Speed itself is measured in benchmarks/; here only the growth is asserted: 8× more output in
engine-sized chunks must cost far less than the 64× a quadratic parser would need.
"""

from __future__ import annotations

import time

from benchmarks.workloads import hermes_long_string, hermes_short_strings


def cpu_ratio(small, large, rounds: int = 5) -> float:
    """Best CPU time of ``large`` over that of ``small``, measured alternately.

    CPU time of this process, interleaved: other load on the machine slows both alike.
    """
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for position, workload in enumerate((small, large)):
            start = time.process_time()
            workload.stream_only()
            best[position] = min(best[position], time.process_time() - start)
    return best[1] / best[0]


def test_long_string_argument_is_linear() -> None:
    small, large = hermes_long_string(8_000, 4), hermes_long_string(64_000, 4)
    small.verify()
    large.verify()
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


def test_many_short_strings_is_linear() -> None:
    small, large = hermes_short_strings(2_048, 4), hermes_short_strings(16_384, 4)
    small.verify()
    large.verify()
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(16k strings)/time(2k strings) = {ratio:.1f}: super-linear"
