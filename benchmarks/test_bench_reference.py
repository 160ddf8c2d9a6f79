"""Throughput of the reference core on the hermes workload (seed 000's benchmark).

Run: ``pytest benchmarks/test_bench_reference.py --benchmark-only``. Each case first verifies
the streamed reconstruction, then times a fresh parser streaming every chunk. Two floors run
on the same chunks: ``concat``, a loop that only concatenates them, and ``noop-parser``, one
``stream_chunk`` call per chunk that only concatenates (the least any parser pays).
"""

from __future__ import annotations

import pytest

from .workloads import CHUNK_SIZES, LONG_SIZES, Workload, hermes_long_string, hermes_short_strings


def _run(benchmark, workload: Workload, size: int | None = None) -> None:
    workload.verify()
    benchmark.extra_info.update(
        dialect=workload.dialect, chars=len(workload.text), chunks=len(workload.chunks), size=size
    )
    benchmark.pedantic(workload.stream_only, rounds=5, iterations=1, warmup_rounds=1)


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


@pytest.mark.parametrize("size", LONG_SIZES)
@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_long_string_argument(benchmark, size: int, chunk_size: int) -> None:
    benchmark.group = f"hermes long string, {chunk_size} chars/chunk"
    _run(benchmark, hermes_long_string(size, chunk_size), size)


@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_many_short_strings(benchmark, chunk_size: int) -> None:
    benchmark.group = f"hermes 16384 short strings, {chunk_size} chars/chunk"
    _run(benchmark, hermes_short_strings(16_384, chunk_size))


@pytest.mark.parametrize("floor", ["concat", "noop-parser"])
@pytest.mark.parametrize("size", LONG_SIZES)
@pytest.mark.parametrize("chunk_size", CHUNK_SIZES)
def test_floor(benchmark, floor: str, size: int, chunk_size: int) -> None:
    benchmark.group = f"hermes long string, {chunk_size} chars/chunk"
    workload = hermes_long_string(size, chunk_size)
    benchmark.extra_info.update(
        dialect=floor, chars=len(workload.text), chunks=len(workload.chunks)
    )
    function = _concatenate if floor == "concat" else _noop_stream
    result = benchmark.pedantic(
        function, args=(workload.chunks,), rounds=5, iterations=1, warmup_rounds=1
    )
    assert result == workload.text
