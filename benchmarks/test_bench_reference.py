"""Throughput of the reference core on the hermes workload (seed 000's benchmark).

Run: ``pytest benchmarks/test_bench_reference.py --benchmark-only``. Each case first verifies
the streamed reconstruction, then times a fresh parser streaming every chunk. Two floors run
on the same chunks: ``concat``, a loop that only concatenates them, and ``noop-parser``, one
``stream_chunk`` call per chunk that only concatenates (the least any parser pays).
"""

from __future__ import annotations

import pytest

from toolconform.harness.adapters import load_in_process
from toolconform.harness.bench.measure import reference_result, stream_reference, verify
from toolconform.harness.bench.workloads import (
    CHUNK_SIZES,
    QUICK_LADDER,
    Workload,
    aligned,
    long_string,
    many_short_strings,
)


def run(benchmark, workload: Workload, chunk_size: int, size: int | None = None) -> None:
    """Verify the stream against the complete parse, then time the reference core on it."""
    chunking = aligned(workload, chunk_size)
    reference = load_in_process("reference")
    assert verify(reference, workload, chunking, reference_result(workload)) is None
    benchmark.extra_info.update(
        dialect=workload.dialect, chars=len(workload.text), chunks=len(chunking.chunks), size=size
    )
    benchmark.pedantic(
        stream_reference, args=(workload, chunking.chunks), rounds=5, iterations=1, warmup_rounds=1
    )


def floor(benchmark, name: str, workload: Workload, chunk_size: int) -> None:
    """The same chunks through one of the floors, for the × columns of the conftest."""
    chunks = aligned(workload, chunk_size).chunks
    benchmark.extra_info.update(dialect=name, chars=len(workload.text), chunks=len(chunks))
    function = _concatenate if name == "concat" else _noop_stream
    result = benchmark.pedantic(function, args=(chunks,), rounds=5, iterations=1, warmup_rounds=1)
    assert result == workload.text


def _concatenate(chunks: tuple[str, ...]) -> str:
    """The bare floor: a loop that only concatenates the chunks."""
    text = ""
    for chunk in chunks:
        text += chunk
    return text


class NoopParser:
    """The floor with a parser's shape: one call per chunk, text kept, no deltas."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def stream_chunk(self, text: str, final: bool = False) -> list:
        self.parts.append(text)
        return []


def _noop_stream(chunks: tuple[str, ...]) -> str:
    parser = NoopParser()
    stream_chunk = parser.stream_chunk
    count = 0
    for chunk in chunks[:-1]:
        count += len(stream_chunk(chunk))
    count += len(stream_chunk(chunks[-1], final=True))
    return "".join(parser.parts)


@pytest.mark.parametrize("size", QUICK_LADDER)
@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_long_string_argument(benchmark, size: int, chunk_size: int) -> None:
    benchmark.group = f"hermes long string, {chunk_size} chars/chunk"
    run(benchmark, long_string("qwen3", size), chunk_size, size)


@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_many_short_strings(benchmark, chunk_size: int) -> None:
    benchmark.group = f"hermes 16384 short strings, {chunk_size} chars/chunk"
    run(benchmark, many_short_strings("qwen3", 16_384), chunk_size)


@pytest.mark.parametrize("name", ["concat", "noop-parser"])
@pytest.mark.parametrize("size", QUICK_LADDER)
@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_floor(benchmark, name: str, size: int, chunk_size: int) -> None:
    benchmark.group = f"hermes long string, {chunk_size} chars/chunk"
    floor(benchmark, name, long_string("qwen3", size), chunk_size)
