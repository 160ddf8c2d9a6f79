"""pytest-benchmark view of ``toolconform bench``: every dialect, one workload, two adapters.

Run: ``pytest benchmarks/test_bench_dialects.py --benchmark-only``. Same workloads, chunkings
and verification as the ``bench`` command (one real token per chunk, an 8k-character string
argument); pytest-benchmark's statistics and ``--benchmark-compare`` on top.
"""

from __future__ import annotations

import pytest

from toolconform.harness.adapters import load_in_process
from toolconform.harness.bench.measure import reference_result, verify
from toolconform.harness.bench.results import headline_chunking
from toolconform.harness.bench.workloads import chunkings, long_string
from toolconform.strategies import renderer_names

DIALECTS = renderer_names()


@pytest.mark.parametrize("spec", ["reference", "noop"])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_long_string_one_token_per_chunk(benchmark, dialect: str, spec: str) -> None:
    workload = long_string(dialect, 8_000)
    options = {c.family: c for c in chunkings(workload)}
    chunking = options[headline_chunking(options)]
    adapter = load_in_process(spec)
    if spec != "noop":
        assert verify(adapter, workload, chunking, reference_result(workload)) is None
    ids = chunking.token_ids

    def stream() -> None:
        session = adapter.raw_session(workload.dialect, workload.request, chunking.tokenizer)
        for position, chunk in enumerate(chunking.chunks):
            session.feed(chunk, list(ids[position]) if ids is not None else None)
        session.finish()

    benchmark.group = f"{dialect} 8k string, {chunking.family}"
    benchmark.extra_info.update(dialect=spec, chars=len(workload.text), chunks=len(chunking.chunks))
    benchmark.pedantic(stream, rounds=5, iterations=1, warmup_rounds=1)
