"""``toolconform certify``: run the suite against a parser and report what holds.

The embedded default certifies the reference parser itself. Every run reports two numbers:
the raw must-level conformance (what the parser does) and the gate result against the
implementation's expectations file (whether anything changed). Exit status: 0 when the gate
passes — nothing unexpected failed at must and should levels, no known failure changed or
went stale, and every selected dialect ran without cases the adapter refused — 1 when it
fails, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import math
import os
import shlex
import signal
import sys
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..adapters import AdapterError, load_adapter
from ..adapters.subprocess import Launch, hash_seed, other_hash_seeds, sandbox_available
from ..cases import KINDS, Case, builtin_corpus
from ..chunkings import ChunkingModel, Ending, chunking_model
from ..corpus_build import corpus_identity
from ..errors import UsageError
from ..execution import CaseResult, Failure
from ..expectations import GENERATED_PREFIX, Expectations, write_expectations
from ..identity import adapter_identity
from ..junit import render_junit
from ..pool import CASE_TIMEOUT, PoolConfig, run_cases
from ..processes import contained, kill_strays
from ..report import (
    GATING_LEVELS,
    SANDBOXED,
    SELF_ATTESTED,
    Coverage,
    Report,
    check_report_directory,
    report_json_text,
    results_from_json,
    write_report,
)
from ..report_markdown import percent, report_files, set_aside_note
from ..suite import Selection, load_corpus, plan

#: Seconds between the progress lines printed when stderr is not a terminal.
HEARTBEAT_SECONDS = 30.0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "certify",
        help="certify a parser against the suite (default: the reference parser)",
        description=(
            "Run every corpus case of the selected dialects against a parser, under "
            "token-aligned chunkings (and arbitrary character splits as an informative "
            "robustness tier), check the contract, print a summary and write a report. "
            "The summary gives the raw must-level conformance and the gate result against "
            "--expectations. Exit status 0: the gate passes; 1: it fails (an unexpected or "
            "changed failure, a stale expectation, a selected dialect that ran nothing, a "
            "case the adapter refused); 2: usage error."
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
        help="every two-way split and character split, more random groupings and searches;"
        " pathological cases timed up to a megabyte of output",
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
        "--shard",
        type=_shard,
        metavar="K/N",
        help="run only shard K of N (cases assigned by a digest of their id); merge the N "
        "reports with --merge",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        type=Path,
        metavar="REPORT",
        help="run nothing: merge the report directories of the N shards of one run into one "
        "report (--report), classified against --expectations (rewritten from the merged "
        "failures with --update-expectations)",
    )
    parser.add_argument(
        "--junit",
        metavar="FILE",
        type=Path,
        help="also write the run as JUnit XML (one test per case, the gate as one more)",
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
        help="also the first N recorded generated cases per dialect (round trips drawn by the "
        "strategies, corpus/generated.jsonl), the reference as oracle "
        "(default: 3 with --quick, 25 with --full, the most recorded; 0 for the corpus only)",
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
        help=(
            "CPU seconds one feed may take (default 10); a feed that waits three times that "
            "in all is stopped too"
        ),
    )
    parser.add_argument(
        "--case-timeout",
        type=float,
        metavar="S",
        help="seconds one case may take (default 300; 900 with --full, which times each"
        " pathological case up to a megabyte of output)",
    )
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=8.0,
        metavar="GIB",
        help="address space each adapter program may use, in GiB (default 8; 0: no limit)",
    )
    parser.add_argument(
        "--output-limit",
        type=float,
        default=16.0,
        metavar="MIB",
        help="the largest reply an adapter program may send, in MiB (default 16; a reply to "
        "a longer request may be 32 times that request): a larger one fails its case "
        "(run.output-limit) and the run goes on",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="run the adapter programs under bubblewrap: no network, a read-only file system "
        "but their scratch directory, the corpus, expectations and report hidden; the report "
        "says 'sandboxed' instead of 'self-attested'",
    )
    parser.add_argument(
        "--allow-skips",
        action="store_true",
        help="cases the adapter refuses (skips) in dialects it supports do not fail the run; "
        "the report says the run allowed it",
    )
    parser.add_argument(
        "--no-robustness",
        dest="robustness",
        action="store_false",
        help="skip the arbitrary-character-split tier",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Certify; every process the run starts (adapter programs, whatever they detach) is
    gone when this returns."""
    with contained():
        return _certify(args)


def in_shard(case_id: str, shard: tuple[int, int]) -> bool:
    """Whether shard K of N runs ``case_id``: a digest of the id, so every machine agrees
    and a case stays in its shard whatever else the corpus holds."""
    number, count = shard
    return int(hashlib.sha256(case_id.encode()).hexdigest()[:12], 16) % count == number - 1


def _shard(text: str) -> tuple[int, int]:
    number, _, count = text.partition("/")
    try:
        parsed = int(number), int(count)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (e.g. 2/4)") from None
    if not 1 <= parsed[0] <= parsed[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N")
    return parsed


def _certify(args: argparse.Namespace) -> int:
    """The run, in its phases: launch the adapter program once for what it declares, plan the
    cases against the expectations, run them in the pool, classify, and publish."""
    _check_options(args)
    if args.merge:
        return _merge(args)
    # The verdict and the summary; piped into a CI log, wide enough that no column is cut.
    out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)
    err = Console(stderr=True, highlight=False, soft_wrap=True)  # progress and notes
    corpus_path = (args.corpus or builtin_corpus()).resolve()
    launch = _launch(args, corpus_path)
    try:
        adapter = load_adapter(args.adapter, launch)
    except AdapterError as error:
        raise UsageError(str(error)) from None
    implementation = dict(adapter.implementation)
    if adapter.dialects:
        implementation["dialects"] = adapter.dialects  # how each dialect is configured
    adapter.close()

    all_cases = load_corpus(corpus_path)
    expectations = _known(args, all_cases)
    warnings = []
    mismatch = expectations.mismatch(implementation)
    if mismatch:
        warnings.append(mismatch)
    generated = args.generated if args.generated is not None else (25 if args.mode == "full" else 3)
    selection = Selection(
        dialects=tuple(args.dialect or ()),
        cases=tuple(args.case or ()),
        kinds=tuple(args.kind or ()),
        generated=generated,
    )
    with err.status("selecting cases"):
        planned = plan(all_cases, selection, adapter.supports, expectations)
    if args.shard:
        planned.cases = [case for case in planned.cases if in_shard(case.id, args.shard)]
        planned.skipped = [r for r in planned.skipped if in_shard(r.case, args.shard)]
    cases = planned.cases
    if not cases and not planned.skipped and not planned.unsupported and not args.shard:
        raise UsageError("no case matches the selection (check --dialect, --case and --kind)")
    models = {}
    with err.status("finding each dialect's tokenizer"):
        for dialect in sorted({case.dialect for case in cases}):
            models[dialect] = chunking_model(dialect)
    for model in models.values():
        if not model.families:
            warnings.append(f"{model.dialect}: cut with the {model.describe()}")

    report = _new_report(
        args,
        corpus_path,
        launch,
        implementation,
        adapter.endings,
        generated=generated,
        unsupported=tuple(sorted(planned.unsupported)),
        chunking=models,
        warnings=warnings,
    )
    for warning in warnings:
        err.print(f"warning: {warning}", markup=False)
    report.results.extend(planned.skipped)
    config = PoolConfig(
        adapter_spec=args.adapter,
        mode=args.mode,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        feed_timeout=args.feed_timeout,
        robustness=args.robustness,
        chunking_models=tuple(models.values()),
        launch=launch,
    )
    _run_with_progress(err, cases, config, report, f"{args.adapter} ({args.mode})")
    report.finished = _dt.datetime.now(_dt.UTC)
    report.results.sort(key=lambda result: result.case)
    report.classify(expectations)
    if args.update_expectations:
        covered = {result.case for result in report.ran}
        covered |= planned.vanished(entry.case for entry in expectations.known)
        _update_expectations(args, report, implementation, expectations, covered, all_cases, err)
    options = _reproduce_options(args, generated)
    for failure in report.failures:
        failure.reproduce = reproduce_command(args.adapter, failure, options)
    _summary(out, report.to_json(), report)
    _publish(args, report, err)
    return 0 if report.passed else 1


def _launch(args: argparse.Namespace, corpus_path: Path) -> Launch:
    """How adapter programs start: their limits, and the paths they must not see (the corpus
    with its expected answers, the expectations file, the report)."""
    return Launch(
        memory_limit=int(args.memory_limit * 2**30) or None,
        output_limit=int(args.output_limit * 2**20),
        sandbox=args.sandbox,
        hidden=tuple(
            str(path)
            for path in (
                corpus_path.parent,
                builtin_corpus().parent.parent,  # the corpus package: case files too
                args.expectations,
                args.report,
            )
            if path is not None
        ),
    )


def _new_report(
    args: argparse.Namespace,
    corpus_path: Path,
    launch: Launch,
    implementation: dict,
    endings: tuple[str, ...],
    *,
    generated: int,
    unsupported: tuple[str, ...],
    chunking: dict[str, ChunkingModel],
    warnings: list[str],
) -> Report:
    """The report of this run before any case ran: what was asked, of which program, how,
    and what the plan found (dialects the adapter does not declare, how each is cut)."""
    return Report(
        adapter=args.adapter,
        implementation=implementation,
        mode=args.mode,
        corpus=corpus_identity(corpus_path),
        started=_dt.datetime.now(_dt.UTC),
        coverage=Coverage(
            selected=tuple(args.dialect) if args.dialect else None,
            unsupported=unsupported,
            chunking=chunking,
            allow_skips=args.allow_skips,
            endings=endings,
        ),
        warnings=warnings,
        isolation=SANDBOXED if args.sandbox else SELF_ATTESTED,
        shard=f"{args.shard[0]}/{args.shard[1]}" if args.shard else None,
        identity=adapter_identity(args.adapter, implementation),
        options={
            "generated": generated,
            "robustness": args.robustness,
            "feed_timeout": args.feed_timeout,
            "case_timeout": args.case_timeout,
            "allow_skips": args.allow_skips,
            "output_limit_mib": args.output_limit,
            "memory_limit_gib": args.memory_limit,
            "hash_seed": launch.hash_seed,
            "other_hash_seeds": list(other_hash_seeds(launch.hash_seed)),
        },
    )


def _update_expectations(
    args: argparse.Namespace,
    report: Report,
    implementation: dict,
    expectations: Expectations,
    covered: set[str],
    corpus: list[Case],
    err: Console,
) -> None:
    """Write the run's gating failures as the implementation's known failures, keeping the
    entries of cases this run did not cover; then classify the report against the file as it
    now is."""
    meta = {
        **expectations.meta,
        "implementation": implementation.get("name", report.adapter),
        "version": implementation.get("version") or "",
        "adapter": report.adapter,  # a merge's is its shards', not the default of --adapter
    }
    gating = [f for f in report.failures if f.level != "may"]
    write_expectations(args.expectations, meta, gating, expectations, covered, report.unjudged)
    err.print(f"expectations written to {args.expectations}", markup=False)
    report.classify(_known(args, corpus))


def _known(args: argparse.Namespace, corpus: list[Case]) -> Expectations:
    """The known failures of ``--expectations`` (none without the option, or when
    ``--update-expectations`` is about to write the file)."""
    if args.expectations and (args.expectations.exists() or not args.update_expectations):
        return Expectations.load(args.expectations, (case.id for case in corpus))
    return Expectations()


def _publish(args: argparse.Namespace, report: Report, err: Console) -> None:
    """Write the JUnit file and the report, once nothing an adapter started is left."""
    json_text = report_json_text(report)
    kill_strays()  # nothing an adapter left behind may write after this
    if args.junit:
        write_report(args.junit.parent, [(args.junit.name, render_junit(json.loads(json_text)))])
        err.print(f"JUnit XML written to {args.junit}", markup=False)
    if args.report:
        write_report(args.report, report_files(json_text))
        err.print(
            f"report written to {args.report}/ (report.json, report.md, report.html, badge.svg)",
            markup=False,
        )


def _merge(args: argparse.Namespace) -> int:
    """One report from the reports of a sharded run's shards: their results together,
    classified against the expectations as an unsharded run would have been."""
    out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    shards = [_load_shard(path) for path in args.merge]
    first = shards[0]
    count = int(str(first["shard"]).split("/")[1])
    numbers = sorted(int(str(data["shard"]).split("/")[0]) for data in shards)
    if numbers != list(range(1, count + 1)):
        raise UsageError(f"--merge needs shards 1…{count} of one run, got {numbers}")
    same = ("adapter", "mode", "options", "isolation", "adapter_identity", "implementation")
    for data in shards[1:]:
        for key in same:
            if data[key] != first[key]:
                raise UsageError(f"--merge: the shards differ in {key}: not one run")
        if data["suite"] != first["suite"]:
            raise UsageError("--merge: the shards were made with different suites or corpora")
    coverage = first["coverage"]
    report = Report(
        adapter=first["adapter"],
        implementation=first["implementation"],
        mode=first["mode"],
        corpus=first["suite"]["corpus"],
        started=min(_dt.datetime.fromisoformat(data["started_at"]) for data in shards),
        finished=max(_dt.datetime.fromisoformat(data["finished_at"]) for data in shards),
        coverage=Coverage(
            selected=tuple(coverage["selected"]) if coverage["selected"] else None,
            unsupported=tuple(coverage["unsupported_dialects"]),
            chunking={
                dialect: ChunkingModel(
                    dialect, tuple(cell["chunking"]["families"]), cell["chunking"]["reason"]
                )
                for data in shards
                for dialect, cell in data["coverage"]["dialects"].items()
                if cell.get("chunking")
            },
            allow_skips=coverage["allow_skips"],
            endings=tuple(coverage.get("endings") or (Ending.STEP,)),
        ),
        warnings=list(dict.fromkeys(w for data in shards for w in data["warnings"])),
        isolation=first["isolation"],
        identity=first["adapter_identity"],
        options=first["options"],
    )
    report.results = sorted(
        (result for data in shards for result in results_from_json(data)),
        key=lambda result: result.case,
    )
    corpus = load_corpus((args.corpus or builtin_corpus()).resolve())
    expectations = _known(args, corpus)
    report.classify(expectations)
    if args.update_expectations:
        # As after a run: the cases the shards ran are covered, the file's other entries stay.
        covered = {result.case for result in report.ran}
        implementation = first["implementation"]
        _update_expectations(args, report, implementation, expectations, covered, corpus, err)
    json_text = report_json_text(report)
    _summary(out, json.loads(json_text), report)
    if args.report:
        write_report(args.report, report_files(json_text))
        err.print(f"merged report written to {args.report}/", markup=False)
    if args.junit:
        write_report(args.junit.parent, [(args.junit.name, render_junit(json.loads(json_text)))])
    return 0 if report.passed else 1


def _load_shard(path: Path) -> dict:
    file = path / "report.json" if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"--merge {path}: not a readable report: {error}") from None
    if not data.get("shard"):
        raise UsageError(f"--merge {path}: not the report of a shard (certify --shard K/N)")
    return data


def _check_options(args: argparse.Namespace) -> None:
    """Every usage error before anything runs: one line, exit status 2."""
    if args.update_expectations and not args.expectations:
        raise UsageError("--update-expectations needs --expectations FILE (the file to write)")
    if args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs} must be at least 1")
    if args.case_timeout is None:
        args.case_timeout = CASE_TIMEOUT[args.mode]
    for name in ("feed_timeout", "case_timeout"):
        value = getattr(args, name)
        if not math.isfinite(value) or value <= 0:
            option = "--" + name.replace("_", "-")
            raise UsageError(f"{option} {value:g} must be a positive number of seconds")
    if args.generated is not None and args.generated < 0:
        raise UsageError(f"--generated {args.generated} must be at least 0")
    if args.junit is not None:
        if args.junit.is_dir():
            raise UsageError(f"--junit {args.junit}: is a directory (name the XML file)")
        check_report_directory(args.junit.parent)
        args.junit = args.junit.resolve()
    if args.report is not None:
        check_report_directory(args.report)
        # Absolute now: nothing the run starts can move where the report goes.
        args.report = args.report.resolve()
    try:
        other_hash_seeds(hash_seed())
    except AdapterError as error:
        raise UsageError(str(error)) from None
    if args.memory_limit < 0 or not math.isfinite(args.memory_limit):
        raise UsageError(f"--memory-limit {args.memory_limit:g} must be 0 (none) or more GiB")
    if args.output_limit <= 0 or not math.isfinite(args.output_limit):
        raise UsageError(f"--output-limit {args.output_limit:g} must be a positive number of MiB")
    if args.sandbox:
        why = sandbox_available()
        if why:
            raise UsageError(f"--sandbox: {why}")


def _run_with_progress(
    err: Console, cases: list[Case], config: PoolConfig, report: Report, title: str
) -> None:
    """Run the cases with a progress bar on a terminal, or a heartbeat line every
    ``HEARTBEAT_SECONDS`` on stderr when it is not one (a CI log must show it is alive),
    and a last one when the run ends.

    "Failing" counts cases with a failure at a gating level (known ones included: the
    expectations are applied after the run); a case whose only failures are informative
    (may-level) is counted apart, so a correct parser's run does not look like a failing one.
    """
    failing = 0
    informative = 0
    done = 0
    started = time.monotonic()

    def line() -> str:
        elapsed = int(time.monotonic() - started)
        return (
            f"certify {title}: {done}/{len(cases)} cases, {failing} failing, "
            f"{informative} informative only, {elapsed // 60}m{elapsed % 60:02d}s"
        )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[failures]} failing, {task.fields[informative]} informative"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task(f"certify {title}", total=len(cases), failures=0, informative=0)
        stop = threading.Event()

        def heartbeat() -> None:
            while not stop.wait(HEARTBEAT_SECONDS):
                print(line(), file=sys.stderr, flush=True)

        beating = None
        if not err.is_terminal:
            beating = threading.Thread(target=heartbeat, daemon=True)
            beating.start()

        def collect(result: CaseResult) -> None:
            nonlocal failing, informative, done
            report.results.append(result)
            if any(failure.level in GATING_LEVELS for failure in result.failures):
                failing += 1
            elif result.failures:
                informative += 1
            done += 1
            progress.update(task, advance=1, failures=failing, informative=informative)

        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            run_cases(cases, config, collect)
        finally:
            signal.signal(signal.SIGTERM, previous)
            stop.set()
            if beating is not None:
                beating.join()
                print(line(), file=sys.stderr, flush=True)


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops the run as Ctrl-C does: workers and adapter programs are killed, no
    report is written, and the previous complete report stays as it was."""
    raise KeyboardInterrupt


def _reproduce_options(args: argparse.Namespace, generated: int) -> dict[str, object]:
    return {
        "mode": args.mode,
        "corpus": args.corpus,
        "generated": generated,
        "feed_timeout": args.feed_timeout,
        "case_timeout": args.case_timeout,
    }


#: The environment a reproduce line carries: the suite's own settings (the adapter programs'
#: string-hash seed among them, when the run chose one).
_ENVIRONMENT_PREFIX = "TOOLCONFORM_"


def reproduce_command(adapter: str, failure: Failure, options: dict[str, object]) -> str:
    """One shell command that reproduces ``failure``: pasted, it runs that case with the
    same adapter, mode, corpus and limits (the search for a minimal chunking is
    deterministic, so it shows the same failure)."""
    argv = [
        "toolconform",
        "certify",
        "--adapter",
        adapter,
        "--dialect",
        failure.dialect,
        "--case",
        failure.case,
    ]
    if options["mode"] == "full":
        argv.append("--full")
    if failure.case.startswith(GENERATED_PREFIX):
        argv += ["--generated", str(options["generated"])]
    if options["corpus"] is not None:
        argv += ["--corpus", str(options["corpus"])]
    for name, default in (("feed_timeout", 10.0), ("case_timeout", CASE_TIMEOUT[options["mode"]])):
        if options[name] != default:
            argv += ["--" + name.replace("_", "-"), f"{options[name]:g}"]
    environment = [
        f"{name}={shlex.quote(value)}"
        for name, value in sorted(os.environ.items())
        if name.startswith(_ENVIRONMENT_PREFIX)
    ]
    return " ".join([*environment, shlex.join(argv)])


def _text(value: object, style: str = "") -> Text:
    """Table cells and messages are text, never markup: a failure message may hold
    ``[`` and ``]`` (``<![CDATA[…]]>``) that rich would otherwise read as styles."""
    return Text(str(value), style=style)


def _summary(console: Console, data: dict, report: Report) -> None:
    title = data["implementation"].get("name", data["adapter"])
    table = Table(title=f"toolconform certify — {title}")
    for name, justify, style in (
        ("dialect", "left", ""),
        ("ran", "right", ""),
        ("pass", "right", "green"),
        ("fail", "right", "red"),
        ("known", "right", "yellow"),
        ("skipped", "right", ""),
        ("may level (info)", "right", ""),
        ("conformance", "right", ""),
        ("chunking", "left", ""),
    ):
        table.add_column(name, justify=justify, style=style)  # type: ignore[arg-type]
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
    conformance = data["conformance"]["dialects"]
    coverage = data["coverage"]["dialects"]
    for dialect in sorted(rows):
        cases, passed, failed, known, skipped, informative = rows[dialect]
        cell = conformance.get(dialect, {"passed": 0, "cases": 0})
        model = (coverage.get(dialect) or {}).get("chunking") or {}
        chunking = (
            ", ".join(model.get("families") or ())
            if model.get("model") == "tokenizer"
            else f"tag-aligned: {model.get('reason', '?')}"
            if model
            else "—"
        )
        table.add_row(
            *map(
                _text,
                (
                    dialect,
                    f"{cases - skipped}/{cases}",
                    passed,
                    failed,
                    known,
                    skipped,
                    f"{cases - skipped - informative}/{cases - skipped} pass",
                    f"{percent(cell['passed'], cell['cases'])} ({cell['passed']}/{cell['cases']})",
                    chunking,
                ),
            )
        )
    console.print(table)
    if data["coverage"]["unsupported_dialects"]:
        console.print(
            "not run (the adapter does not support them): "
            + ", ".join(data["coverage"]["unsupported_dialects"]),
            markup=False,
        )
    unexpected = report.unexpected
    for failure in unexpected[:10]:
        changed = f" (changed: was {failure.changed_from})" if failure.changed_from else ""
        console.print(
            _text("✗ ", "red")
            + _text(f"{failure.check} ({failure.level}){changed} ")
            + _text(failure.case, "bold")
            + _text(
                f": {failure.message[:200]}\n  minimal chunking ({failure.chunking.family}): "
                f"{list(failure.chunking.chunks)!r}"[:600]
                + f"\n  reproduce: {failure.reproduce}"
            )
        )
    if len(unexpected) > 10:
        console.print(f"… {len(unexpected) - 10} more unexpected failures (see the report)")
    for entry in report.stale_expectations:
        console.print(
            _text("stale expectation ", "yellow")
            + _text(f"{entry.case} / {entry.check}: it passed; remove it")
        )
    for entry in report.intermittent_passed:
        console.print(
            _text("intermittent known failure ", "cyan")
            + _text(f"{entry.case} / {entry.check}: passed this run")
        )
    for entry in report.unjudged:
        console.print(
            _text("known failure not judged ", "cyan")
            + _text(f"{entry.case} / {entry.check}: the case ended before it; it stays")
        )
    totals = data["totals"]
    for reason in data["gate"]["reasons"]:
        console.print(_text("gate: ", "red") + _text(reason))
    passed, cases = data["conformance"]["must"]["passed"], data["conformance"]["must"]["cases"]
    verdict = _text("PASS", "green") if report.passed else _text("FAIL", "red")
    console.print(
        verdict
        + _text(
            f": must-level conformance {percent(passed, cases)} ({passed}/{cases} must-level "
            f"cases); gate: {totals['unexpected_failures']} unexpected "
            f"({totals['changed_failures']} changed), {totals['expected_failures']} known, "
            f"{totals['stale_expectations']} stale, {totals['skipped']} skipped"
            f"{set_aside_note(data['gate'])}; "
            f"{totals['cases']} cases, {totals['runs']} runs in {data['seconds']} s; "
            f"{totals['informative_failures']} informative failures"
        )
    )
