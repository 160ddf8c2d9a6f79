"""``toolconform fuzz``: coverage-guided fuzzing of a target, and triage of what it finds.

    toolconform fuzz run TARGET [--seconds N] [--jobs N] [--keep-going] [--fuzzer …]
    toolconform fuzz triage FILE… [--target NAME] [--root DIR] [--regressions DIR]
    toolconform fuzz artifacts OUTDIR        # dictionaries and seed corpora, for OSS-Fuzz builds
    toolconform fuzz list

A run keeps its state in ``--workdir`` (``.toolconform-fuzz/TARGET``): the generated
dictionary and seeds, the growing work corpus, the findings (``artifacts/``) and the full
libFuzzer log. It stops at the first failure unless ``--keep-going``, and reports each
distinct failure once (``fuzzing.findings``: the same check on the same minimal input is
one failure; the other inputs' files go to ``artifacts/duplicates/``).
"""

from __future__ import annotations

import argparse
import os
import sys
import zipfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..corpus_build import corpus_root
from ..errors import UsageError
from ..fuzzing.grammars import GRAMMARS, target_names
from ..listing import add_format_argument, cell, print_json, print_table

INSTALL_HINT = (
    "atheris is not installed: pip install 'toolconform[fuzz]' "
    "(Linux x86-64 wheels, Python 3.11–3.14)"
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fuzz",
        help="fuzz the dialects of a grammar (atheris, or Hypothesis without it); triage findings",
        description=(
            "'fuzz run TARGET' fuzzes the dialects of a grammar, or 'adapter' for any parser "
            "named by TOOLCONFORM_FUZZ_ADAPTER, with structure-aware inputs and per-execution "
            "oracles; 'fuzz triage FILE…' minimises findings into corpus cases; 'fuzz "
            "artifacts OUTDIR' writes dictionaries and seed corpora; 'fuzz list' shows the "
            "targets."
        ),
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)

    run_parser = actions.add_parser(
        "run",
        help="fuzz one target; stop at the first failure unless --keep-going",
        description=(
            "Fuzz TARGET for --seconds. The run stops at the first failure unless "
            "--keep-going, and reports each distinct failure once (same check, same minimal "
            "input). Exit status 1 when something was found."
        ),
    )
    run_parser.add_argument("target", metavar="TARGET", help="a target (see 'fuzz list')")
    run_parser.add_argument("--seconds", type=int, default=60, help="run time (default 60)")
    run_parser.add_argument("--jobs", type=int, default=1, help="parallel fuzzing processes")
    run_parser.add_argument(
        "--keep-going",
        action="store_true",
        help="go on after a failure and collect every distinct one (always with --jobs > 1)",
    )
    run_parser.add_argument(
        "--fuzzer",
        choices=("auto", "atheris", "hypothesis"),
        default="auto",
        help="atheris (libFuzzer, coverage-guided) or Hypothesis; auto: atheris when installed",
    )
    run_parser.add_argument("--workdir", type=Path, help="state folder (.toolconform-fuzz/TARGET)")
    run_parser.add_argument("--seed", type=int, help="random seed, for a reproducible run")
    run_parser.add_argument(
        "--runs",
        type=int,
        help="stop after this many executions (--seconds stays a cap): with --seed, "
        "the same inputs on any machine, as CI's smoke run",
    )
    run_parser.set_defaults(run=_run)

    triage = actions.add_parser(
        "triage",
        help="minimise findings into readable corpus cases and regressions",
        description=(
            "Replay each finding, shrink it to a minimal input and write it as a corpus case "
            "(provenance: fuzz) and a regression record. Options may come before, between "
            "or after the files."
        ),
    )
    triage.add_argument("files", nargs="*", metavar="FILE", help="finding files")
    triage.add_argument(
        "--target", metavar="NAME", help="the target that found them (default: from the path)"
    )
    triage.add_argument("--root", type=Path, help="corpus folder (default: the package's)")
    triage.add_argument(
        "--regressions",
        type=Path,
        help="where regression records go (default fuzz/regressions next to the corpus)",
    )
    triage.set_defaults(run=_triage, intermixed="files")

    listing = actions.add_parser("list", help="the targets and their dialects")
    add_format_argument(listing)
    listing.set_defaults(run=_list)

    artifacts = actions.add_parser(
        "artifacts",
        help="write each target's dictionary and seed corpus (OSS-Fuzz, ClusterFuzzLite)",
    )
    artifacts.add_argument("out", type=Path, metavar="OUTDIR", help="the output folder")
    artifacts.set_defaults(run=_artifacts)


def _run(args: argparse.Namespace) -> int:
    if args.seconds < 1 or args.jobs < 1 or (args.runs is not None and args.runs < 1):
        raise UsageError("--seconds, --jobs and --runs must be at least 1")
    from ..fuzzing.findings import Findings
    from ..fuzzing.target import build_target

    target = build_target(args.target)
    workdir = args.workdir or Path(".toolconform-fuzz") / args.target
    fuzzer = _fuzzer(args.fuzzer)
    console = Console(stderr=True, soft_wrap=True, highlight=False)
    stop = "collecting every distinct failure" if args.keep_going else "until the first failure"
    length = (
        f"{args.seconds} s" if args.runs is None else f"{args.runs} runs (at most {args.seconds} s)"
    )
    console.print(
        f"fuzzing {target.name} ({', '.join(target.dialects)}) with {fuzzer} for "
        f"{length}, {args.jobs} job(s), {stop}; state in {workdir}",
        markup=False,
    )
    findings = Findings(target)
    if fuzzer == "atheris":
        progress, code = _run_atheris(target, workdir, args, console)
        with console.status("") as status:
            for number, path in enumerate(progress.findings, 1):
                status.update(f"deduplicating finding {number} of {len(progress.findings)}")
                findings.add(path)
    else:
        progress, code = _run_hypothesis(target, workdir, args, console, findings), 0
    _summary(console, target.name, fuzzer, progress, workdir, findings)
    if code not in (0, 1, 77) and not progress.findings:  # libFuzzer itself failed
        console.print(f"libFuzzer exited with {code}: see {workdir / 'libfuzzer.log'}")
        return 2
    return 1 if findings.distinct else 0


def _fuzzer(choice: str) -> str:
    if choice == "hypothesis":
        return "hypothesis"
    try:
        import atheris  # noqa: F401
    except ImportError:
        if choice == "atheris":
            raise UsageError(INSTALL_HINT) from None
        print(f"toolconform: {INSTALL_HINT}; using the Hypothesis fuzzer", file=sys.stderr)
        return "hypothesis"
    return "atheris"


def _prepare(target, workdir: Path) -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    from ..fuzzing.artifacts import dictionary_text, write_seeds

    workdir.mkdir(parents=True, exist_ok=True)
    dictionary = workdir / f"{target.name}.dict"
    dictionary.write_text(dictionary_text(target), encoding="utf-8")
    seeds = workdir / "seeds"
    write_seeds(target, seeds)
    return dictionary, seeds


def _script(target_name: str, workdir: Path) -> Path:
    """The repository's ``fuzz/fuzz_TARGET.py``, or a launcher like it for an installed
    package (libFuzzer re-runs the script itself, so it must be executable)."""
    repository = Path(__file__).resolve().parents[2] / "fuzz" / f"fuzz_{target_name}.py"
    if repository.is_file() and os.access(repository, os.X_OK):
        return repository
    launcher = workdir / f"fuzz_{target_name}.py"
    launcher.write_text(
        f"#!{sys.executable}\nimport sys\n\n"
        "from toolconform.harness.fuzzing.atheris_entry import main\n\n"
        f"main({target_name!r}, sys.argv)\n",
        encoding="utf-8",
    )
    launcher.chmod(0o755)
    return launcher


def _status(progress, seconds: int) -> str:  # type: ignore[no-untyped-def]
    coverage = "—" if progress.coverage is None else str(progress.coverage)
    features = "" if progress.features is None else f" ft {progress.features}"
    corpus = "" if progress.corpus is None else f" · corpus {progress.corpus}"
    return (
        f"{progress.seconds:5.0f}/{seconds} s · {progress.execs} execs · "
        f"{progress.rate} execs/s · cov {coverage}{features}{corpus} · "
        f"findings {len(progress.findings)}"
    )


def _run_atheris(target, workdir: Path, args: argparse.Namespace, console: Console):  # type: ignore[no-untyped-def]
    from ..fuzzing.fuzzers import LibFuzzerRun

    dictionary, seeds = _prepare(target, workdir)
    fuzz_run = LibFuzzerRun(
        script=_script(target.name, workdir),
        seconds=args.seconds,
        artifacts=workdir / "artifacts",
        corpus=workdir / "corpus",
        seeds=seeds,
        dictionary=dictionary,
        jobs=args.jobs,
        keep_going=args.keep_going,
        seed=args.seed,
        runs=args.runs,
        log=workdir / "libfuzzer.log",
    )
    fuzz_run.judge = lambda data: target.fails(data, fuzz_run.timeout)
    with console.status("starting libFuzzer") as status:
        return fuzz_run.run(lambda p: status.update(_status(p, args.seconds)))


def _run_hypothesis(target, workdir: Path, args: argparse.Namespace, console: Console, findings):  # type: ignore[no-untyped-def]
    from ..fuzzing.artifacts import seed_inputs
    from ..fuzzing.fuzzers import run_hypothesis

    with console.status("starting Hypothesis") as status:
        return run_hypothesis(
            target,
            args.seconds,
            workdir / "artifacts",
            lambda p: status.update(_status(p, args.seconds)),
            seed=args.seed or 0,
            seeds=list(seed_inputs(target).values()),
            stop_after=None if args.keep_going else 1,
            runs=args.runs,
            keep=lambda path: findings.add(path) is not None,
        )


def _summary(console: Console, name: str, fuzzer: str, progress, workdir: Path, findings) -> None:  # type: ignore[no-untyped-def]
    from ..fuzzing.decoding import THOROUGH_ONE_IN

    table = Table(title=f"fuzz {name} ({fuzzer})", show_header=False)
    table.add_row("time", f"{progress.seconds:.0f} s")
    average = progress.execs / max(progress.seconds, 1e-9)
    per_cpu = progress.execs / max(progress.cpu_seconds, 1e-9)
    table.add_row(
        "executions",
        f"{progress.execs} ({average:.0f} execs/s on average, {per_cpu:.0f} per CPU-second)",
    )
    table.add_row("CPU time", f"{progress.cpu_seconds:.0f} s")
    sample = (
        "the fuzzing loop leaves its sample to them"
        if fuzzer == "atheris"
        else f"and one execution in {THOROUGH_ONE_IN}"
    )
    table.add_row(
        "judged by every oracle",
        f"{progress.thorough} seeds and new-coverage inputs ({progress.thorough_seconds:.0f} "
        f"CPU s); {sample}",
    )
    if progress.coverage is not None:
        table.add_row("coverage", f"{progress.coverage} edges, {progress.features} features")
    if progress.corpus is not None:
        table.add_row("corpus", f"{progress.corpus} inputs in {workdir / 'corpus'}")
    duplicates = f" ({findings.duplicates} duplicates in artifacts/duplicates)"
    table.add_row(
        "distinct failures", f"{len(findings.distinct)}{duplicates if findings.duplicates else ''}"
    )
    console.print(table)
    for distinct in findings.distinct:
        console.print(f"✗ {distinct.check}: {distinct.message[:300]}", markup=False)
        if distinct.minimal is not None:
            console.print(
                f"  minimal chunks: {list(distinct.minimal.chunks)!r}"[:400], markup=False
            )
        console.print(f"  → toolconform fuzz triage {distinct.path}", markup=False)


def _list(args: argparse.Namespace) -> int:
    rows = []
    for name in target_names():
        grammar = GRAMMARS.get(name)
        if grammar is None:
            rows.append(
                {
                    "target": name,
                    "dialects": "$TOOLCONFORM_FUZZ_ADAPTER's",
                    "invalid": "per dialect",
                }
            )
        else:
            rows.append(
                {
                    "target": name,
                    "dialects": list(grammar.dialects),
                    "invalid": grammar.invalid_policy,
                }
            )
    if args.format == "json":
        print_json(rows)
        return 0
    table = Table(title="fuzz targets")
    table.add_column("target")
    table.add_column("dialects", overflow="fold")
    table.add_column("malformed block")
    for row in rows:
        dialects = (
            row["dialects"] if isinstance(row["dialects"], str) else ", ".join(row["dialects"])
        )
        table.add_row(cell(row["target"]), cell(dialects), cell(row["invalid"]))
    print_table(table)
    return 0


def _artifacts(args: argparse.Namespace) -> int:
    """``OUTDIR/fuzz_TARGET.dict`` and ``OUTDIR/fuzz_TARGET_seed_corpus.zip`` per target, the
    names OSS-Fuzz and ClusterFuzzLite pick up next to each fuzzer."""
    from ..fuzzing.artifacts import dictionary_text, seed_inputs
    from ..fuzzing.target import build_target

    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    for name in target_names():
        target = build_target(name)
        (out / f"fuzz_{name}.dict").write_text(dictionary_text(target), encoding="utf-8")
        with zipfile.ZipFile(out / f"fuzz_{name}_seed_corpus.zip", "w") as archive:
            for case_id, data in seed_inputs(target).items():
                archive.writestr(case_id.replace("/", "__").replace(":", "_"), data)
    Console(stderr=True, soft_wrap=True).print(
        f"dictionaries and seed corpora for {len(target_names())} targets in {out}"
    )
    return 0


def _triage(args: argparse.Namespace) -> int:
    from ..fuzzing.target import build_target
    from ..fuzzing.triage import triage, write

    if not args.files:
        raise UsageError("fuzz triage needs at least one finding file")
    console = Console(stderr=True, soft_wrap=True, highlight=False)
    root = args.root or corpus_root()
    regressions = args.regressions or root.parent / "fuzz" / "regressions"
    status = 0
    for raw in args.files:
        path = Path(raw)
        if not path.is_file():
            raise UsageError(f"{path}: no such finding file")
        name = args.target or _target_from_path(path)
        target = build_target(name)
        with console.status(f"{path}: replaying and minimising (up to two minutes)"):
            triaged = triage(target, path.read_bytes())
        if triaged is None:
            console.print(
                f"{path}: passes every oracle now (fixed?); nothing written", markup=False
            )
            continue
        write(triaged, target, root, regressions)
        status = 1
        console.print(f"{triaged.check} ({triaged.finding_id}): {triaged.message}", markup=False)
        console.print(f"  minimal chunking: {list(triaged.minimal.chunks)!r}"[:2000], markup=False)
        console.print(f"  wrote {triaged.case_path} and {triaged.regression_path}", markup=False)
    if status:
        console.print(
            "review the case, fix the parser if it is at fault, then run "
            "toolconform corpus build && toolconform corpus validate"
        )
    return status


def _target_from_path(path: Path) -> str:
    """``…/TARGET/artifacts/crash-…`` (a ``toolconform fuzz`` work folder) names the target."""
    if path.parent.name == "artifacts" and path.parent.parent.name in target_names():
        return path.parent.parent.name
    raise UsageError(f"{path}: say which target found it with --target NAME")
