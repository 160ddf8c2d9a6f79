"""Total work is linear in the output length for the section-token, Mistral and Harmony dialects.

Each workload (a long string argument, many short escape-heavy strings and, for Harmony,
whose reasoning is an analysis message, a long reasoning before the answer) is streamed in
4-character tag-aligned chunks at two sizes 8× apart; the time ratio must stay far below the
quadratic 64. Best of five interleaved runs in CPU time, and a generous bound: the machines
are shared and noisy.
"""

from __future__ import annotations

import pytest

from toolconform.harness.bench.workloads import (
    long_string,
    many_short_strings,
    reasoning_and_content,
)

from .test_reference_scaling import cpu_ratio, verified

BOUND = 20
#: A workload at two sizes, 8× apart.
LADDERS = {
    "long-string": (long_string, 8_000, 64_000),  # characters of the value
    "short-strings": (many_short_strings, 2_048, 16_384),  # strings in one list
}
DIALECTS = ["deepseek_v3", "deepseek_v31", "kimi_k2", "mistral", "gpt_oss"]


@pytest.mark.parametrize("shape", list(LADDERS))
@pytest.mark.parametrize("dialect", DIALECTS)
def test_streaming_work_is_linear(dialect: str, shape: str) -> None:
    workload, small_size, large_size = LADDERS[shape]
    small, large = verified(workload(dialect, small_size)), verified(workload(dialect, large_size))
    ratio = cpu_ratio(small, large)
    assert ratio < BOUND, f"{dialect} {shape}: time(8×)/time(1×) = {ratio:.1f}"


def test_a_long_analysis_message_is_linear() -> None:
    small = verified(reasoning_and_content("gpt_oss", 8_000))
    large = verified(reasoning_and_content("gpt_oss", 64_000))
    ratio = cpu_ratio(small, large)
    assert ratio < BOUND, f"time(64k)/time(8k) = {ratio:.1f}"
