"""The two figures of a throughput report, one panel per dialect, one line per parser.

1. cost per chunk against chunk size (the largest long-string workload): how much a parser
   pays per engine step, from one character to 256;
2. time of a whole stream against the length of its long string argument, log-log (one real
   token per chunk, or four characters where a dialect has no faithful tokenizer): a
   straight line of slope 1 is linear; steeper is super-linear.

Figures are compared panel against panel, so each parser keeps one colour in every panel and
in the shared legend (the no-op floor is grey and dashed), sizes read as people say them
(1k, 64k, 1M), ticks sit only at the sizes measured, and no label lands on another.

Needs matplotlib (the ``bench`` extra); rendered headless (Agg).
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..chunkings import Family
from .results import headline_chunking

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FLOOR = "noop"
FLOOR_COLOUR = "#8c959f"
FIGURES = ("chunk-size", "scaling")


def _chunk_size(chunking: str) -> int | None:
    kind, _, value = chunking.partition(":")
    return int(value) if kind == Family.ALIGNED and value.isdigit() else None


def size_label(value: float) -> str:
    """``1k``, ``64k``, ``1M``: a size as people say it (``8`` stays ``8``)."""
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def duration_label(seconds: float) -> str:
    """``1 µs``, ``20 ms``, ``3 s``."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def colours(measurements: list[dict[str, Any]]) -> dict[str, str]:
    """One colour per parser for every panel and the legend; the floor is grey."""
    adapters = sorted({m["adapter"] for m in measurements} - {FLOOR})
    palette = [f"C{index % 10}" for index in range(len(adapters))]
    return {FLOOR: FLOOR_COLOUR, **dict(zip(adapters, palette, strict=True))}


def _grid(count: int) -> tuple[int, int]:
    columns = min(4, count)
    return math.ceil(count / columns), columns


def figures(measurements: list[dict[str, Any]]) -> dict[str, Figure]:
    """The figures by name (``chunk-size``, ``scaling``); none when nothing was timed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timed = [m for m in measurements if m.get("seconds") and m["status"] in ("ok", "over-budget")]
    dialects = sorted({m["dialect"] for m in timed})
    if not dialects:
        return {}
    palette = colours(timed)
    made = {}
    for name, draw in zip(FIGURES, (_chunk_size_panel, _scaling_panel), strict=True):
        rows, columns = _grid(len(dialects))
        figure, axes = plt.subplots(
            rows, columns, figsize=(4.2 * columns, 3.3 * rows), squeeze=False
        )
        for index, dialect in enumerate(dialects):
            draw(
                axes[index // columns][index % columns],
                dialect,
                [m for m in timed if m["dialect"] == dialect],
                palette,
            )
        for index in range(len(dialects), rows * columns):
            axes[index // columns][index % columns].axis("off")
        shown = sorted({m["adapter"] for m in timed}, key=lambda a: (a == FLOOR, a))
        handles = [
            matplotlib.lines.Line2D(
                [], [], color=palette[a], marker="o", linestyle="--" if a == FLOOR else "-"
            )
            for a in shown
        ]
        # The legend gets its own band below the panels, so it never covers one.
        legend_rows = math.ceil(len(shown) / 6)
        band = (0.35 + 0.25 * legend_rows) / figure.get_figheight()
        figure.legend(handles, shown, loc="lower center", ncol=min(6, len(shown)), frameon=False)
        figure.tight_layout(rect=(0, band, 1, 1), h_pad=1.2, w_pad=1.0)
        made[name] = figure
    return made


def plot(measurements: list[dict[str, Any]], directory: Path) -> list[Path]:
    """Write ``chunk-size.png/svg`` and ``scaling.png/svg``; return the PNG paths."""
    import matplotlib.pyplot as plt

    written = []
    for name, figure in figures(measurements).items():
        for suffix in ("png", "svg"):
            figure.savefig(directory / f"{name}.{suffix}", dpi=110)
        plt.close(figure)
        written.append(directory / f"{name}.png")
    return written


def _draw(axis: Axes, lines: dict[str, list[tuple[float, float]]], palette: dict[str, str]) -> None:
    for adapter, points in sorted(lines.items()):
        points.sort()
        axis.plot(
            *zip(*points, strict=True),
            marker="o",
            color=palette[adapter],
            label=adapter,
            linestyle="--" if adapter == FLOOR else "-",
        )


def _log_axes(axis: Axes, lines: dict[str, list[tuple[float, float]]], y_label) -> None:  # type: ignore[no-untyped-def]
    """Log-log axes: ticks at the measured x values (thinned to fit), y ticks at 1, 2 and 5
    times a power of ten when the values span less than two decades, labels readable."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter

    axis.set_xscale("log")
    axis.set_yscale("log")
    measured = sorted({x for points in lines.values() for x, _ in points})
    ys = [y for points in lines.values() for _, y in points if y > 0]
    # At most five ticks, the ends kept, evenly spread between.
    picked = {round(i * (len(measured) - 1) / 4) for i in range(5)} if measured else set()
    ticks = [measured[i] for i in sorted(picked)]
    axis.xaxis.set_major_locator(FixedLocator(ticks))
    axis.xaxis.set_major_formatter(FuncFormatter(lambda value, _: size_label(value)))
    axis.xaxis.set_minor_formatter(NullFormatter())
    narrow = bool(ys) and max(ys) / min(ys) < 100
    axis.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5) if narrow else (1,)))
    axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: y_label(value)))
    axis.yaxis.set_minor_formatter(NullFormatter())
    axis.tick_params(labelsize=8)


def _chunk_size_panel(
    axis: Axes, dialect: str, measurements: list[dict[str, Any]], palette: dict[str, str]
) -> None:
    lines: dict[str, list[tuple[float, float]]] = defaultdict(list)
    largest = max((m["size"] for m in measurements if m["shape"] == "long-string"), default=None)
    for m in measurements:
        size = _chunk_size(m["chunking"])
        if m["shape"] == "long-string" and m["size"] == largest and size:
            lines[m["adapter"]].append((size, m["us_per_chunk"] * 1e-6))
    _draw(axis, lines, palette)
    _log_axes(axis, lines, duration_label)
    axis.set_title(f"{dialect} ({size_label(largest or 0)} characters)", fontsize=9)
    axis.set_xlabel("characters per chunk", fontsize=8)
    axis.set_ylabel("time per chunk", fontsize=8)


def _scaling_panel(
    axis: Axes, dialect: str, measurements: list[dict[str, Any]], palette: dict[str, str]
) -> None:
    ladder = [m for m in measurements if m["shape"] == "long-string"]
    chunkings = {m["chunking"] for m in ladder}
    chosen = headline_chunking(chunkings)
    lines: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for m in ladder:
        if m["chunking"] == chosen:
            lines[m["adapter"]].append((m["size"], m["seconds"]))
    _draw(axis, lines, palette)
    _log_axes(axis, lines, duration_label)
    axis.set_title(f"{dialect} ({chosen})", fontsize=9)
    axis.set_xlabel("string argument (characters)", fontsize=8)
    axis.set_ylabel("time per stream", fontsize=8)
