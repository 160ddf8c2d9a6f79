"""The reference parser against LMDeploy 0.18's, raw ``stream_chunk`` against ``stream_chunk``.

The yardstick of the reference's speed: the same hermes workload (a call with one long
string argument, 1k / 8k / 64k characters, about four characters per chunk with tags
whole), both parsers called directly — no adapter, no dict conversion — after checking that
both produce the same call. CPU time, interleaved best of seven, so other load on the
machine cancels out.

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
from toolconform.harness.bench.workloads import QUICK_LADDER, chars, long_string
from toolconform.harness.engines.lmdeploy import factory
from toolconform.reference import Request, get_dialect

REQUEST = {"tools": [{"type": "function", "function": {"name": "write_file"}}]}


def lmdeploy_parser():
    return factory("qwen25", REQUEST)._parser


def reference_parser():
    return get_dialect("qwen25").new_parser(Request.from_openai(REQUEST))


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
    print(f"{'size':>7} {'chunks':>7} {'reference µs/chunk':>19} {'LMDeploy µs/chunk':>18} ratio")
    for size in QUICK_LADDER:
        workload = long_string("qwen25", size)
        chunks = chars(workload, 4).chunks
        ours, theirs = stream(reference_parser(), chunks), stream(lmdeploy_parser(), chunks)
        (call,) = reference_result(workload).calls
        expected = json.loads(call.arguments)
        assert json.loads(arguments(ours)) == json.loads(arguments(theirs)) == expected
        best = [float("inf"), float("inf")]
        for _ in range(7):
            best[0] = min(best[0], cpu_time_of_stream(reference_parser, chunks))
            best[1] = min(best[1], cpu_time_of_stream(lmdeploy_parser, chunks))
        per = [b / len(chunks) * 1e6 for b in best]
        print(f"{size:>7} {len(chunks):>7} {per[0]:>19.2f} {per[1]:>18.2f} {per[1] / per[0]:>6.1f}")


if __name__ == "__main__":
    main()
