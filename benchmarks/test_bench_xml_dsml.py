"""Throughput of the XML-like (qwen3_coder) and DSML (deepseek_v32) dialects.

Run: ``pytest benchmarks/test_bench_xml_dsml.py --benchmark-only``. A 1k / 8k / 64k-character
string argument, streamed ~4 characters per chunk with tags kept whole; the reconstruction is
verified before timing. The conftest prints µs per chunk, the multiples of the hermes
benchmark's floors on the same chunks, and time(64k)/time(8k). On a shared machine add
``--benchmark-timer time.process_time`` (CPU time, blind to descheduling).
"""

from __future__ import annotations

import pytest

from .test_bench_reference import _concatenate, _noop_stream
from .workloads import LONG_SIZES
from .xml_dsml_workloads import OUTPUTS, long_string


@pytest.mark.parametrize("size", LONG_SIZES)
@pytest.mark.parametrize("dialect", list(OUTPUTS))
def test_long_string_argument(benchmark, dialect: str, size: int) -> None:
    workload = long_string(dialect, size)
    workload.verify()
    benchmark.group = f"{dialect} long string, 4 chars/chunk"
    benchmark.extra_info.update(
        dialect=dialect, chars=len(workload.text), chunks=len(workload.chunks), size=size
    )
    benchmark.pedantic(workload.stream_only, rounds=5, iterations=1, warmup_rounds=1)


@pytest.mark.parametrize("floor", ["concat", "noop-parser"])
@pytest.mark.parametrize("size", LONG_SIZES)
@pytest.mark.parametrize("dialect", list(OUTPUTS))
def test_floor(benchmark, floor: str, dialect: str, size: int) -> None:
    """The same chunks through the floors of the hermes benchmark, for the × columns."""
    workload = long_string(dialect, size)
    benchmark.group = f"{dialect} long string, 4 chars/chunk"
    benchmark.extra_info.update(
        dialect=floor, chars=len(workload.text), chunks=len(workload.chunks)
    )
    function = _concatenate if floor == "concat" else _noop_stream
    result = benchmark.pedantic(
        function, args=(workload.chunks,), rounds=5, iterations=1, warmup_rounds=1
    )
    assert result == workload.text
