"""``toolconform verify-report DIR``: check a published report against itself and the adapter.

Three questions, each answered from outside the report's own say-so:

1. Do ``report.md``, ``report.html`` and ``badge.svg`` derive from ``report.json``? (A hand-
   edited badge or Markdown headline does not.)
2. Is the adapter at hand the one the report is about? Its files' digests are computed again
   and compared with the ones the report recorded.
3. With ``--rerun N``: do N sampled failing and N passing cases give the same verdicts and
   the same failure fingerprints when run again here?

A report and its digests are only as trustworthy as whoever could write them: question 2
tells that a report is about this adapter, not that its verdict is right — question 3 does.
Exit status 0: everything agrees; 1: something does not; 2: usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import jsonschema

from ..adapters import AdapterError, load_adapter
from ..adapters.subprocess import HASH_SEED_SETTING
from ..cases import builtin_corpus
from ..corpus_build import corpus_identity
from ..errors import UsageError
from ..identity import adapter_identity, identity_problems
from ..report import SCHEMA_VERSION, encoded, report_schema
from ..report_markdown import REPORT_FILES, report_files


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify-report",
        help="check that a report's files derive from its JSON, that the adapter at hand is "
        "the one it certified, and (--rerun) that sampled cases give the same verdicts",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("directory", type=Path, metavar="DIR", help="a certification report")
    parser.add_argument(
        "--adapter",
        metavar="SPEC",
        help="the adapter to compare with (default: the one the report names)",
    )
    parser.add_argument(
        "--rerun",
        type=int,
        default=0,
        metavar="N",
        help="re-run N failing and N passing cases, sampled, and compare (default 0)",
    )
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="workers for --rerun")
    parser.set_defaults(run=run)


def derived_pages(directory: Path) -> list[tuple[str, str]]:
    """Each file of a report folder that ``report.json`` derives, with what is wrong with it
    (``""``: nothing): missing, or not what ``report.json`` renders now."""
    text = (directory / "report.json").read_text(encoding="utf-8")
    pages = []
    for name, expected in report_files(text)[1:]:
        path = directory / name
        if not path.exists():
            pages.append((name, "missing"))
        # Compared as the bytes write_report writes (report.encoded): read as text, a
        # carriage return would read as a newline and a lone surrogate's escape would differ.
        elif path.read_bytes() != encoded(expected):
            pages.append((name, "does not derive from report.json (edited, or stale)"))
        else:
            pages.append((name, ""))
    return pages


def run(args: argparse.Namespace) -> int:
    data = _load(args.directory)
    problems: list[str] = []
    checked: list[str] = []
    for name, problem in derived_pages(args.directory):
        if problem:
            problems.append(f"{name}: {problem}")
        else:
            checked.append(f"{name} derives from report.json")
    spec = args.adapter or data["adapter"]
    try:
        adapter = load_adapter(spec)
    except AdapterError as error:
        raise UsageError(str(error)) from None
    implementation = dict(adapter.implementation)
    adapter.close()
    found = identity_problems(data["adapter_identity"], adapter_identity(spec, implementation))
    problems += [f"adapter: {problem}" for problem in found]
    if not found:
        checked.append(f"adapter {spec} matches the recorded identity")
    if args.rerun:
        problems += _rerun(data, spec, args.rerun, args.jobs, checked)
    for line in checked:
        print(f"ok: {line}")
    for line in problems:
        print(f"problem: {line}")
    verdict = "verified" if not problems else f"{len(problems)} problem(s)"
    print(f"{args.directory}: {verdict} ({data['isolation']} report)")
    return 0 if not problems else 1


def _load(directory: Path) -> dict[str, Any]:
    path = directory / "report.json"
    if not path.is_file():
        raise UsageError(f"{directory} holds no report.json (files: {', '.join(REPORT_FILES)})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"{path} is not readable JSON: {error}") from None
    if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
        version = data.get("schema_version") if isinstance(data, dict) else None
        raise UsageError(
            f"{path}: schema version {version!r}; this toolconform reads {SCHEMA_VERSION} "
            "(regenerate the report)"
        )
    try:
        jsonschema.validate(data, report_schema())
    except jsonschema.ValidationError as error:
        raise UsageError(f"{path} does not follow the report schema: {error.message}") from None
    return data


def _sample(data: dict[str, Any], count: int) -> list[str]:
    """Up to ``count`` failing and ``count`` passing cases, the same ones for the same report."""
    seed = hashlib.sha256(json.dumps(data["cases"], sort_keys=True).encode()).hexdigest()
    rng = random.Random(seed)
    chosen = []
    for status in ("fail", "pass"):
        ids = sorted(case["id"] for case in data["cases"] if case["status"] == status)
        chosen += rng.sample(ids, min(count, len(ids)))
    return chosen


def _outcomes(data: dict[str, Any], cases: list[str]) -> dict[str, tuple[str, frozenset]]:
    status = {case["id"]: case["status"] for case in data["cases"]}
    prints: dict[str, set] = {case: set() for case in cases}
    for failure in data["failures"]:
        if failure["case"] in prints:
            prints[failure["case"]].add((failure["check"], failure["fingerprint"]))
    return {case: (status.get(case, "?"), frozenset(prints[case])) for case in cases}


def _rerun(data: dict[str, Any], spec: str, count: int, jobs: int, checked: list[str]) -> list[str]:
    from ..cli import main

    if corpus_identity(builtin_corpus())["sha256"] != data["suite"]["corpus"]["sha256"]:
        return ["--rerun: the report was made with another corpus than the one installed here"]
    cases = _sample(data, count)
    if not cases:
        return []
    options = data["options"]
    argv = ["certify", "--adapter", spec, f"--{data['mode']}", "--jobs", str(jobs)]
    for case in cases:
        argv += ["--case", case]
    argv += ["--generated", str(options["generated"])]
    argv += ["--feed-timeout", f"{options['feed_timeout']:g}"]
    argv += ["--case-timeout", f"{options['case_timeout']:g}"]
    if not options["robustness"]:
        argv.append("--no-robustness")
    if data["isolation"] == "sandboxed":
        argv.append("--sandbox")
    # The adapter programs get the string-hash seed the report's run gave them (a parser may
    # answer by it: adapters.subprocess.hash_seed); a report without one leaves it as it is.
    seed = {HASH_SEED_SETTING: options["hash_seed"]} if "hash_seed" in options else {}
    with tempfile.TemporaryDirectory() as directory, mock.patch.dict(os.environ, seed):
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            main([*argv, "--report", directory])
        path = Path(directory) / "report.json"
        if not path.exists():
            return [f"--rerun: the re-run wrote no report: {output.getvalue()[-300:]}"]
        again = json.loads(path.read_text(encoding="utf-8"))
    before, after = _outcomes(data, cases), _outcomes(again, cases)
    problems = []
    for case in cases:
        if before[case] != after[case]:
            problems.append(
                f"--rerun {case}: the report says {before[case][0]} "
                f"{sorted(before[case][1])}, here {after[case][0]} {sorted(after[case][1])}"
            )
    if not problems:
        checked.append(f"{len(cases)} re-run case(s) give the report's verdicts and fingerprints")
    return problems
