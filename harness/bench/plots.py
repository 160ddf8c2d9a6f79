"""The two figures of a throughput report, one panel per dialect, one line per parser.

1. cost per chunk against chunk size (the 64k long-string workload): how much a parser pays
   per engine step, from one character to 256;
2. time of a whole stream against output length, log-log (one real token per chunk, or four
   characters where a dialect has no faithful tokenizer): a straight line of slope 1 is
   linear; steeper is super-linear.

Needs matplotlib (the ``bench`` extra); rendered headless (Agg).
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

FLOOR = "noop"


def _chunk_size(chunking: str) -> int | None:
    kind, _, value = chunking.partition(":")
    return int(value) if kind == "chars" and value.isdigit() else None


def _grid(count: int) -> tuple[int, int]:
    columns = min(4, count)
    return math.ceil(count / columns), columns


def plot(measurements: list[dict[str, Any]], directory: Path) -> list[Path]:
    """Write ``chunk-size.png/svg`` and ``scaling.png/svg``; return the PNG paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timed = [m for m in measurements if m.get("seconds") and m["status"] in ("ok", "over-budget")]
    dialects = sorted({m["dialect"] for m in timed})
    if not dialects:
        return []
    written = []
    for name, draw in (("chunk-size", _chunk_size_panel), ("scaling", _scaling_panel)):
        rows, columns = _grid(len(dialects))
        figure, axes = plt.subplots(
            rows, columns, figsize=(4.2 * columns, 3.2 * rows), squeeze=False
        )
        for index, dialect in enumerate(dialects):
            draw(
                axes[index // columns][index % columns],
                dialect,
                [m for m in timed if m["dialect"] == dialect],
            )
        for index in range(len(dialects), rows * columns):
            axes[index // columns][index % columns].axis("off")
        handles, labels = [], []
        for axis in figure.axes:
            for handle, label in zip(*axis.get_legend_handles_labels(), strict=True):
                if label not in labels:
                    handles.append(handle)
                    labels.append(label)
        if labels:
            figure.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)))
        figure.tight_layout(rect=(0, 0.06, 1, 1))
        for suffix in ("png", "svg"):
            figure.savefig(directory / f"{name}.{suffix}", dpi=110)
        plt.close(figure)
        written.append(directory / f"{name}.png")
    return written


def _chunk_size_panel(axis, dialect: str, measurements: list[dict[str, Any]]) -> None:
    lines: dict[str, list[tuple[int, float]]] = defaultdict(list)
    largest = max((m["size"] for m in measurements if m["shape"] == "long-string"), default=None)
    for m in measurements:
        size = _chunk_size(m["chunking"])
        if m["shape"] == "long-string" and m["size"] == largest and size:
            lines[m["adapter"]].append((size, m["us_per_chunk"]))
    for adapter, points in sorted(lines.items()):
        points.sort()
        axis.plot(
            *zip(*points, strict=True),
            marker="o",
            label=adapter,
            linestyle="--" if adapter == FLOOR else "-",
        )
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_title(f"{dialect} ({largest or 0:,} chars)", fontsize=9)
    axis.set_xlabel("characters per chunk", fontsize=8)
    axis.set_ylabel("µs per chunk", fontsize=8)


def _scaling_panel(axis, dialect: str, measurements: list[dict[str, Any]]) -> None:
    ladder = [m for m in measurements if m["shape"] == "long-string"]
    chunkings = {m["chunking"] for m in ladder}
    chosen = next((c for c in sorted(chunkings) if c.startswith("tokens:")), "chars:4")
    lines: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for m in ladder:
        if m["chunking"] == chosen:
            lines[m["adapter"]].append((m["chars"], m["seconds"]))
    for adapter, points in sorted(lines.items()):
        points.sort()
        axis.plot(
            *zip(*points, strict=True),
            marker="o",
            label=adapter,
            linestyle="--" if adapter == FLOOR else "-",
        )
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_title(f"{dialect} ({chosen})", fontsize=9)
    axis.set_xlabel("output length (characters)", fontsize=8)
    axis.set_ylabel("seconds per stream", fontsize=8)
