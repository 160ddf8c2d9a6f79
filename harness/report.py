"""The certification report: data first, in a versioned JSON schema, rendered second.

One report describes one implementation certified against one suite and corpus version:
two numbers — the raw must-level conformance (what the parser does) and the gate result
against its expectations file (whether anything changed) — with the coverage behind them
(what ran, what was skipped and why, how each dialect was cut), per check × dialect counts
of cases, every failure with its minimal chunking, expected vs actual, fingerprint and a
command that reproduces it, and what the parser was: its identity (file digests) and the
isolation it ran under. It is written atomically: each file appears whole, or the previous
one stays.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .. import __version__
from .checks import CERTIFIED, MAY
from .chunkings import ChunkingModel, Ending
from .errors import UsageError
from .execution import ADAPTER, CaseResult, Failure
from .expectations import Expectations, KnownFailure, fingerprint

SCHEMA_VERSION = 2
#: Levels whose unexpected failures fail the run; ``may`` is informative (the robustness tier,
#: implementation-defined cases).
GATING_LEVELS = ("must", "should")
#: What ``isolation`` says about the parser under test: it ran in processes of its own on this
#: machine, so the report is as trustworthy as the machine it ran on (self-attested), or under
#: an OS sandbox that hid the expected answers and the report from it (sandboxed).
SELF_ATTESTED, SANDBOXED = "self-attested", "sandboxed"


@dataclass
class Coverage:
    """What the run was asked to cover, against which ``Report.gate_reasons`` judges it."""

    #: The dialects named with ``--dialect`` (``None``: every dialect the adapter supports).
    selected: tuple[str, ...] | None = None
    #: Dialects with corpus cases that the adapter does not declare (not run, not counted).
    unsupported: tuple[str, ...] = ()
    #: dialect → how its outputs were cut (real tokenizer or tag-aligned, and why).
    chunking: dict[str, ChunkingModel] = field(default_factory=dict)
    #: ``--allow-skips``: cases the adapter refuses do not fail the run (the report says so).
    allow_skips: bool = False
    #: How the runs' streams ended (``chunkings.ENDINGS``): ``with-last-chunk`` only when
    #: the adapter takes the last chunk with finish, ``length`` when it also reports the
    #: client's finish reason (a serving layer).
    endings: tuple[str, ...] = (Ending.STEP,)


@dataclass
class Report:
    adapter: str
    implementation: dict[str, Any]
    mode: str
    corpus: dict[str, Any]
    started: _dt.datetime
    finished: _dt.datetime | None = None
    results: list[CaseResult] = field(default_factory=list)
    stale_expectations: list[KnownFailure] = field(default_factory=list)
    #: Intermittent known failures this run passed: neither stale nor failing the gate.
    intermittent_passed: list[KnownFailure] = field(default_factory=list)
    #: Known failures of cases that ended before their check was judged (a run hung,
    #: crashed or broke first): not passed, so neither stale nor failing; they stay.
    unjudged: list[KnownFailure] = field(default_factory=list)
    expectations_file: str | None = None
    #: What the implementation says about itself: differences by design (expectations file).
    notes: list[str] = field(default_factory=list)
    coverage: Coverage = field(default_factory=Coverage)
    isolation: str = SELF_ATTESTED
    #: Things a reader must know that are not failures (an expectations file made for another
    #: implementation, a dialect cut with the tag-aligned model).
    warnings: list[str] = field(default_factory=list)
    #: The adapter's identity: its spec and file digests (``identity.adapter_identity``).
    identity: dict[str, Any] = field(default_factory=dict)
    #: The options that decide what ran (generated cases per dialect, robustness tier,
    #: limits): what a re-run needs to run the same.
    options: dict[str, Any] = field(default_factory=dict)
    #: ``"K/N"`` for one shard of a sharded run, ``None`` for a whole (or merged) run.
    shard: str | None = None

    def classify(self, expectations: Expectations) -> None:
        """Mark known failures, and those that fail differently from what was recorded
        (changed); collect the entries that no longer fail (XPASS): stale, or passed this
        run if intermittent. An entry whose check a case never judged, because one of its
        runs hung, crashed or broke first, did not pass: it is ``unjudged``, not stale (a
        pathological case past its time limit before its ladder was timed)."""
        failed: set[tuple[str, str]] = set()
        ran: set[str] = set()
        for result in self.results:
            if result.skipped is None:
                ran.add(result.case)
            for failure in result.failures:
                failed.add((failure.case, failure.check))
                failure.fingerprint = fingerprint(failure)
                entry = expectations.lookup(failure.case, failure.check)
                failure.changed_from = ""
                failure.expected_failure = False
                if entry is not None and entry.fingerprint not in ("", failure.fingerprint):
                    failure.changed_from = entry.fingerprint
                    failure.reason, failure.issue = entry.reason, entry.issue
                elif entry is not None:
                    failure.expected_failure = True
                    failure.reason, failure.issue = entry.reason, entry.issue
        by_case = {result.case: result for result in self.results}
        passing, self.unjudged = [], []
        for entry in expectations.entries_passing(failed, ran):
            if not entry.is_glob and by_case[entry.case].never_judged(entry.check):
                self.unjudged.append(entry)
            else:
                passing.append(entry)
        self.stale_expectations = [entry for entry in passing if not entry.intermittent]
        self.intermittent_passed = [entry for entry in passing if entry.intermittent]
        self.expectations_file = str(expectations.path) if expectations.path else None
        self.notes = expectations.notes

    @property
    def failures(self) -> list[Failure]:
        return [failure for result in self.results for failure in result.failures]

    @property
    def unexpected(self) -> list[Failure]:
        """Gating failures the expectations file does not list (changed ones included)."""
        return [f for f in self.failures if not f.expected_failure and f.level in GATING_LEVELS]

    @property
    def changed(self) -> list[Failure]:
        return [f for f in self.unexpected if f.changed_from]

    @property
    def informative(self) -> list[Failure]:
        return [f for f in self.failures if not f.expected_failure and f.level == MAY]

    @property
    def ran(self) -> list[CaseResult]:
        return [result for result in self.results if result.skipped is None]

    def refused(self) -> list[CaseResult]:
        """Cases the adapter skipped in dialects it declares it supports."""
        return [result for result in self.results if result.skip_kind == ADAPTER]

    def conformance(self) -> dict[str, Any]:
        """The raw must-level conformance: must-level cases that pass every must-level check
        / must-level cases run, overall and per dialect. Known failures count as failures:
        this is what the parser does, whatever its expectations file says."""
        dialects: dict[str, dict[str, int]] = {}
        for result in self.ran:
            if result.level != "must":
                continue
            cell = dialects.setdefault(result.dialect, {"passed": 0, "cases": 0})
            cell["cases"] += 1
            cell["passed"] += not any(f.level == "must" for f in result.failures)
        passed = sum(cell["passed"] for cell in dialects.values())
        cases = sum(cell["cases"] for cell in dialects.values())
        return {
            "must": {"passed": passed, "cases": cases},
            "dialects": dict(sorted(dialects.items())),
        }

    def gate_reasons(self) -> list[str]:
        """Why the run fails its gate; empty when it passes. Nothing that ran nothing, or
        skipped what it claims to support, passes."""
        reasons = []
        ran = self.ran
        # One shard covers a part of the run: what the whole covers is judged on the merge.
        if not ran and self.shard is None:
            reasons.append("no case ran: nothing was certified")
        ran_dialects = {result.dialect for result in ran}
        for dialect in self.coverage.selected or () if self.shard is None else ():
            if dialect not in ran_dialects:
                why = (
                    "the adapter does not support it"
                    if dialect in self.coverage.unsupported
                    else "every case was skipped"
                )
                reasons.append(f"dialect {dialect} was selected but ran no case ({why})")
        refused = self.refused()
        if refused and not self.coverage.allow_skips:
            reasons.append(
                f"{len(refused)} case(s) skipped by the adapter in dialects it declares it "
                "supports (declare them in the expectations file, or pass --allow-skips)"
            )
        unexpected = [f for f in self.unexpected if not f.changed_from]
        if unexpected:
            reasons.append(f"{len(unexpected)} unexpected failure(s)")
        if self.changed:
            reasons.append(f"{len(self.changed)} known failure(s) now fail differently (changed)")
        if self.stale_expectations:
            reasons.append(
                f"{len(self.stale_expectations)} stale expectation(s): listed as failing, "
                "but passed"
            )
        return reasons

    @property
    def passed(self) -> bool:
        return not self.gate_reasons()

    def matrix(self) -> dict[str, dict[str, dict[str, int]]]:
        """check → dialect → counts of cases that pass, fail, fail as expected, or fail at may
        level (``info``: informative, like a may-level case failing a must-level check)."""
        expected = {(f.case, f.check) for f in self.failures if f.expected_failure}
        informative = {(f.case, f.check) for f in self.informative}
        table: dict[str, dict[str, dict[str, int]]] = defaultdict(
            lambda: defaultdict(lambda: {"pass": 0, "fail": 0, "xfail": 0, "info": 0})
        )
        for result in self.results:
            for check, status in result.checks.items():
                cell = table[check][result.dialect]
                if status == "pass":
                    cell["pass"] += 1
                elif (result.case, check) in expected:
                    cell["xfail"] += 1
                elif (result.case, check) in informative:
                    cell["info"] += 1
                else:
                    cell["fail"] += 1
        return {check: dict(dialects) for check, dialects in table.items()}

    def coverage_json(self) -> dict[str, Any]:
        dialects: dict[str, dict[str, Any]] = {}
        for result in self.results:
            cell = dialects.setdefault(
                result.dialect, {"cases": 0, "ran": 0, "skipped": 0, "skips": {}}
            )
            cell["cases"] += 1
            if result.skipped is None:
                cell["ran"] += 1
            else:
                cell["skipped"] += 1
                key = f"{result.skip_kind}: {result.skipped}"
                cell["skips"][key] = cell["skips"].get(key, 0) + 1
        for dialect, cell in dialects.items():
            model = self.coverage.chunking.get(dialect)
            cell["chunking"] = model.to_json() if model else None
        return {
            "selected": list(self.coverage.selected) if self.coverage.selected else None,
            "unsupported_dialects": list(self.coverage.unsupported),
            "allow_skips": self.coverage.allow_skips,
            "endings": list(self.coverage.endings),
            "dialects": dict(sorted(dialects.items())),
        }

    def to_json(self) -> dict[str, Any]:
        finished = self.finished or _dt.datetime.now(_dt.UTC)
        dialects = sorted({r.dialect for r in self.results})
        reasons = self.gate_reasons()
        verdict = "fail" if reasons else "pass"
        return {
            "schema_version": SCHEMA_VERSION,
            "suite": {"name": "toolconform", "version": __version__, "corpus": self.corpus},
            "implementation": self.implementation,
            "adapter": self.adapter,
            "mode": self.mode,
            "started_at": self.started.isoformat(timespec="seconds"),
            "finished_at": finished.isoformat(timespec="seconds"),
            "seconds": round((finished - self.started).total_seconds(), 2),
            "machine": machine_info(),
            "isolation": self.isolation,
            "adapter_identity": self.identity,
            "options": self.options,
            "verdict": verdict,
            "conformance": self.conformance(),
            "gate": {
                "verdict": verdict,
                "reasons": reasons,
                "known": sum(1 for f in self.failures if f.expected_failure),
                "unexpected": len(self.unexpected) - len(self.changed),
                "changed": len(self.changed),
                "stale": len(self.stale_expectations),
                "intermittent_passed": len(self.intermittent_passed),
                "unjudged": len(self.unjudged),
                "skipped": sum(1 for r in self.results if r.skipped),
            },
            "coverage": self.coverage_json(),
            "warnings": self.warnings,
            "dialects": dialects,
            "checks": [check.to_json() for check in CERTIFIED],
            "totals": {
                "cases": len(self.results),
                "skipped": sum(1 for r in self.results if r.skipped),
                "runs": sum(r.runs for r in self.results),
                "unexpected_failures": len(self.unexpected),
                "changed_failures": len(self.changed),
                "expected_failures": sum(1 for f in self.failures if f.expected_failure),
                "informative_failures": len(self.informative),
                "stale_expectations": len(self.stale_expectations),
            },
            "matrix": self.matrix(),
            "failures": [failure.to_json() for failure in self.failures],
            "stale_expectations": _entries_json(self.stale_expectations),
            "intermittent_passed": _entries_json(self.intermittent_passed),
            "unjudged_expectations": _entries_json(self.unjudged),
            "expectations_file": self.expectations_file,
            "notes": self.notes,
            "cases": [
                {
                    "id": r.case,
                    "dialect": r.dialect,
                    "kind": r.kind,
                    "level": r.level,
                    "status": "skip" if r.skipped else ("fail" if r.failures else "pass"),
                    "skipped": r.skipped,
                    "skip_kind": r.skip_kind,
                    "runs": r.runs,
                    "seconds": round(r.seconds, 4),
                    "checks": dict(sorted(r.checks.items())),
                }
                for r in self.results
            ],
            "shard": self.shard,
        }


def results_from_json(data: dict[str, Any]) -> list[CaseResult]:
    """The case results a report recorded, as the run had them (to merge shards)."""
    failures: dict[str, list[Failure]] = {}
    for item in data["failures"]:
        failures.setdefault(item["case"], []).append(Failure.from_json(item))
    return [
        CaseResult(
            case=item["id"],
            dialect=item["dialect"],
            kind=item["kind"],
            level=item["level"],
            checks=dict(item.get("checks") or {}),
            failures=failures.get(item["id"], []),
            skipped=item.get("skipped"),
            skip_kind=item.get("skip_kind"),
            runs=item["runs"],
            seconds=item["seconds"],
        )
        for item in data["cases"]
    ]


def report_schema() -> dict[str, Any]:
    """The published JSON Schema of ``report.json``."""
    text = (resources.files(__package__) / "report.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def machine_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }


def check_report_directory(directory: Path) -> None:
    """Fail before the run, not after it, when ``directory`` cannot hold a report."""
    resolved = directory.resolve()
    if resolved.exists() and not resolved.is_dir():
        raise UsageError(f"--report {directory}: exists and is not a directory")
    if resolved.parts[1:2] in (("proc",), ("sys",), ("dev",)):
        raise UsageError(f"--report {directory}: not a place for a report")
    parent = resolved
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"--report {directory}: {parent} is not a writable directory")
    if resolved.exists() and not os.access(resolved, os.W_OK | os.X_OK):
        raise UsageError(f"--report {directory}: not writable")


def _entries_json(entries: list[KnownFailure]) -> list[dict[str, str]]:
    return [
        {"case": e.case, "check": e.check, "reason": e.reason, "issue": e.issue} for e in entries
    ]


def encoded(text: str) -> bytes:
    """A report file's bytes, as ``write_report`` writes them and ``verify-report`` compares
    them: UTF-8, a carriage return kept as it is, and a lone surrogate a parser produced
    (JSON's "\ud83d" escape decodes to one), which UTF-8 cannot carry, written as its
    escape (valid in JSON too)."""
    return text.encode("utf-8", "backslashreplace")


def write_report(
    directory: Path, files: Iterable[tuple[str, str | None]], *, binary_from: Path | None = None
) -> None:
    """Write the report files so that ``directory`` holds a whole report or the old one.

    Everything is written into a sibling temporary directory first: a new directory is that
    one renamed; in an existing one each file replaces its old version by an atomic rename,
    and whatever else the directory holds (a README, another report) is left alone. An
    interrupted run never leaves a half-written file. A file given with text ``None`` is
    copied from ``binary_from`` (plots).
    """
    directory = directory.resolve()
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    # mkdtemp makes the folder private (0700); a report folder is as readable as any other.
    umask = os.umask(0)
    os.umask(umask)
    try:
        staging.chmod(0o777 & ~umask)
        for name, text in files:
            if text is None:
                assert binary_from is not None
                shutil.copyfile(binary_from / name, staging / name)
            else:
                (staging / name).write_bytes(encoded(text))
        if directory.exists():
            for written in staging.iterdir():
                os.replace(written, directory / written.name)
            staging.rmdir()
        else:
            staging.rename(directory)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def report_json_text(report: Report) -> str:
    return json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"
