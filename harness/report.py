"""The certification report: data first, in a versioned JSON schema, rendered second.

One report describes one implementation certified against one suite and corpus version:
per check × dialect counts of cases, every failure with its minimal chunking and expected vs
actual, and the verdict. It is written atomically: the whole report directory appears at
once, or the previous one stays.
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
from pathlib import Path
from typing import Any

from .. import __version__
from .checks import CATALOGUE, MAY
from .execution import CaseResult, Failure
from .expectations import Expectations, KnownFailure

SCHEMA_VERSION = 1
#: Levels whose unexpected failures fail the run; ``may`` is informative (the robustness tier,
#: implementation-defined cases).
GATING_LEVELS = ("must", "should")


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
    expectations_file: str | None = None
    #: What the implementation says about itself: differences by design (expectations file).
    notes: list[str] = field(default_factory=list)

    def classify(self, expectations: Expectations) -> None:
        """Mark known failures and collect the entries that no longer fail (XPASS)."""
        failed: set[tuple[str, str]] = set()
        ran: set[str] = set()
        for result in self.results:
            if result.skipped is None:
                ran.add(result.case)
            for failure in result.failures:
                failed.add((failure.case, failure.check))
                entry = expectations.lookup(failure.case, failure.check)
                failure.expected_failure = entry is not None
                if entry is not None:
                    failure.reason, failure.issue = entry.reason, entry.issue
        self.stale_expectations = expectations.strict_entries_passing(failed, ran)
        self.expectations_file = str(expectations.path) if expectations.path else None
        self.notes = expectations.notes

    @property
    def failures(self) -> list[Failure]:
        return [failure for result in self.results for failure in result.failures]

    @property
    def unexpected(self) -> list[Failure]:
        return [f for f in self.failures if not f.expected_failure and f.level in GATING_LEVELS]

    @property
    def informative(self) -> list[Failure]:
        return [f for f in self.failures if not f.expected_failure and f.level == MAY]

    @property
    def passed(self) -> bool:
        return not self.unexpected and not self.stale_expectations

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

    def to_json(self) -> dict[str, Any]:
        finished = self.finished or _dt.datetime.now(_dt.UTC)
        dialects = sorted({r.dialect for r in self.results})
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
            "verdict": "pass" if self.passed else "fail",
            "dialects": dialects,
            "checks": [check.to_json() for check in CATALOGUE],
            "totals": {
                "cases": len(self.results),
                "skipped": sum(1 for r in self.results if r.skipped),
                "runs": sum(r.runs for r in self.results),
                "unexpected_failures": len(self.unexpected),
                "expected_failures": sum(1 for f in self.failures if f.expected_failure),
                "informative_failures": len(self.informative),
                "stale_expectations": len(self.stale_expectations),
            },
            "matrix": self.matrix(),
            "failures": [failure.to_json() for failure in self.failures],
            "stale_expectations": [
                {"case": e.case, "check": e.check, "reason": e.reason, "issue": e.issue}
                for e in self.stale_expectations
            ],
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
                    "runs": r.runs,
                    "seconds": round(r.seconds, 4),
                }
                for r in self.results
            ],
        }


def machine_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }


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
                # A parser may produce a lone surrogate (JSON's "\ud83d" escape decodes to
                # one), which UTF-8 cannot carry: written as its escape, valid in JSON too.
                (staging / name).write_text(text, encoding="utf-8", errors="backslashreplace")
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
