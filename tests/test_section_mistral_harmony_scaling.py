"""Total work is linear in the output length for the section-token, Mistral and Harmony dialects.

A long string argument (and, for Harmony, a long analysis message) is streamed in small
tag-aligned chunks at two sizes; the time ratio must stay far below the quadratic ratio.
Best of five interleaved runs in CPU time, and a generous bound: the machines are shared
and noisy.
"""

from __future__ import annotations

import time

import pytest

from toolconform.reference import get_dialect
from toolconform.strategies.chunking import fixed_size, tag_aligned_boundaries

SMALL, LARGE = 8_000, 64_000  # characters of the argument value; linear ratio 8, quadratic 64
BOUND = 20


def sample(dialect: str, size: int) -> str:
    value = ('ab\\"c{}[] 中 <' * (size // 14 + 1))[:size]
    arguments = f'{{"s": "{value}"}}'
    if dialect == "deepseek_v3":
        return (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n"
            f"{arguments}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        )
    if dialect == "deepseek_v31":
        return (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>"
            f"{arguments}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        )
    if dialect == "kimi_k2":
        return (
            "<think>r</think><|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
            f"<|tool_call_argument_begin|>{arguments}<|tool_call_end|><|tool_calls_section_end|>"
        )
    if dialect == "mistral":
        return f"[TOOL_CALLS]f[ARGS]{arguments}"
    return (
        f"<|channel|>analysis<|message|>{value}<|end|><|start|>assistant<|channel|>commentary"
        f" to=functions.f <|constrain|>json<|message|>{arguments}<|call|>"
    )


def stream_time(dialect: str, chunks: list[str]) -> float:
    """CPU time of one streamed parse (not wall time: other processes share the machine)."""
    parser = get_dialect(dialect).new_parser()
    start = time.process_time()
    for position, chunk in enumerate(chunks):
        parser.stream_chunk(chunk, final=position == len(chunks) - 1)
    return time.process_time() - start


@pytest.mark.parametrize(
    "dialect", ["deepseek_v3", "deepseek_v31", "kimi_k2", "mistral", "gpt_oss"]
)
def test_streaming_work_is_linear(dialect: str) -> None:
    tags = get_dialect(dialect).protocol_tags()
    workloads = []
    for size in (SMALL, LARGE):
        text = sample(dialect, size)
        workloads.append(fixed_size(text, 4, tag_aligned_boundaries(text, tags)))
    best = [float("inf"), float("inf")]
    for _ in range(5):  # interleaved, so that a slow moment hurts both sizes alike
        for k, chunks in enumerate(workloads):
            best[k] = min(best[k], stream_time(dialect, chunks))
    small, large = best
    assert large / small < BOUND, f"{dialect}: {large:.4f}s / {small:.4f}s"
