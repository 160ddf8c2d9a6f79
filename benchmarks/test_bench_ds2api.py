"""Throughput and scaling of the ds2api sieve (pytest-benchmark).

Two workloads at 1k, 8k and 64k characters, streamed in token-sized chunks: a DSML call
whose ``content`` parameter is one long CDATA section (with fenced DSML examples inside),
and prose full of near-miss tags. The result is checked before anything is timed. Compare
the means of one workload: time(64k) / time(8k) is about 8 for a linear sieve.

    pytest benchmarks/test_bench_ds2api.py --benchmark-group-by=group

On a shared machine add ``--benchmark-timer=time.process_time``: wall time then mostly
measures the other processes.
"""

from __future__ import annotations

import json

import pytest

from toolconform.harness.bench.measure import reference_result
from toolconform.harness.bench.workloads import (
    QUICK_LADDER,
    fenced_code,
    fenced_examples,
    near_miss_prose,
)

from .test_bench_reference import run


@pytest.mark.parametrize("size", QUICK_LADDER)
def test_cdata_parameter(benchmark: pytest.FixtureRequest, size: int) -> None:
    workload = fenced_examples("ds2api", size)
    result = reference_result(workload)
    assert result.content == "Writing it.\n\nDone."
    assert [call.name for call in result.calls] == ["write_file"]
    assert json.loads(result.calls[0].arguments)["content"] == fenced_code(size)
    benchmark.group = "ds2api cdata parameter"
    run(benchmark, workload, 4, size)


@pytest.mark.parametrize("size", QUICK_LADDER)
def test_near_miss_prose(benchmark: pytest.FixtureRequest, size: int) -> None:
    workload = near_miss_prose("ds2api", size)
    result = reference_result(workload)
    assert result.calls == []
    benchmark.group = "ds2api near-miss prose"
    run(benchmark, workload, 4, size)
