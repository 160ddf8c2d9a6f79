"""Rendering a certification report for people: Markdown and a badge (the HTML page is
``report_html``), and the list of a report directory's files.

Everything here reads the report's JSON form only, so a report written by an older run (or
by another tool that follows the schema) renders the same way.
"""

from __future__ import annotations

import html
import json
from typing import Any

from .chunkings import Ending

LEVEL_ORDER = {"must": 0, "should": 1, "may": 2}
MAX_FAILURES_SHOWN = 200


#: The files of a report directory, each rendered from report.json alone.
REPORT_FILES = ("report.json", "report.md", "report.html", "badge.svg")


def report_files(json_text: str) -> list[tuple[str, str]]:
    """Every file of a report directory, derived from ``report.json``'s text alone: what
    certify writes, and what verify-report derives again to compare."""
    from .report_html import render_html  # it reads the summary page's counts, which read us

    report = json.loads(json_text)
    return [
        ("report.json", json_text),
        ("report.md", render_markdown(report)),
        ("report.html", render_html(report)),
        ("badge.svg", badge_svg(report)),
    ]


def conformance(report: dict[str, Any]) -> tuple[int, int]:
    """(must-level cases passing every must-level check, must-level cases run)."""
    must = report["conformance"]["must"]
    return must["passed"], must["cases"]


def percent(passed: int, cases: int) -> str:
    """A rate as people read it: never rounded up to 100 % while one case fails."""
    if not cases:
        return "n/a"
    rate = 100 * passed / cases
    text = f"{rate:.1f}".removesuffix(".0")
    if passed < cases and text == "100":
        text = "99.9"
    return f"{text} %"


#: The section of the known failures whose case ended before their check was judged.
UNJUDGED_TITLE = "Known failures not judged this run"
UNJUDGED_TEXT = (
    "Their case ended before the check was judged (a run hung, crashed or broke first): "
    "they did not pass, so they are not stale, and the file keeps them."
)


def headline(report: dict[str, Any]) -> list[str]:
    """The two numbers, in words: what the parser does, and whether it passed its gate."""
    passed, cases = conformance(report)
    gate = report["gate"]
    against = (
        f"against `{report['expectations_file']}`"
        if report.get("expectations_file")
        else "with no expectations file"
    )
    lines = [
        f"Must-level conformance {percent(passed, cases)}: {passed} of {cases} must-level "
        "cases pass every must-level check (known failures count as failures).",
        f"Gate {gate['verdict'].upper()} {against}: {gate['known']} known, "
        f"{gate['unexpected']} unexpected, {gate['changed']} changed, {gate['stale']} stale, "
        f"{gate['skipped']} skipped{set_aside_note(gate)}.",
    ]
    return lines


def set_aside_note(gate: dict[str, Any]) -> str:
    """The known failures that neither failed nor went stale this run: intermittent ones
    that passed, and those whose case ended before their check was judged (reports before
    either existed have neither)."""
    notes = []
    if count := gate.get("intermittent_passed", 0):
        notes.append(f"; {count} intermittent known failure(s) passed this run")
    if count := gate.get("unjudged", 0):
        notes.append(f"; {count} known failure(s) not judged this run")
    return "".join(notes)


def badge_text(report: dict[str, Any]) -> str:
    passed, cases = conformance(report)
    known = report["gate"]["known"]
    text = f"must {percent(passed, cases)}".replace(" %", "%")
    if known:
        text += f" · {known} known"
    if report["gate"]["verdict"] != "pass":
        text += " · FAIL"
    return text


def badge_svg(report: dict[str, Any]) -> str:
    """A shields-style badge with both numbers: 'toolconform | must 57% · 1022 known'.

    Green only for a passing gate with every must-level case passing; amber for a passing
    gate that rests on known failures; red for a failing gate.
    """
    passed, cases = conformance(report)
    right = badge_text(report)
    if report["gate"]["verdict"] != "pass":
        colour = "#e05d44"
    elif cases and passed == cases:
        colour = "#4c1"
    else:
        colour = "#dfb317"
    left = "toolconform"
    lw, rw = 7 * len(left) + 10, 7 * len(right) + 10
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lw + rw}" height="20" role="img" '
        f'aria-label="{left}: {html.escape(right)}"><rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{rw}" height="20" fill="{colour}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" '
        f'font-size="11"><text x="{lw / 2}" y="14">{left}</text>'
        f'<text x="{lw + rw / 2}" y="14">{html.escape(right)}</text></g></svg>\n'
    )


def coverage_rows(report: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Per dialect: cases run, skipped (with why), and the chunking model."""
    rows = []
    for dialect, cell in report["coverage"]["dialects"].items():
        skips = "; ".join(f"{count} × {why}" for why, count in cell["skips"].items())
        model = cell.get("chunking") or {}
        if model.get("model") == "tokenizer":
            chunking = "real token boundaries: " + ", ".join(model["families"])
        elif model:
            chunking = f"tag-aligned model ({model.get('reason')})"
        else:
            chunking = "—"
        rows.append((dialect, f"{cell['ran']}/{cell['cases']}", skips or "none", chunking))
    return rows


def _title(report: dict[str, Any]) -> str:
    implementation = report["implementation"]
    name = implementation.get("name", report["adapter"])
    version = implementation.get("version", "")
    return f"{name} {version}".strip()


def _cell_text(cell: dict[str, int] | None) -> str:
    if not cell:
        return "·"
    informative = cell.get("info", 0)
    total = cell["pass"] + cell["fail"] + cell["xfail"] + informative
    if cell["fail"]:
        return f"✗ {cell['fail']}/{total}"
    if cell["xfail"]:
        return f"~ {cell['xfail']}/{total} known"
    if informative:
        return f"ⓘ {informative}/{total} may"
    return f"✓ {total}"


def _sorted_checks(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [check for check in report["checks"] if check["id"] in report["matrix"]]


def _failure_groups(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {"unexpected": [], "expected": [], "informative": []}
    for failure in report["failures"]:
        if failure["expected_failure"]:
            groups["expected"].append(failure)
        elif failure["level"] == "may":
            groups["informative"].append(failure)
        else:
            groups["unexpected"].append(failure)
    for failures in groups.values():
        failures.sort(key=lambda f: (LEVEL_ORDER[f["level"]], f["check"], f["case"]))
    return groups


def _configurations(report: dict[str, Any]) -> list[tuple[str, str]]:
    """How the implementation serves each dialect of the run, where it says so."""
    mapping = report["implementation"].get("dialects") or {}
    return [(d, str(mapping[d])) for d in report["dialects"] if d in mapping and mapping[d] != d]


def _known_text(failure: dict[str, Any]) -> str:
    """The expectations file's explanation of a known failure (reason, bug report)."""
    reason = failure.get("reason") or "no reason given"
    issue = failure.get("issue")
    return f"{reason} ({issue})" if issue else reason


def render_markdown(report: dict[str, Any]) -> str:
    totals = report["totals"]
    corpus = report["suite"]["corpus"]
    lines = [
        f"# toolconform certification: {_title(report)}",
        "",
        *(f"**{line}**\n" for line in headline(report)),
    ]
    for reason in report["gate"]["reasons"]:
        lines.append(f"- gate: {reason}")
    for warning in report.get("warnings") or ():
        lines.append(f"- warning: {warning}")
    lines += [
        f"- suite {report['suite']['version']}, corpus {corpus.get('cases', '?')} cases "
        f"(`{str(corpus.get('sha256', ''))[:12]}`), mode `{report['mode']}`",
        f"- adapter `{report['adapter']}`, isolation: {report['isolation']}; "
        f"{report['started_at']}, {report['seconds']} s; "
        f"Python {report['machine']['python']} on {report['machine']['machine']}",
        f"- {totals['cases']} cases ({totals['skipped']} skipped), {totals['runs']} runs; "
        f"{totals['unexpected_failures']} unexpected failures "
        f"({totals['changed_failures']} of them changed known failures), "
        f"{totals['expected_failures']} expected, {totals['informative_failures']} "
        f"informative (may level), {totals['stale_expectations']} stale expectations",
        "",
        "## Coverage",
        "",
        "| dialect | ran | skipped | chunking |",
        "|---|---|---|---|",
        *(f"| {' | '.join(row)} |" for row in coverage_rows(report)),
        "",
    ]
    unsupported = report["coverage"]["unsupported_dialects"]
    if unsupported:
        lines += [f"Not run (the adapter does not support them): {', '.join(unsupported)}.", ""]
    if report["coverage"]["allow_skips"]:
        lines += ["Run with `--allow-skips`: cases the adapter refused did not fail the gate.", ""]
    lines += [ending_note(report), ""]
    if report.get("notes"):
        lines += ["## Notes from the implementation", ""]
        lines += [f"- {note}" for note in report["notes"]]
        lines.append("")
    configurations = _configurations(report)
    if configurations:
        lines += ["## How each dialect is served", "", "| dialect | configuration |", "|---|---|"]
        lines += [f"| {dialect} | {text} |" for dialect, text in configurations]
        lines.append("")
    lines += [
        "## Checks × dialects",
        "",
        "Cells count cases: ✓ all pass, ✗ failing/total, ~ known failures (expectations file), "
        "ⓘ informative failures (may level: the robustness tier, implementation-defined cases).",
        "",
    ]
    dialects = report["dialects"]
    lines.append("| check | level | " + " | ".join(dialects) + " |")
    lines.append("|---|---|" + "---|" * len(dialects))
    for check in _sorted_checks(report):
        row = report["matrix"][check["id"]]
        cells = " | ".join(_cell_text(row.get(d)) for d in dialects)
        lines.append(f"| `{check['id']}` | {check['level']} | {cells} |")
    groups = _failure_groups(report)
    titles = {
        "unexpected": "Unexpected failures",
        "expected": "Known failures (from the expectations file)",
        "informative": (
            "Informative failures (may level: the robustness tier, where tags are cut where no "
            "tokenizer cuts them, and implementation-defined cases)"
        ),
    }
    for key, failures in groups.items():
        if not failures:
            continue
        lines += ["", f"## {titles[key]} ({len(failures)})", ""]
        for failure in failures[:MAX_FAILURES_SHOWN]:
            chunking = failure["chunking"]
            lines += [
                f"### `{failure['check']}` ({failure['level']}) — `{failure['case']}`",
                "",
                f"{failure['status']}: {failure['message']}",
                "",
            ]
            if failure["expected_failure"]:
                lines += [f"Known failure: {_known_text(failure)}", ""]
            if failure.get("changed_from"):
                lines += [
                    f"Changed: the expectations file recorded `{failure['changed_from']}`, "
                    f"this run failed as `{failure['fingerprint']}`.",
                    "",
                ]
            lines += [
                f"Minimal chunking ({chunking['family']}, {len(chunking['chunks'])} chunks):",
                "",
                "```json",
                json.dumps(chunking["chunks"], ensure_ascii=False),
                "```",
            ]
            if failure.get("expected") is not None or failure.get("actual") is not None:
                lines += [
                    "",
                    "Expected / actual:",
                    "",
                    "```json",
                    json.dumps(failure.get("expected"), ensure_ascii=False),
                    json.dumps(failure.get("actual"), ensure_ascii=False),
                    "```",
                ]
            lines += ["", f"Reproduce: `{failure['reproduce']}`", ""]
        if len(failures) > MAX_FAILURES_SHOWN:
            lines.append(f"… and {len(failures) - MAX_FAILURES_SHOWN} more in report.json.")
    if report["stale_expectations"]:
        lines += ["", "## Stale expectations (listed as failing, but passed: remove them)", ""]
        for entry in report["stale_expectations"]:
            lines.append(f"- `{entry['case']}` / `{entry['check']}`: {entry['reason']}")
    if report.get("intermittent_passed"):
        lines += [
            "",
            "## Intermittent known failures that passed this run",
            "",
            "Measurements near their bound, marked `intermittent` in the expectations file: "
            "they fail in some runs and pass in others, so a pass does not make them stale.",
            "",
        ]
        for entry in report["intermittent_passed"]:
            lines.append(f"- `{entry['case']}` / `{entry['check']}`: {entry['reason']}")
    if report.get("unjudged_expectations"):
        lines += [
            "",
            f"## {UNJUDGED_TITLE}",
            "",
            UNJUDGED_TEXT,
            "",
        ]
        for entry in report["unjudged_expectations"]:
            lines.append(f"- `{entry['case']}` / `{entry['check']}`: {entry['reason']}")
    return "\n".join(lines) + "\n"


def ending_note(report: dict[str, Any]) -> str:
    """How the runs' streams ended: a parser never given its last chunk with finish was
    not shown to keep that chunk's text when a server sends ``finish_reason`` with it."""
    endings = (report.get("coverage") or {}).get("endings") or [Ending.STEP]
    if Ending.LENGTH in endings:
        return (
            "End of stream: after the last chunk, a separate step; in the `with-last-chunk` "
            "chunkings, the last chunk given with finish; in the `length` chunkings, the "
            "output cut at max_tokens (finish_reason `length`), the finish reason the "
            "adapter reports checked (`result.finish-reason`)."
        )
    if Ending.WITH_LAST_CHUNK in endings:
        return (
            "End of stream: after the last chunk, a separate step; and, in the "
            "`with-last-chunk` chunkings, the last chunk given with finish. The adapter "
            "models no serving layer: no run was cut at max_tokens (`length`)."
        )
    return (
        "End of stream: a separate step only. The adapter takes no text with finish, so "
        "no run gave it the last chunk with the end of the stream (`with-last-chunk`)."
    )
