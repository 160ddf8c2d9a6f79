"""``toolconform certify``: run the suite against a parser and report what holds.

The embedded default certifies the reference parser itself. Exit status: 0 when nothing
unexpected failed (must and should levels), 1 when something did, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import fnmatch
import os
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ...reference import dialect_names
from ..adapters import AdapterError, load_adapter
from ..cases import KINDS, Case, builtin_corpus, load_cases
from ..corpus_build import corpus_identity
from ..errors import UsageError
from ..execution import CaseResult
from ..expectations import Expectations, write_expectations
from ..generated import generated_cases
from ..pool import PoolConfig, run_cases
from ..render import badge_svg, render_markdown
from ..report import Report, report_json_text, write_report
from ..report_html import render_html


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "certify",
        help="certify a parser against the suite (default: the reference parser)",
        description=(
            "Run every corpus case of the selected dialects against a parser, under "
            "token-aligned chunkings (and arbitrary character splits as an informative "
            "robustness tier), check the contract, print a summary and write a report. "
            "Exit status 0: nothing unexpected failed; 1: something did; 2: usage error."
        ),
    )
    parser.add_argument(
        "--adapter",
        default="reference",
        metavar="SPEC",
        help="'reference' (default), module:callable (an in-process factory) or cmd:COMMAND "
        "(a program speaking the JSON-lines protocol)",
    )
    parser.add_argument(
        "--dialect", action="append", metavar="NAME", help="only these dialects (repeatable)"
    )
    parser.add_argument(
        "--case", action="append", metavar="GLOB", help="only cases whose id matches"
    )
    parser.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        help="only cases of these kinds (repeatable; generated cases are valid)",
    )
    depth = parser.add_mutually_exclusive_group()
    depth.add_argument(
        "--quick", dest="mode", action="store_const", const="quick", help="the CI mode (default)"
    )
    depth.add_argument(
        "--full",
        dest="mode",
        action="store_const",
        const="full",
        help="every two-way split and character split, more random groupings and searches",
    )
    parser.set_defaults(mode="quick")
    parser.add_argument(
        "--expectations",
        metavar="FILE",
        type=Path,
        help="known failures (TOML) of this implementation",
    )
    parser.add_argument(
        "--update-expectations",
        action="store_true",
        help="rewrite the expectations file from this run's failures",
    )
    parser.add_argument(
        "--report",
        metavar="DIR",
        type=Path,
        help="write report.json, report.md, report.html and badge.svg here",
    )
    parser.add_argument(
        "--corpus",
        metavar="FILE",
        type=Path,
        help="a compiled corpus (cases.jsonl) instead of the built-in one",
    )
    parser.add_argument(
        "--generated",
        type=int,
        metavar="N",
        help="also N cases per dialect drawn by the strategies, the reference as oracle "
        "(default: 3 with --quick, 25 with --full; 0 for the corpus only)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes (default: all cores)",
    )
    parser.add_argument(
        "--feed-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds one feed may take (default 10)",
    )
    parser.add_argument(
        "--case-timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds one case may take (default 300)",
    )
    parser.add_argument(
        "--no-robustness",
        dest="robustness",
        action="store_false",
        help="skip the arbitrary-character-split tier",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    if args.update_expectations and not args.expectations:
        raise UsageError("--update-expectations needs --expectations FILE (the file to write)")
    if args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs} must be at least 1")
    try:
        adapter = load_adapter(args.adapter)
    except AdapterError as error:
        raise UsageError(str(error)) from None
    implementation = dict(adapter.implementation)
    if adapter.dialects:
        implementation["dialects"] = adapter.dialects  # how each dialect is configured
    adapter.close()

    corpus_path = args.corpus or builtin_corpus()
    if not corpus_path.exists():
        raise UsageError(
            f"corpus file {corpus_path} does not exist (build it: toolconform corpus build)"
        )
    all_cases = load_cases(corpus_path)
    expectations = Expectations()
    if args.expectations and (args.expectations.exists() or not args.update_expectations):
        expectations = Expectations.load(args.expectations, (case.id for case in all_cases))
    cases, skipped = _select(all_cases, args, adapter.supports, expectations)
    generated = args.generated if args.generated is not None else (25 if args.mode == "full" else 3)
    if generated < 0:
        raise UsageError(f"--generated {generated} must be at least 0")
    if generated and not args.case and (not args.kind or "valid" in args.kind):
        dialects = sorted({case.dialect for case in cases})
        with console.status("drawing generated cases"):
            cases += [case for dialect in dialects for case in generated_cases(dialect, generated)]

    report = Report(
        adapter=args.adapter,
        implementation=implementation,
        mode=args.mode,
        corpus=corpus_identity(corpus_path),
        started=_dt.datetime.now(_dt.UTC),
    )
    report.results.extend(skipped)
    config = PoolConfig(
        adapter_spec=args.adapter,
        mode=args.mode,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        feed_timeout=args.feed_timeout,
        robustness=args.robustness,
    )
    with Progress(
        TextColumn("[bold]certify[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[failures]} failing"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{args.adapter} ({args.mode})", total=len(cases), failures=0)
        failing = 0

        def collect(result: CaseResult) -> None:
            nonlocal failing
            report.results.append(result)
            failing += bool(result.failures)
            progress.update(task, advance=1, failures=failing)

        run_cases(cases, config, collect)
    report.finished = _dt.datetime.now(_dt.UTC)
    report.results.sort(key=lambda result: result.case)
    report.classify(expectations)
    if args.update_expectations:
        meta = dict(expectations.meta) or {
            "implementation": implementation.get("name", args.adapter)
        }
        write_expectations(
            args.expectations,
            meta,
            # Generated cases change with the Hypothesis version: they are listed as one
            # blanket entry per dialect and check, which must still match some failure.
            (
                (
                    f"generated/{f.dialect}/*" if f.case.startswith("generated/") else f.case,
                    f.check,
                    f.message[:200],
                )
                for f in report.failures
                if f.level != "may"
            ),
            expectations,
        )
        console.print(f"expectations written to {args.expectations}")
        # The report shows the run against the file as it now is.
        report.classify(Expectations.load(args.expectations, (case.id for case in all_cases)))
    data = report.to_json()
    _summary(console, data, report)

    if args.report:
        write_report(
            args.report,
            [
                ("report.json", report_json_text(report)),
                ("report.md", render_markdown(data)),
                ("report.html", render_html(data)),
                ("badge.svg", badge_svg(data)),
            ],
        )
        console.print(
            f"report written to {args.report}/ (report.json, report.md, report.html, badge.svg)"
        )
    if args.update_expectations:
        return 0
    return 0 if report.passed else 1


def _select(
    cases: list[Case], args: argparse.Namespace, supports, expectations: Expectations
) -> tuple[list[Case], list[CaseResult]]:
    """The cases to run, and skipped results for those the adapter or expectations exclude."""
    known = set(dialect_names())
    for name in args.dialect or ():
        if name not in known:
            raise UsageError(
                f"unknown dialect {name!r}; known dialects: {', '.join(sorted(known))}"
            )
    selected, skipped = [], []
    for case in cases:
        if args.dialect and case.dialect not in args.dialect:
            continue
        if args.case and not any(fnmatch.fnmatchcase(case.id, glob) for glob in args.case):
            continue
        if args.kind and case.kind not in args.kind:
            continue
        reason = None
        if not supports(case.dialect):
            reason = f"the adapter does not support dialect {case.dialect!r}"
        elif case.dialect in expectations.unsupported_dialects:
            reason = f"dialect {case.dialect!r} is declared unsupported"
        elif expectations.unsupported_features & set(case.features):
            reason = "features declared unsupported: " + ", ".join(
                sorted(expectations.unsupported_features & set(case.features))
            )
        if reason:
            result = CaseResult(case.id, case.dialect, case.kind, case.level, skipped=reason)
            skipped.append(result)
        else:
            selected.append(case)
    if not selected and not skipped:
        raise UsageError("no case matches the selection (check --dialect and --case)")
    return selected, skipped


def _summary(console: Console, data: dict, report: Report) -> None:
    table = Table(
        title=f"toolconform certify — {data['implementation'].get('name', data['adapter'])}"
    )
    table.add_column("dialect")
    table.add_column("cases", justify="right")
    table.add_column("pass", justify="right", style="green")
    table.add_column("fail", justify="right", style="red")
    table.add_column("known", justify="right", style="yellow")
    table.add_column("skipped", justify="right")
    table.add_column("may level (informative)", justify="right")
    rows: dict[str, list[int]] = {}
    for result in report.results:
        row = rows.setdefault(result.dialect, [0, 0, 0, 0, 0, 0])
        row[0] += 1
        if result.skipped:
            row[4] += 1
            continue
        gating = [f for f in result.failures if f.level != "may"]
        if any(not f.expected_failure for f in gating):
            row[2] += 1
        elif gating:
            row[3] += 1
        else:
            row[1] += 1
        if any(f.level == "may" for f in result.failures):
            row[5] += 1
    for dialect in sorted(rows):
        cases, passed, failed, known, skipped, informative = rows[dialect]
        table.add_row(
            dialect,
            str(cases),
            str(passed),
            str(failed),
            str(known),
            str(skipped),
            f"{cases - skipped - informative}/{cases - skipped} pass",
        )
    console.print(table)
    unexpected = report.unexpected
    for failure in unexpected[:10]:
        console.print(
            f"[red]✗[/] {failure.check} ({failure.level}) [bold]{failure.case}[/]: "
            f"{failure.message[:200]}\n  minimal chunking ({failure.chunking.family}): "
            f"{list(failure.chunking.chunks)!r}"[:600]
        )
    if len(unexpected) > 10:
        console.print(f"… {len(unexpected) - 10} more unexpected failures (see the report)")
    for entry in report.stale_expectations:
        console.print(
            f"[yellow]stale expectation[/] {entry.case} / {entry.check}: it passed; remove it"
        )
    totals = data["totals"]
    verdict = "[green]PASS[/]" if report.passed else "[red]FAIL[/]"
    console.print(
        f"{verdict}: {totals['cases']} cases, {totals['runs']} runs in {data['seconds']} s; "
        f"{totals['unexpected_failures']} unexpected, {totals['expected_failures']} known, "
        f"{totals['informative_failures']} informative failures"
    )
