"""Measuring a parser on a workload: verify first, then time, per chunk.

Every measurement starts by streaming the chunking once and comparing the coalesced result
with the reference parser's; a parser that gets the workload wrong is reported as a
mismatch and never timed (a fast wrong answer is not a result). Timing then streams the
same chunks through fresh sessions, round after round, with the clock read around each
feed, so that both the total (median and spread over rounds) and the per-chunk latency
(p50, p99) are known. In-process parsers are timed here; a protocol program times itself
(the batched ``run`` command), since a round trip per chunk would measure the pipe.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ...reference import Request, get_dialect
from ...reference.types import FinalResult
from ..adapters import Adapter
from ..cases import Case, Expectation, differences
from ..chunkings import Chunking
from ..execution import feed_chunking
from .workloads import Workload

OK = "ok"
MISMATCH = "mismatch"
ERROR = "error"
OVER_BUDGET = "over-budget"


@dataclass
class Measurement:
    """One adapter × workload × chunking: how it went and what it cost."""

    adapter: str
    dialect: str
    shape: str
    size: int
    chars: int
    chunking: str
    chunks: int
    tokens: int | None
    status: str
    message: str | None = None
    round_seconds: list[float] = field(default_factory=list)
    chunk_p50_us: float | None = None
    chunk_p99_us: float | None = None

    @property
    def seconds(self) -> float | None:
        """Median time of one whole stream."""
        return statistics.median(self.round_seconds) if self.round_seconds else None

    @property
    def us_per_chunk(self) -> float | None:
        seconds = self.seconds
        return None if seconds is None else seconds / max(self.chunks, 1) * 1e6

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        seconds = self.seconds
        data["seconds"] = seconds
        data["us_per_chunk"] = self.us_per_chunk
        data["chars_per_second"] = self.chars / seconds if seconds else None
        data["tokens_per_second"] = self.tokens / seconds if seconds and self.tokens else None
        if len(self.round_seconds) >= 2:
            data["spread"] = [min(self.round_seconds), max(self.round_seconds)]
        return data


def reference_result(workload: Workload) -> FinalResult:
    """What the workload must parse to: the reference parser's complete parse."""
    parser = get_dialect(workload.dialect).new_parser(Request.from_openai(workload.request))
    return parser.parse_complete(workload.text)


def stream_reference(workload: Workload, chunks: Sequence[str]) -> int:
    """The reference core alone streaming ``chunks``, as a server forwards deltas: what the
    core's benchmarks and the scaling tests time, with no adapter between.

    The deltas are counted and dropped rather than kept: a server serializes each one and
    lets it go, and keeping hundreds of thousands alive would time the garbage collector.
    """
    parser = get_dialect(workload.dialect).new_parser(Request.from_openai(workload.request))
    stream_chunk = parser.stream_chunk
    count = 0
    for chunk in chunks[:-1]:
        count += len(stream_chunk(chunk))
    return count + len(stream_chunk(chunks[-1], final=True))


def _as_case(workload: Workload) -> Case:
    return Case(
        id=workload.name,
        dialect=workload.dialect,
        kind="valid",
        level="must",
        description="benchmark workload",
        output=workload.text,
        request=workload.request,
    )


def verify(
    adapter: Adapter, workload: Workload, chunking: Chunking, expected: FinalResult
) -> str | None:
    """Why the adapter's result differs from the reference's, or ``None`` if it does not."""
    run = feed_chunking(adapter, _as_case(workload), chunking, feed_timeout=None)
    if run.result is None:
        return f"{run.outcome}: {run.error}"
    problems = differences(Expectation.from_result(expected, raw=False), run.result)
    return "; ".join(problems)[:500] if problems else None


def _time_in_process(
    adapter: Adapter, workload: Workload, chunking: Chunking, rounds: int, budget: float
) -> tuple[list[float], list[float], bool]:
    """Round totals (CPU seconds) and every chunk's wall time; stops early (True) past the
    time budget."""
    totals: list[float] = []
    per_chunk: list[float] = []
    ids = chunking.token_ids
    clock = time.perf_counter
    spent = 0.0
    for _ in range(rounds):
        session = adapter.raw_session(workload.dialect, workload.request, chunking.tokenizer)
        feed = session.feed
        # The total is CPU time (other load on the machine does not count); the per-chunk
        # latencies are wall-clock, as a client would see them.
        cpu_start = time.process_time()
        for position, chunk in enumerate(chunking.chunks):
            chunk_ids = list(ids[position]) if ids is not None else None
            start = clock()
            feed(chunk, chunk_ids)
            per_chunk.append(clock() - start)
        session.finish()
        total = time.process_time() - cpu_start
        totals.append(total)
        spent += total
        if spent > budget:
            return totals, per_chunk, True
    return totals, per_chunk, False


def _time_by_protocol(
    adapter: Adapter, workload: Workload, chunking: Chunking, rounds: int
) -> list[float]:
    """The program's own timing of the whole stream, from one batched ``run``."""
    batch = {"chunks": list(chunking.chunks)}
    if chunking.token_ids is not None:
        batch["token_ids"] = [list(ids) for ids in chunking.token_ids]
    totals = []
    for _ in range(rounds):
        (result,) = adapter.factory.run_batch(
            workload.dialect,
            workload.request,
            [batch],
            repeat=1,
            tokenizer_family=chunking.tokenizer,
        )
        if "error" in result:
            raise RuntimeError(result["error"])
        totals.append(result["elapsed_ns"] / 1e9)
    return totals


def measure(
    adapter: Adapter,
    workload: Workload,
    chunking: Chunking,
    *,
    expected: FinalResult | None,
    rounds: int,
    budget: float,
) -> Measurement:
    """Verify (unless ``expected`` is None: the no-op floor), then time."""
    tokens = sum(len(ids) for ids in chunking.token_ids) if chunking.token_ids is not None else None
    measurement = Measurement(
        adapter=adapter.spec,
        dialect=workload.dialect,
        shape=workload.shape,
        size=workload.size,
        chars=len(workload.text),
        chunking=chunking.family,
        chunks=len(chunking.chunks),
        tokens=tokens,
        status=OK,
    )
    try:
        # An adapter may refuse a session (e.g. no tokenizer for the dialect): that one
        # measurement is an error, the run goes on.
        problem = None if expected is None else verify(adapter, workload, chunking, expected)
        if problem is not None:
            measurement.status, measurement.message = MISMATCH, problem
            return measurement
        if adapter.in_process:
            totals, per_chunk, stopped = _time_in_process(
                adapter, workload, chunking, rounds, budget
            )
            per_chunk.sort()
            measurement.chunk_p50_us = per_chunk[len(per_chunk) // 2] * 1e6
            measurement.chunk_p99_us = (
                per_chunk[min(len(per_chunk) - 1, int(len(per_chunk) * 0.99))] * 1e6
            )
        else:
            totals, stopped = _time_by_protocol(adapter, workload, chunking, rounds), False
    except Exception as error:  # the parser under test failed while being timed
        measurement.status, measurement.message = ERROR, f"{type(error).__name__}: {error}"[:500]
        return measurement
    measurement.round_seconds = totals
    if stopped:
        measurement.status = OVER_BUDGET
        measurement.message = f"one stream took {totals[-1]:.1f} s; larger sizes are not run"
    return measurement
