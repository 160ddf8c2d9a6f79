"""Certify one serving engine's adapters: its gate, or its published reports.

Runs inside the engine's tox environment, after the adapter tests (tox.ini):

    tox -e lmdeploy                  # the gate: quick mode against expectations.toml, exit 0/1
    tox -e lmdeploy -- --publish     # quick and full reports, then reports/README.md

``reports/certification/regenerate.sh`` publishes every engine. Each adapter of the engine is
certified on every dialect it covers that the corpus has cases for; its reports go to
``reports/certification/ADAPTER-VERSION/`` (quick mode) and ``…/full/`` (full mode), beside
the hand-edited ``expectations.toml`` that lists its known failures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from toolconform.harness.adapters import load_adapter
from toolconform.harness.cases import builtin_corpus, load_cases
from toolconform.harness.cli import main as toolconform
from toolconform.harness.coverage import ENGINES as ENGINES_COVERED
from toolconform.harness.coverage import REGISTRIES, engine_module, write_coverage
from toolconform.harness.summary import write_summary

HERE = Path(__file__).resolve().parent
#: Each engine's tox environment and the adapters (``--adapter`` names) it certifies.
ENGINES = {
    "lmdeploy": ("lmdeploy",),
    "harmony": ("harmony",),
    "sglang": ("sglang", "sglang-serving"),
    "vllm": ("vllm", "vllm-plugin"),
}
REPORT_FILES = ("report.json", "report.md", "report.html", "badge.svg")
#: Seconds one case may take in quick mode. A quadratic parser needs many minutes on the
#: corpus's pathological cases (e.g. SGLang on a 70 KB string argument in ~4-character
#: chunks); two minutes records that as a timeout without spending hours on it. Full mode
#: keeps certify's own limit: its ladders alone may take three minutes (``scaling.FULL_CAP``),
#: and with two minutes LMDeploy's full mode recorded three cases as timeouts, two of which its
#: ladder, given the time, measured super-linear (reports/FINDINGS.md, rows 18 and 19).
CASE_TIMEOUT = "120"


def relative(path: Path) -> str:
    """Paths as the reports record them: relative to the repository, not to this machine."""
    return os.path.relpath(path, Path.cwd())


def certify(adapter: str, mode: str, dialects: list[str], *extra: str) -> tuple[int, float]:
    """One ``toolconform certify`` run; its exit status and wall-clock seconds."""
    selection = [argument for dialect in dialects for argument in ("--dialect", dialect)]
    start = time.monotonic()
    status = toolconform(["certify", "--adapter", adapter, f"--{mode}", *selection, *extra])
    return status, time.monotonic() - start


def certify_adapter(adapter: str, args: argparse.Namespace) -> int:
    loaded = load_adapter(adapter)
    implementation, covered = loaded.implementation, loaded.dialects or {}
    in_corpus = {case.dialect for case in load_cases(builtin_corpus())}
    dialects = sorted(set(covered) & in_corpus)
    if not dialects:
        print(f"{adapter}: the corpus has no case for its dialects ({', '.join(covered)})")
        return 0
    directory = HERE / f"{adapter}-{implementation['version']}"
    expectations = directory / "expectations.toml"
    options = ("--jobs", str(args.jobs))
    limit = ("--case-timeout", CASE_TIMEOUT)
    gate = ("--expectations", relative(expectations))
    if args.update_expectations:
        directory.mkdir(parents=True, exist_ok=True)
        quick = (*gate, "--update-expectations")
    else:
        quick = gate if expectations.exists() else ()
    if not args.publish:
        return certify(adapter, "quick", dialects, *options, *limit, *quick)[0]

    with tempfile.TemporaryDirectory(dir=HERE) as staging:
        status, seconds = certify(
            adapter, "quick", dialects, *options, *limit, *quick, "--report", staging
        )
        directory.mkdir(parents=True, exist_ok=True)
        for name in REPORT_FILES:
            shutil.move(Path(staging) / name, directory / name)
    print(f"{adapter}: quick mode {seconds:.0f} s, exit status {status}")
    if args.full:
        known = gate if expectations.exists() else ()
        # With --update-expectations full mode then rewrites the entries of every case it ran:
        # quick mode's, and the 22 more generated cases a dialect that quick mode never runs
        # (their entries cannot go stale there). An entry only full mode's chunkings fail
        # would make quick mode's gate report it stale: the gate says so, nothing is hidden.
        full, seconds = certify_full(
            adapter,
            dialects,
            args.shards,
            directory / "full",
            options,
            known,
            update=args.update_expectations,
        )
        print(f"{adapter}: full mode {seconds:.0f} s, exit status {full}")
    return status


def certify_full(
    adapter: str,
    dialects: list[str],
    shards: int,
    report: Path,
    options: tuple[str, ...],
    known: tuple[str, ...],
    *,
    update: bool = False,
) -> tuple[int, float]:
    """The full mode as ``shards`` shard runs (``certify --shard K/N``, one after another
    here, one per machine in ci-templates/github-actions-toolconform-full.yml) merged into
    one report (``certify --merge``) against the expectations ``known``: the report an
    unsharded run writes, but for its clock. Its seconds are the shards' sum. With
    ``update`` the run (sharded: the merge, not the shards) rewrites the expectations file
    ``known`` names."""
    rewrite = ("--update-expectations",) if update else ()
    if shards == 1:
        return certify(
            adapter, "full", dialects, *options, *known, *rewrite, "--report", relative(report)
        )
    seconds = 0.0
    with tempfile.TemporaryDirectory(dir=HERE) as staging:
        parts = [relative(Path(staging) / f"shard-{number}") for number in range(1, shards + 1)]
        for number, part in enumerate(parts, start=1):
            shard = ("--shard", f"{number}/{shards}", "--report", part)
            status, took = certify(adapter, "full", dialects, *options, *known, *shard)
            print(f"{adapter}: full mode, shard {number}/{shards}: {took:.0f} s, status {status}")
            seconds += took
        merged = toolconform(
            ["certify", "--merge", *parts, *known, *rewrite, "--report", relative(report)]
        )
    return merged, seconds


def write_registry(engine: str) -> None:
    """Record the parser names the engine registers, for the coverage page (made without
    the engines)."""
    if engine not in ENGINES_COVERED:
        return
    module = engine_module(engine)
    names = module.registered_names()
    directory = HERE / REGISTRIES
    directory.mkdir(exist_ok=True)
    record = {
        "engine": engine,
        "title": module.ENGINE.name,
        "version": module.ENGINE.version(),
        **names,
    }
    path = directory / f"{engine}.json"
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", choices=sorted(ENGINES))
    parser.add_argument("--publish", action="store_true", help="write the reports and README")
    parser.add_argument(
        "--no-full", dest="full", action="store_false", help="publish the quick mode only"
    )
    parser.add_argument(
        "--update-expectations",
        action="store_true",
        help="rewrite expectations.toml from the quick run, then from the full run "
        "(reasons already written stay)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--shards",
        type=int,
        default=1,
        metavar="N",
        help="run the full mode as N shards (certify --shard K/N) and merge their reports "
        "(certify --merge), as the sharded CI workflow does (default 1: one run)",
    )
    parser.add_argument(
        "--adapter",
        action="append",
        help="certify only this one of the engine's adapters (repeatable; default: all)",
    )
    args = parser.parse_args()
    unknown = sorted(set(args.adapter or ()) - set(ENGINES[args.engine]))
    if unknown:
        parser.error(f"{args.engine} has no adapter {', '.join(unknown)}: {ENGINES[args.engine]}")
    status = 0
    for adapter in args.adapter or ENGINES[args.engine]:
        status |= certify_adapter(adapter, args)
    if args.publish:
        write_registry(args.engine)
        write_summary(HERE, HERE.parent / "README.md")
        write_coverage(HERE, HERE.parent / "COVERAGE.md")
    return status


if __name__ == "__main__":
    sys.exit(main())
