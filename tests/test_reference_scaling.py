"""Total work stays linear in the output length (a ratio within one run, generous margin).

Speed itself is measured in benchmarks/; here only the growth is asserted: 8× more output in
engine-sized chunks must cost far less than the 64× a quadratic parser would need.
"""

from __future__ import annotations

import json
import time

from toolconform.harness.adapters import load_in_process
from toolconform.harness.bench.measure import reference_result, stream_reference, verify
from toolconform.harness.bench.workloads import (
    Workload,
    chars,
    long_string,
    many_short_strings,
)

#: Characters per chunk: about one real token.
TOKEN = 4


def verified(workload: Workload) -> Workload:
    """``workload`` once its 4-character stream is known to equal the complete parse."""
    reference = load_in_process("reference")
    assert verify(reference, workload, chars(workload, TOKEN), reference_result(workload)) is None
    return workload


def cpu_ratio(small: Workload, large: Workload, rounds: int = 5) -> float:
    """Best CPU time of ``large`` over that of ``small``, streamed in 4-character chunks by
    the reference core, measured alternately.

    CPU time of this process, interleaved: other load on the machine slows both alike.
    """
    streams = [(workload, chars(workload, TOKEN).chunks) for workload in (small, large)]
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for position, (workload, chunks) in enumerate(streams):
            start = time.process_time()
            stream_reference(workload, chunks)
            best[position] = min(best[position], time.process_time() - start)
    return best[1] / best[0]


def written_file(workload: Workload) -> str:
    """The ``content`` argument of the workload's one ``write_file`` call."""
    (call,) = reference_result(workload).calls
    return json.loads(call.arguments)["content"]


def test_long_string_argument_is_linear() -> None:
    small, large = verified(long_string("qwen3", 8_000)), verified(long_string("qwen3", 64_000))
    assert len(written_file(large)) == 64_000
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


def test_many_short_strings_is_linear() -> None:
    small = verified(many_short_strings("qwen3", 2_048))
    large = verified(many_short_strings("qwen3", 16_384))
    (call,) = reference_result(large).calls
    assert len(json.loads(call.arguments)["items"]) == 16_384
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(16k strings)/time(2k strings) = {ratio:.1f}: super-linear"
