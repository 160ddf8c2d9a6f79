"""``toolconform bench``: how much CPU a parser costs per streamed chunk, and how it scales.

Runs every workload of the selected dialects through each adapter (after checking that its
result equals the reference parser's) under several chunkings, and the no-op adapter as the
floor; writes ``bench.json`` with Markdown, HTML and plots. Engines live in separate
virtualenvs, so results of several runs merge (``--merge``) into one report, and a report
compares with an earlier one (``--compare``: exit status 1 on a regression).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ...reference import dialect_names
from ..adapters import AdapterError, load_in_process
from ..errors import UsageError
from ..report import write_report


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure parsers' cost per chunk and scaling, side by side",
        description=(
            "Measure each adapter on every workload of the selected dialects (long string "
            "argument on a size ladder, many short strings, nested objects, reasoning and "
            "content, several calls) under fixed character chunk sizes with tags whole, one "
            "real token per chunk and 4-token groups. Each measurement first verifies the "
            "result against the reference parser. The no-op adapter is always measured as "
            "the floor."
        ),
    )
    parser.add_argument(
        "--adapter",
        action="append",
        metavar="SPEC",
        help="adapter to measure (repeatable; default: reference)",
    )
    parser.add_argument(
        "--dialect", action="append", metavar="NAME", help="only these dialects (repeatable)"
    )
    parser.add_argument(
        "--shape",
        action="append",
        metavar="NAME",
        help="only these workloads: long-string, short-strings, nested, "
        "reasoning-content, several-calls",
    )
    depth = parser.add_mutually_exclusive_group()
    depth.add_argument(
        "--quick",
        dest="mode",
        action="store_const",
        const="quick",
        help="sizes 1k-64k, 3 rounds (default)",
    )
    depth.add_argument(
        "--full", dest="mode", action="store_const", const="full", help="sizes 1k-1M, 7 rounds"
    )
    parser.set_defaults(mode="quick")
    parser.add_argument(
        "--budget",
        type=float,
        metavar="S",
        help="seconds one stream may take before larger sizes are skipped (default 10, full 60)",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="DIR",
        help="write bench.json, report.md, report.html and plots here",
    )
    parser.add_argument(
        "--merge",
        type=Path,
        action="append",
        metavar="FILE",
        default=[],
        help="also include the measurements of an earlier bench.json (repeatable)",
    )
    parser.add_argument(
        "--no-run", action="store_true", help="measure nothing: only merge and render"
    )
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="FILE",
        help="compare with an earlier bench.json; exit 1 on a regression",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=0.10,
        metavar="F",
        help="slowdown counted as a regression, as a fraction (default 0.10)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..bench.measure import measure, reference_result
    from ..bench.results import BenchRun, compare
    from ..bench.workloads import chunkings, workloads

    console = Console(stderr=True)
    known = set(dialect_names())
    for name in args.dialect or ():
        if name not in known:
            raise UsageError(
                f"unknown dialect {name!r}; known dialects: {', '.join(sorted(known))}"
            )
    previous = [_load(path) for path in args.merge]
    baseline = _load(args.compare) if args.compare else None
    run_data = BenchRun(args.mode)
    if not args.no_run:
        specs = ["noop", *(args.adapter or ["reference"])]
        adapters = []
        for spec in specs:
            try:
                adapters.append(load_in_process(spec))
            except AdapterError as error:
                raise UsageError(str(error)) from None
        for adapter in adapters:
            run_data.implementations[adapter.spec] = adapter.implementation
        full = args.mode == "full"
        rounds = 7 if full else 3
        budget = args.budget or (60.0 if full else 10.0)
        plan = []
        for dialect in sorted(set(args.dialect or known)):
            for workload in workloads(dialect, full=full):
                if args.shape and workload.shape not in args.shape:
                    continue
                plan.append(workload)
        if not plan:
            raise UsageError(
                "no workload matches (dialects without a renderer have none; check --shape)"
            )
        over: set[tuple[str, str, str]] = set()
        with Progress(
            TextColumn("[bold]bench[/] {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task("", total=len(plan))
            for workload in plan:
                progress.update(task, description=workload.name)
                expected = reference_result(workload)
                for chunking in chunkings(workload):
                    for adapter in adapters:
                        if not adapter.supports(workload.dialect):
                            continue
                        key = (adapter.spec, workload.dialect, chunking.family)
                        if workload.shape == "long-string" and key in over:
                            continue
                        result = measure(
                            adapter,
                            workload,
                            chunking,
                            expected=None if adapter.spec == "noop" else expected,
                            rounds=rounds,
                            budget=budget,
                        )
                        if result.status == "over-budget":
                            over.add(key)
                        run_data.measurements.append(result.to_json())
                progress.advance(task)
        for adapter in adapters:
            adapter.close()
    merged = BenchRun.merge([*previous, run_data]) if previous else run_data
    if not merged.measurements:
        raise UsageError("nothing to report: give --adapter, or --merge with --no-run")
    data = merged.to_json()
    comparison = compare(baseline, merged, tolerance=args.tolerance) if baseline else None
    _summary(console, data, comparison)
    if args.report:
        _write(args, data, comparison)
        console.print(f"report written to {args.report}/")
    if comparison and any(row["verdict"] == "regression" for row in comparison):
        return 1
    return 0


def _load(path: Path):
    from ..bench.results import BenchRun

    try:
        return BenchRun.load(path)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, KeyError) as error:
        raise UsageError(f"{path} is not a toolconform bench results file: {error}") from None


def _write(args: argparse.Namespace, data: dict, comparison: list | None) -> None:
    import tempfile

    from ..bench.report_markdown import render_html, render_markdown

    command = (
        "toolconform " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        if sys.argv[1:]
        else "toolconform bench"
    )
    with tempfile.TemporaryDirectory() as scratch:
        plots: list[Path] = []
        try:
            from ..bench.plots import plot

            plots = plot(data["measurements"], Path(scratch))
        except ImportError:
            Console(stderr=True).print(
                "matplotlib is not installed (pip install 'toolconform[bench]'): no plots"
            )
        markdown = render_markdown(data, command=command, plots=plots, comparison=comparison)
        files = [
            ("bench.json", json.dumps(data, ensure_ascii=False, indent=1) + "\n"),
            ("report.md", markdown),
            ("report.html", render_html(markdown, plots)),
        ]
        if comparison is not None:
            files.append(("comparison.json", json.dumps(comparison, indent=1) + "\n"))
        for plot_path in Path(scratch).iterdir():
            if plot_path.suffix == ".svg" or plot_path.suffix == ".png":
                files.append((plot_path.name, None))
        write_report(args.report, files, binary_from=Path(scratch))


def _summary(console: Console, data: dict, comparison: list | None) -> None:
    from ..bench.report_markdown import headline

    adapters, dialects, cells = headline(data)
    table = Table(title="µs per chunk at one token per chunk (× no-op), long string argument")
    table.add_column("dialect")
    for adapter in adapters:
        table.add_column(adapter, justify="right")
    for dialect in dialects:
        table.add_row(dialect, *(cells.get((adapter, dialect), "·") for adapter in adapters))
    console.print(table)
    for row in data["scaling"]:
        if row["exponent"] > 1.2 and row["adapter"] != "noop":
            console.print(
                f"[red]super-linear[/] {row['adapter']} on {row['dialect']} "
                f"({row['chunking']}): exponent {row['exponent']}"
            )
    mismatches = [m for m in data["measurements"] if m["status"] in ("mismatch", "error")]
    if mismatches:
        console.print(
            f"[yellow]{len(mismatches)} measurement(s) not timed: wrong result or error "
            "(see the report)[/]"
        )
    if comparison is not None:
        regressions = [row for row in comparison if row["verdict"] == "regression"]
        console.print(f"comparison: {len(regressions)} regression(s) beyond the tolerance")
