"""The summary page over many certification reports: implementations × dialects.

Each implementation's report directory holds the quick mode's ``report.json`` (and, in
``full/``, the full mode's). The page shows, per implementation and dialect, how many of the
must-level cases that ran pass every must-level check (the raw conformance) — known failures
count as failures here, since the page compares implementations, not their gates — beside
each gate's verdict, with links to each report. Like the
renderers, it reads the reports' JSON form only.

    python -m toolconform.harness.summary REPORTS_DIR OUTPUT.md
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .report_markdown import percent

#: The hand-written page beside the summary that lists the distinct bugs the reports show.
FINDINGS = "FINDINGS.md"


@dataclass(frozen=True)
class Certified:
    """One implementation's reports, as found on disk."""

    directory: Path
    quick: dict[str, Any]
    full: dict[str, Any] | None = None

    @property
    def title(self) -> str:
        implementation = self.quick["implementation"]
        name = implementation.get("name", self.quick["adapter"])
        return f"{name} {implementation.get('version') or ''}".strip()


def find_reports(root: Path) -> list[Certified]:
    """Every ``*/report.json`` under ``root``, with its ``full/report.json`` when present."""
    found = []
    for path in sorted(root.glob("*/report.json")):
        full = path.parent / "full" / "report.json"
        found.append(
            Certified(
                path.parent,
                json.loads(path.read_text(encoding="utf-8")),
                json.loads(full.read_text(encoding="utf-8")) if full.exists() else None,
            )
        )
    return found


def must_pass_counts(report: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """dialect → (must-level cases passing every must-level check, must-level cases run),
    known failures counted as failures: the report's raw conformance."""
    if "conformance" in report:
        return {
            dialect: (cell["passed"], cell["cases"])
            for dialect, cell in report["conformance"]["dialects"].items()
        }
    # A report of schema version 1 (before the raw conformance was recorded).
    failing = {f["case"] for f in report["failures"] if f["level"] == "must"}
    counts: dict[str, list[int]] = {}
    for case in report["cases"]:
        if case["status"] == "skip" or case["level"] != "must":
            continue
        cell = counts.setdefault(case["dialect"], [0, 0])
        cell[0] += case["id"] not in failing
        cell[1] += 1
    return {dialect: (good, total) for dialect, (good, total) in counts.items()}


def _rate_cell(good: int, total: int, link: str) -> str:
    mark = "✓ " if good == total else ""
    return f"[{mark}{good}/{total}]({link})"


def _totals_cell(report: dict[str, Any] | None) -> str:
    if report is None:
        return "not run"
    totals = report["totals"]
    ran = totals["cases"] - totals["skipped"]
    return (
        f"{ran} cases, {totals['runs']} runs, {report['seconds']:.0f} s: "
        f"{totals['unexpected_failures']} unexpected, {totals['expected_failures']} known, "
        f"{totals['informative_failures']} informative; {report['verdict']}"
    )


def render_summary(reports: Sequence[Certified], base: Path) -> str:
    """The Markdown page; links are relative to ``base`` (the page's directory)."""

    def link(path: Path) -> str:
        return Path(os.path.relpath(path, base)).as_posix()

    counts = {entry.directory: must_pass_counts(entry.quick) for entry in reports}
    dialects = sorted({dialect for cells in counts.values() for dialect in cells})
    corpora = {
        (r.quick["suite"]["corpus"].get("cases"), str(r.quick["suite"]["corpus"].get("sha256")))
        for r in reports
    }
    lines = [
        "# Certification reports",
        "",
        "Generated from the `report.json` files of `certification/` by "
        "`reports/certification/regenerate.sh`; do not edit by hand.",
        "",
    ]
    for cases, sha in sorted(corpora, key=str):
        lines.append(f"- corpus: {cases} cases (`{sha[:12]}`)")
    # The reports show every failure; the findings page, written by a person who read them,
    # says which failures are distinct bugs.
    if (base / FINDINGS).exists():
        lines.append(f"- the distinct bugs found, one line each: [{FINDINGS}]({FINDINGS})")
    lines += [
        "",
        "## Must-level conformance, engines × dialects (quick mode)",
        "",
        "Each cell: must-level cases that pass every must-level check / must-level cases run. "
        "Known failures (listed in the engine's `expectations.toml`) count as failures here; "
        "— : the engine has no parser for the dialect. Cells link to the report. The gate "
        "column is the run's verdict against that expectations file: a passing gate with "
        "known failures means only that nothing changed since the file was written.",
        "",
        "| engine | conformance | gate | " + " | ".join(dialects) + " |",
        "|---|---|---|" + "---|" * len(dialects),
    ]
    for entry in reports:
        report_md = link(entry.directory / "report.md")
        cells = counts[entry.directory]
        passed = sum(good for good, _ in cells.values())
        total = sum(cases for _, cases in cells.values())
        gate = entry.quick.get("gate", {})
        known = f" · {gate['known']} known" if gate.get("known") else ""
        row = [
            f"[{entry.title}]({report_md}) (`{entry.quick['adapter']}`)",
            f"{percent(passed, total)} ({passed}/{total})",
            f"{entry.quick['verdict']}{known}",
        ]
        row += [_rate_cell(*cells[d], report_md) if d in cells else "—" for d in dialects]
        lines.append("| " + " | ".join(row) + " |")
    lines += [
        "",
        "The conformance and gate columns are the report's badge.",
        "",
        "## Reports",
        "",
        "| engine | quick mode | full mode | expectations |",
        "|---|---|---|---|",
    ]
    for entry in reports:
        quick = f"[report]({link(entry.directory / 'report.md')}) "
        quick += f"([html]({link(entry.directory / 'report.html')})): {_totals_cell(entry.quick)}"
        full = _totals_cell(entry.full)
        if entry.full is not None:
            full = f"[report]({link(entry.directory / 'full' / 'report.md')}): {full}"
        expectations = entry.directory / "expectations.toml"
        known = f"[expectations.toml]({link(expectations)})" if expectations.exists() else "none"
        lines.append(f"| {entry.title} | {quick} | {full} | {known} |")
    return "\n".join(lines) + "\n"


def write_summary(root: Path, output: Path) -> None:
    output.write_text(render_summary(find_reports(root), output.parent), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m toolconform.harness.summary REPORTS_DIR OUTPUT.md", file=sys.stderr)
        return 2
    write_summary(Path(args[0]), Path(args[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
