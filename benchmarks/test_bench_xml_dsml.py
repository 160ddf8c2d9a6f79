"""Throughput of the XML-like (qwen3_coder) and DSML (deepseek_v32) dialects.

Run: ``pytest benchmarks/test_bench_xml_dsml.py --benchmark-only``. A 1k / 8k / 64k-character
string argument, streamed ~4 characters per chunk with tags kept whole; the reconstruction is
verified before timing. The conftest prints µs per chunk, the multiples of the hermes
benchmark's floors on the same chunks, and time(64k)/time(8k). On a shared machine add
``--benchmark-timer time.process_time`` (CPU time, blind to descheduling).
"""

from __future__ import annotations

import pytest

from toolconform.harness.bench.workloads import QUICK_LADDER, markup_string

from .test_bench_reference import floor, run

#: The XML-like format and the DSML one whose long values are timed.
DIALECTS = ("qwen3_coder", "deepseek_v32")


@pytest.mark.parametrize("size", QUICK_LADDER)
@pytest.mark.parametrize("dialect", DIALECTS)
def test_long_string_argument(benchmark, dialect: str, size: int) -> None:
    benchmark.group = f"{dialect} long string, 4 chars/chunk"
    run(benchmark, markup_string(dialect, size), 4, size)


@pytest.mark.parametrize("name", ["concat", "noop-parser"])
@pytest.mark.parametrize("size", QUICK_LADDER)
@pytest.mark.parametrize("dialect", DIALECTS)
def test_floor(benchmark, name: str, dialect: str, size: int) -> None:
    """The same chunks through the floors of the hermes benchmark, for the × columns."""
    benchmark.group = f"{dialect} long string, 4 chars/chunk"
    floor(benchmark, name, markup_string(dialect, size), 4)
