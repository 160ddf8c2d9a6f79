"""Throughput reports for people: Markdown and self-contained HTML (plots inlined)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from ..html_page import page
from ..scaling import SUPER_LINEAR
from .results import headline_chunking

FLOOR = "noop"


def headline(data: dict[str, Any]) -> tuple[list[str], list[str], dict[tuple[str, str], str]]:
    """adapter × dialect: µs per chunk (× no-op) on the largest quick long-string workload."""
    measurements = data["measurements"]
    dialects = sorted({m["dialect"] for m in measurements})
    adapters = sorted({m["adapter"] for m in measurements}, key=lambda a: (a == FLOOR, a))
    multiples = {
        (f["adapter"], f["dialect"], f["shape"], f["size"], f["chunking"]): f["multiple"]
        for f in data["floors"]
    }
    cells: dict[tuple[str, str], str] = {}
    for dialect in dialects:
        chunking = headline_chunking(m["chunking"] for m in measurements if m["dialect"] == dialect)
        sizes = [
            m["size"]
            for m in measurements
            if m["dialect"] == dialect and m["shape"] == "long-string"
        ]
        size = 64_000 if 64_000 in sizes else max(sizes, default=0)
        for m in measurements:
            if (m["dialect"], m["shape"], m["size"], m["chunking"]) != (
                dialect,
                "long-string",
                size,
                chunking,
            ):
                continue
            if m["status"] == "mismatch":
                cells[(m["adapter"], dialect)] = "mismatch"
            elif m.get("us_per_chunk"):
                multiple = multiples.get((m["adapter"], dialect, "long-string", size, chunking))
                cells[(m["adapter"], dialect)] = f"{m['us_per_chunk']:.2f}" + (
                    f" (×{multiple:.0f})" if multiple else ""
                )
            elif m["status"] != "ok":
                cells[(m["adapter"], dialect)] = m["status"]
    return adapters, dialects, cells


def headline_exponents(data: dict[str, Any]) -> dict[tuple[str, str], float]:
    """adapter × dialect: the exponent on the headline chunking."""
    out = {}
    for row in data["scaling"]:
        if row["chunking"] == headline_chunking(
            m["chunking"] for m in data["measurements"] if m["dialect"] == row["dialect"]
        ):
            out[(row["adapter"], row["dialect"])] = row["exponent"]
    return out


def render_markdown(
    data: dict[str, Any], *, command: str, plots: list[Path], comparison: list | None = None
) -> str:
    adapters, dialects, cells = headline(data)
    exponents = headline_exponents(data)
    machine = data["machine"]
    lines = [
        "# toolconform throughput report",
        "",
        f"Mode `{data['mode']}`, {data['started_at']}, Python {machine['python']} on "
        f"{machine['machine']} ({machine['cpus']} CPUs), toolconform {data['suite']['version']}.",
        "",
        "Implementations: "
        + ", ".join(
            f"`{name}` ({info.get('name', name)} {info.get('version', '')})".replace(" )", ")")
            for name, info in sorted(data["implementations"].items())
        ),
        "",
        f"Reproduce: `{command}`",
        "",
        "Every measurement first checked that the parser's result equals the reference parser's;",
        "a mismatch is reported and never timed. Times include producing the OpenAI delta dicts",
        "of the adapter contract; `noop` is the floor (a call per chunk that parses nothing).",
        "",
        "## µs per chunk, one token per chunk (× no-op), long string argument",
        "",
        "| adapter | " + " | ".join(dialects) + " |",
        "|---|" + "---|" * len(dialects),
    ]
    for adapter in adapters:
        lines.append(
            f"| `{adapter}` | " + " | ".join(cells.get((adapter, d), "·") for d in dialects) + " |"
        )
    lines += [
        "",
        "## Scaling exponent of time against output length (linear ≈ 1)",
        "",
        "| adapter | " + " | ".join(dialects) + " |",
        "|---|" + "---|" * len(dialects),
    ]
    for adapter in adapters:
        if adapter == FLOOR:
            continue
        row = [
            f"{exponents[(adapter, d)]:.2f}"
            + (" ⚠" if exponents[(adapter, d)] > SUPER_LINEAR else "")
            if (adapter, d) in exponents
            else "·"
            for d in dialects
        ]
        lines.append(f"| `{adapter}` | " + " | ".join(row) + " |")
    slow = [
        (r["adapter"], r["dialect"], r["chunking"], r["exponent"])
        for r in data["scaling"]
        if r["exponent"] > SUPER_LINEAR and r["adapter"] != FLOOR
    ]
    if slow:
        lines += ["", "## Super-linear parsers", ""]
        lines += [f"- `{a}` on {d} ({c}): exponent {e:.2f}" for a, d, c, e in slow]
    mismatches = [m for m in data["measurements"] if m["status"] in ("mismatch", "error")]
    if mismatches:
        lines += ["", f"## Not timed: wrong result or error ({len(mismatches)})", ""]
        for m in mismatches[:100]:
            lines.append(
                f"- `{m['adapter']}` {m['dialect']}/{m['shape']}/{m['size']} ({m['chunking']}): "
                f"{m['status']}: {(m.get('message') or '')[:200]}"
            )
    if comparison:
        regressions = [r for r in comparison if r["verdict"] == "regression"]
        lines += [
            "",
            f"## Comparison with the previous report: {len(regressions)} regression(s)",
            "",
        ]
        for r in regressions:
            lines.append(
                f"- `{r['adapter']}` {r['dialect']}/{r['shape']}/{r['size']} ({r['chunking']}): "
                + (
                    r.get("note")
                    or f"{r['old_us_per_chunk']:.2f} → {r['new_us_per_chunk']:.2f} µs/chunk"
                )
            )
    for plot in plots:
        lines += ["", f"![{plot.stem}]({plot.name})"]
    lines += [
        "",
        "## All measurements",
        "",
        "| adapter | workload | chunking | chunks | µs/chunk | p50 | p99 | Mchar/s | status |",
    ]
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for m in sorted(
        data["measurements"],
        key=lambda m: (m["dialect"], m["shape"], m["size"], m["chunking"], m["adapter"]),
    ):
        rate = m["chars_per_second"] / 1e6 if m.get("chars_per_second") else None
        figures = " | ".join(
            _number(value)
            for value in (m.get("us_per_chunk"), m.get("chunk_p50_us"), m.get("chunk_p99_us"), rate)
        )
        workload = f"{m['dialect']}/{m['shape']}/{m['size']}"
        lines.append(
            f"| `{m['adapter']}` | {workload} | {m['chunking']} | {m['chunks']} | {figures} | "
            f"{m['status']} |"
        )
    return "\n".join(lines) + "\n"


def _number(value: float | None) -> str:
    return "·" if value is None else f"{value:.2f}"


def render_html(markdown_text: str, plots: list[Path]) -> str:
    """The Markdown report as one self-contained page (CommonMark with tables, by
    markdown-it-py): plots inlined as PNG, wide tables scrolling in their own box."""
    from markdown_it import MarkdownIt

    images = {plot.name: base64.b64encode(plot.read_bytes()).decode() for plot in plots}
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    rules = markdown.renderer.rules
    render_image = rules["image"]

    def image(tokens, index, options, env):  # type: ignore[no-untyped-def]
        source = str(tokens[index].attrGet("src"))
        if source in images:
            tokens[index].attrSet("src", f"data:image/png;base64,{images[source]}")
        return render_image(tokens, index, options, env)

    rules["image"] = image
    rules["table_open"] = lambda *_: "<div class='scroll'><table>\n"
    rules["table_close"] = lambda *_: "</table></div>\n"
    return page("toolconform throughput report", markdown.render(markdown_text), style=_STYLE)


#: Figures stay on one line: a number and its multiple of the floor read as one value.
_STYLE = "td{white-space:nowrap}"
