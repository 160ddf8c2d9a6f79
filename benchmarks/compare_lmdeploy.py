"""The reference parser against LMDeploy 0.18's, raw ``stream_chunk`` against ``stream_chunk``.

The yardstick of the reference's speed: the same hermes workload (a call with one long
string argument, 1k / 8k / 64k characters, about four characters per chunk with tags
whole), both parsers called directly — no adapter, no dict conversion — after checking that
both produce the same call. CPU time, interleaved best of seven, so other load on the
machine cancels out. Two floors put the figures in scale (issue 16's yardstick: the reference
at least 5× cheaper than LMDeploy, and within 20× of the concatenation floor): a no-op
``stream_chunk`` (a method call per chunk that parses nothing) and a bare loop that only
concatenates the chunks.

Run inside the LMDeploy environment: ``tox -e lmdeploy --notest`` once, then
``.tox/lmdeploy/bin/python benchmarks/compare_lmdeploy.py``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolconform.harness.bench.measure import reference_result
from toolconform.harness.bench.workloads import QUICK_LADDER, aligned, long_string
from toolconform.harness.engines.lmdeploy import factory
from toolconform.reference import Request, get_dialect

REQUEST = {"tools": [{"type": "function", "function": {"name": "write_file"}}]}


def lmdeploy_parser():
    return factory("qwen25", REQUEST)._parser


def reference_parser():
    return get_dialect("qwen25").new_parser(Request.from_openai(REQUEST))


class NoopParser:
    """The call floor: ``stream_chunk`` that takes the chunk and parses nothing."""

    def stream_chunk(self, text, token_ids, *, final=False) -> list:
        return []


def cpu_time_of_concatenation(chunks) -> float:
    """The text floor: a loop that keeps the output so far and parses nothing."""
    start = time.process_time()
    text = ""
    for chunk in chunks:
        text += chunk
    return time.process_time() - start


def stream(parser, chunks) -> list:
    out = []
    for chunk in chunks[:-1]:
        out += parser.stream_chunk(chunk, [], final=False)
    out += parser.stream_chunk(chunks[-1], [], final=True)
    return out


def arguments(pairs) -> str:
    parts = []
    for message, _ in pairs:
        for call in message.tool_calls or ():
            function = getattr(call, "function", None)
            piece = function.arguments if function is not None else call.arguments
            parts.append(piece or "")
    return "".join(parts)


def cpu_time_of_stream(make_parser, chunks) -> float:
    start = time.process_time()
    stream(make_parser(), chunks)
    return time.process_time() - start


def main() -> None:
    print(
        f"{'size':>7} {'chunks':>7} {'reference':>10} {'LMDeploy':>9} {'no-op':>6} {'concat':>7}"
        f"  {'LMDeploy/ref':>12} {'ref/no-op':>9} {'ref/concat':>10}   (CPU µs per chunk)"
    )
    for size in QUICK_LADDER:
        workload = long_string("qwen25", size)
        chunks = aligned(workload, 4).chunks
        ours, theirs = stream(reference_parser(), chunks), stream(lmdeploy_parser(), chunks)
        (call,) = reference_result(workload).calls
        expected = json.loads(call.arguments)
        assert json.loads(arguments(ours)) == json.loads(arguments(theirs)) == expected
        best = [float("inf")] * 4
        for _ in range(7):
            best[0] = min(best[0], cpu_time_of_stream(reference_parser, chunks))
            best[1] = min(best[1], cpu_time_of_stream(lmdeploy_parser, chunks))
            best[2] = min(best[2], cpu_time_of_stream(NoopParser, chunks))
            best[3] = min(best[3], cpu_time_of_concatenation(chunks))
        ref, lmd, noop, concat = (b / len(chunks) * 1e6 for b in best)
        print(
            f"{size:>7} {len(chunks):>7} {ref:>10.3f} {lmd:>9.3f} {noop:>6.3f} {concat:>7.3f}"
            f"  {lmd / ref:>12.1f} {ref / noop:>9.1f} {ref / concat:>10.1f}"
        )


if __name__ == "__main__":
    main()
