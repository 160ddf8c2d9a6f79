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

from toolconform.reference import ParsedResponse, get_dialect

from .ds2api_workloads import PREFIX, SUFFIX, cdata_body, cdata_call, chunks, near_miss_prose

SIZES = (1_000, 8_000, 64_000)


def stream(pieces: list[str]) -> ParsedResponse:
    """The client's view: every delta, coalesced (used to verify the result)."""
    parser = get_dialect("ds2api").new_parser()
    messages = []
    for position, piece in enumerate(pieces):
        final = position == len(pieces) - 1
        messages.extend(message for message, _ in parser.stream_chunk(piece, final=final))
    return ParsedResponse.from_deltas(messages)


def feed(pieces: list[str]) -> int:
    """The parser's work alone (what is timed): feed every chunk, count the deltas."""
    parser = get_dialect("ds2api").new_parser()
    last = len(pieces) - 1
    return sum(len(parser.stream_chunk(piece, final=i == last)) for i, piece in enumerate(pieces))


@pytest.mark.parametrize("size", SIZES)
def test_cdata_parameter(benchmark: pytest.FixtureRequest, size: int) -> None:
    pieces = chunks(cdata_call(size))
    result = stream(pieces)
    assert result.content == PREFIX + SUFFIX
    assert [call.name for call in result.tool_calls] == ["Write"]
    assert json.loads(result.tool_calls[0].arguments)["content"] == cdata_body(size)
    benchmark.group = "ds2api cdata parameter"
    benchmark(feed, pieces)


@pytest.mark.parametrize("size", SIZES)
def test_near_miss_prose(benchmark: pytest.FixtureRequest, size: int) -> None:
    text = near_miss_prose(size)
    pieces = chunks(text)
    result = stream(pieces)
    assert result.content == text
    assert result.tool_calls == []
    benchmark.group = "ds2api near-miss prose"
    benchmark(feed, pieces)
