"""Derived figures after a benchmark run: µs per chunk, characters per second, the multiple
of the no-op loop on the same chunks, and the length-scaling ratio time(64k)/time(8k).

pytest-benchmark reports seconds per round; what matters for a streaming parser is the cost
per engine chunk and how it grows with the output, so these are printed as one table.
"""

from __future__ import annotations

from collections import defaultdict


def pytest_terminal_summary(terminalreporter, config) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    rows = []
    floors: dict[str, dict[tuple[str, int], float]] = defaultdict(dict)
    by_size: dict[tuple[str, str], dict[int, float]] = defaultdict(dict)
    for bench in session.benchmarks:
        info = bench.extra_info
        if "chunks" not in info:
            continue
        median = bench.stats.median
        if info["dialect"] in ("concat", "noop-parser"):
            floors[info["dialect"]][(bench.group, info["chars"])] = median
            continue
        rows.append((bench, median))
        size = info.get("size")
        if size:
            by_size[(bench.group, info["dialect"])][size] = median
    if not rows:
        return
    write = terminalreporter.write_line
    terminalreporter.section("toolconform: cost per chunk")
    write(
        f"{'benchmark':52} {'chunks':>7} {'µs/chunk':>9} {'Mchar/s':>8} "
        f"{'× concat':>9} {'× no-op parser':>15}"
    )
    for bench, median in rows:
        info = bench.extra_info
        multiples = []
        for kind, width in (("concat", 9), ("noop-parser", 15)):
            floor = floors[kind].get((bench.group, info["chars"]))
            multiples.append(f"{median / floor:{width}.1f}" if floor else " " * width)
        write(
            f"{bench.name[:52]:52} {info['chunks']:7d} {median / info['chunks'] * 1e6:9.2f} "
            f"{info['chars'] / median / 1e6:8.2f} {multiples[0]} {multiples[1]}"
        )
    ratios = [
        (group, dialect, sizes[64_000] / sizes[8_000])
        for (group, dialect), sizes in sorted(by_size.items())
        if 8_000 in sizes and 64_000 in sizes
    ]
    if ratios:
        write("")
        write("length scaling time(64k)/time(8k) (linear ≈ 8, must be ≤ 9):")
        for group, dialect, ratio in ratios:
            write(f"  {dialect:14} {group:45} {ratio:5.2f}")
