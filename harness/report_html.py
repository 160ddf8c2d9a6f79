"""The certification report as one HTML page, organised around failing cases.

A parser author whose pull request failed wants to see, per case, what was expected, what
came out and where the chunks were cut; a maintainer reading a published certification
wants the two numbers first (the raw conformance and the gate result) and the detail on
demand. So the page opens with those two numbers, then how each dialect ran, the checks ×
dialects matrix, and one entry per failing case with its failing checks inside: a
side-by-side diff of expected and actual content, reasoning and calls, the minimal chunking
with every chunk boundary drawn, the command that reproduces it. Filters (dialect, check,
level, kind) and a search box narrow the entries; their state lives in the URL's fragment
(``#dialect=qwen3&check=result.calls``), so the matrix and the site link straight into a
filtered view. Informative (may-level) cases are folded away by default.

Like the Markdown renderer, this reads the report's JSON form only; fields that newer
reports carry (``conformance``, ``gate``, ``coverage``, ``isolation``, a failure's
``reproduce`` and ``fingerprint``) are shown when present.
"""

from __future__ import annotations

import difflib
import html
import json
import shlex
from collections import defaultdict
from typing import Any

from .adapters.reference import reference_factory
from .html_page import page, scroll
from .report_markdown import UNJUDGED_TEXT, UNJUDGED_TITLE, ending_note, percent
from .summary import must_pass_counts

#: Where a corpus case's file is read, from its id (ids never change).
CASE_FILE_URL = (
    reference_factory.implementation["homepage"] + "/blob/main/corpus/cases/{case}.yaml"  # type: ignore[attr-defined]
)
#: Text longer than this is cut in the page (report.json keeps all of it) …
MAX_TEXT = 6000
#: … a chunking with more chunks than this shows its first ones …
MAX_CHUNKS = 400
#: … and strings longer than this are compared line by line, not character by character.
MAX_CHARACTER_DIFF = 4000
#: The outcome of a case: its worst failure, in this order.
OUTCOMES = ("unexpected", "known", "informative")
_OUTCOME_TITLES = {
    "unexpected": "Unexpected failures",
    "known": "Known failures (listed in the expectations file)",
    "informative": (
        "Informative failures (may level: the robustness tier, where tags are cut where no "
        "tokenizer cuts them, and implementation-defined cases)"
    ),
}
_STATUS_MARKS = {"pass": "✓", "fail": "×", "xfail": "~", "info": "ⓘ"}


def raw_conformance(report: dict[str, Any]) -> tuple[int, int, dict[str, tuple[int, int]]]:
    """(cases passing every must-level check, cases run, the same per dialect).

    Known failures count as failures: this is the parser's conformance, not its gate. The
    report's own ``conformance`` is used when it has one."""
    given = report.get("conformance")
    if given:
        dialects = {
            name: (cell["passed"], cell["cases"]) for name, cell in given["dialects"].items()
        }
        return given["must"]["passed"], given["must"]["cases"], dialects
    dialects = must_pass_counts(report)
    passed = sum(good for good, _ in dialects.values())
    return passed, sum(total for _, total in dialects.values()), dialects


def title(report: dict[str, Any]) -> str:
    implementation = report["implementation"]
    name = implementation.get("name", report["adapter"])
    return f"{name} {implementation.get('version', '')}".strip()


def render_html(report: dict[str, Any]) -> str:
    """The whole page."""
    cases = _failing_cases(report)
    body = [
        f"<h1>toolconform certification: {_e(title(report))}</h1>",
        _headline(report),
        _about(report),
        _gate_reasons(report),
        _dialects(report),
        _notes(report),
        _matrix(report),
        _failures(report, cases),
        _listed(
            report,
            "stale_expectations",
            "stale",
            "Stale expectations",
            "Listed as failing in the expectations file, but they passed: remove them.",
        ),
        _listed(
            report,
            "intermittent_passed",
            "intermittent",
            "Intermittent known failures that passed this run",
            "Measurements near their bound, marked <code>intermittent</code> in the "
            "expectations file: they fail in some runs and pass in others, so a pass does not "
            "make them stale.",
        ),
        _listed(
            report,
            "unjudged_expectations",
            "unjudged",
            UNJUDGED_TITLE,
            UNJUDGED_TEXT,
        ),
        f"<p class='muted'>Rendered by toolconform {_e(report['suite']['version'])} from "
        "report.json.</p>",
    ]
    return page(f"toolconform: {title(report)}", "".join(body), style=_STYLE, script=_SCRIPT)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


# --------------------------------------------------------------------------- the top


def _gate(report: dict[str, Any]) -> dict[str, Any]:
    """The gate result: the report's own ``gate``, or what older reports say of it."""
    gate = report.get("gate")
    if gate:
        return gate
    totals = report["totals"]
    return {
        "verdict": report["verdict"],
        "reasons": [],
        "known": totals["expected_failures"],
        "unexpected": totals["unexpected_failures"],
        "stale": totals["stale_expectations"],
        "skipped": totals["skipped"],
    }


def _count(value: Any) -> int:
    """A gate figure: a number, or a list of what it counts."""
    return len(value) if isinstance(value, list | tuple | dict) else int(value or 0)


def _headline(report: dict[str, Any]) -> str:
    passed, total, _ = raw_conformance(report)
    gate = _gate(report)
    verdict = str(gate["verdict"]).lower()
    figures = ", ".join(
        f"{_count(gate[key])} {key}"
        for key in ("unexpected", "changed", "known", "stale", "skipped")
        if key in gate
    )
    if gate.get("intermittent_passed"):
        figures += f", {_count(gate['intermittent_passed'])} intermittent passed"
    if gate.get("unjudged"):
        figures += f", {_count(gate['unjudged'])} known not judged"
    return (
        "<div class='headline'>"
        "<div class='figure' id='raw-conformance'><div class='muted'>raw conformance "
        "(must level)</div>"
        f"<div class='value'>{percent(passed, total)}</div>"
        f"<div>{passed} of {total} must-level cases run pass every must-level check; known "
        "failures count as failures</div></div>"
        f"<div class='figure' id='gate'><div class='muted'>gate (against the expectations "
        f"file)</div><div class='value {'pass' if verdict == 'pass' else 'fail'}'>"
        f"{_e(verdict.upper())}</div><div>{_e(figures)}</div></div></div>"
    )


def _about(report: dict[str, Any]) -> str:
    corpus = report["suite"]["corpus"]
    machine = report["machine"]
    totals = report["totals"]
    isolation = report.get("isolation") or "not recorded"
    expectations = report.get("expectations_file") or "none"
    return (
        f"<p>Suite {_e(report['suite']['version'])}, corpus {_e(corpus.get('cases', '?'))} cases "
        f"(<code>{_e(str(corpus.get('sha256', ''))[:12])}</code>), mode "
        f"<code>{_e(report['mode'])}</code>; adapter <code>{_e(report['adapter'])}</code>; "
        f"{_e(report['started_at'])}, {_e(report['seconds'])} s on Python "
        f"{_e(machine.get('python'))} ({_e(machine.get('machine', ''))}, "
        f"{_e(machine.get('cpus'))} CPUs); isolation: <strong>{_e(isolation)}</strong>; "
        f"expectations file: <code>{_e(expectations)}</code>.</p>"
        f"<p>{totals['cases']} cases ({totals['skipped']} skipped), {totals['runs']} runs: "
        f"{totals['unexpected_failures']} unexpected failures, "
        f"{totals['expected_failures']} known, {totals['informative_failures']} informative "
        f"(may level), {totals['stale_expectations']} stale expectations.</p>"
    )


def _gate_reasons(report: dict[str, Any]) -> str:
    reasons = _gate(report).get("reasons") or []
    if not reasons:
        return ""
    items = "".join(f"<li>{_e(reason)}</li>" for reason in reasons)
    return f"<h2>Why the gate says so</h2><ul id='gate-reasons'>{items}</ul>"


def _dialects(report: dict[str, Any]) -> str:
    """Per dialect: raw conformance, coverage, the chunking model, how it is served."""
    _, _, rates = raw_conformance(report)
    coverage = (report.get("coverage") or {}).get("dialects") or {}
    served = report["implementation"].get("dialects") or {}
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    skips: list[tuple[str, str]] = []
    for case in report["cases"]:
        counts[case["dialect"]][0] += 1
        if case["status"] == "skip":
            counts[case["dialect"]][1] += 1
            skips.append((case["id"], case.get("skipped") or ""))
    rows = []
    for dialect in sorted(set(report["dialects"]) | set(coverage) | set(counts)):
        cell = coverage.get(dialect) or {}
        cases = cell.get("cases", counts[dialect][0])
        skipped = cell.get("skipped", counts[dialect][1])
        ran = cell.get("ran", cases - skipped)
        chunking = cell.get("chunking") or {}
        model = " ".join(
            str(part)
            for part in (
                chunking.get("model", ""),
                ", ".join(chunking.get("families") or ()),
                f"({chunking['reason']})" if chunking.get("reason") else "",
            )
            if part
        )
        good, total = rates.get(dialect, (0, 0))
        css = "ok" if total and good == total else "bad" if total else ""
        rows.append(
            f"<tr><td><a href='#dialect={_e(dialect)}'>{_e(dialect)}</a></td>"
            f"<td class='num {css}'>{percent(good, total)} ({good}/{total})</td>"
            f"<td class='num'>{cases}</td><td class='num'>{ran}</td>"
            f"<td class='num'>{skipped}</td><td>{_e(model or '—')}</td>"
            f"<td>{_e(served.get(dialect, '—'))}</td></tr>"
        )
    allow = (report.get("coverage") or {}).get("allow_skips")
    note = (
        "<p><strong>--allow-skips</strong> was given: skipped cases do not fail the gate.</p>"
        if allow
        else ""
    ) + f"<p>{_e(ending_note(report))}</p>"
    skipped_list = ""
    if skips:
        items = "".join(f"<li><code>{_e(c)}</code>: {_e(reason)}</li>" for c, reason in skips)
        skipped_list = (
            f"<details><summary>{len(skips)} skipped cases</summary><ul>{items}</ul></details>"
        )
    return (
        "<h2>Dialects</h2><p class='muted'>Raw conformance per dialect: cases that pass every "
        "must-level check / cases run. The chunking model says where the chunks were cut "
        "(a real tokenizer, or the tag-aligned fallback and why); the last column is how "
        "the implementation serves the dialect.</p>"
        + scroll(
            "<table id='dialects'><tr><th>dialect</th><th>raw conformance</th><th>cases</th>"
            "<th>ran</th><th>skipped</th><th>chunking model</th><th>how it is served</th></tr>"
            + "".join(rows)
            + "</table>"
        )
        + note
        + skipped_list
    )


def _notes(report: dict[str, Any]) -> str:
    notes = report.get("notes") or []
    if not notes:
        return ""
    return (
        "<h2>Notes from the implementation</h2><ul>"
        + "".join(f"<li>{_e(note)}</li>" for note in notes)
        + "</ul>"
    )


def _matrix(report: dict[str, Any]) -> str:
    dialects = report["dialects"]
    head = "".join(f"<th>{_e(d)}</th>" for d in dialects)
    rows = []
    for check in report["checks"]:
        row = report["matrix"].get(check["id"])
        if row is None:
            continue
        cells = []
        for dialect in dialects:
            cell = row.get(dialect)
            if not cell:
                cells.append("<td class='muted'>·</td>")
                continue
            informative = cell.get("info", 0)
            total = cell["pass"] + cell["fail"] + cell["xfail"] + informative
            for key, css in (("fail", "bad"), ("xfail", "known"), ("info", "info")):
                if cell.get(key):
                    link = f"#dialect={dialect}&check={check['id']}"
                    text = f"{_STATUS_MARKS[key]} {cell[key]}/{total}"
                    cells.append(f"<td class='{css}'><a href='{_e(link)}'>{text}</a></td>")
                    break
            else:
                cells.append(f"<td class='ok'>{_STATUS_MARKS['pass']} {total}</td>")
        rows.append(
            f"<tr><td title='{_e(check['description'])}'><code>{_e(check['id'])}</code></td>"
            f"<td>{_e(check['level'])}</td>{''.join(cells)}</tr>"
        )
    return (
        "<h2>Checks × dialects</h2><p class='muted'>Cells count cases: ✓ all pass, × failing, "
        "~ known failures, ⓘ informative failures (may level); a cell links to its cases.</p>"
        + scroll(
            f"<table id='matrix'><tr><th>check</th><th>level</th>{head}</tr>"
            + "".join(rows)
            + "</table>"
        )
    )


# --------------------------------------------------------------------------- failing cases


def _outcome(failure: dict[str, Any]) -> str:
    if failure["expected_failure"]:
        return "known"
    return "informative" if failure["level"] == "may" else "unexpected"


def _failing_cases(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """case id → its failures, in report order."""
    cases: dict[str, list[dict[str, Any]]] = {}
    for failure in report["failures"]:
        cases.setdefault(failure["case"], []).append(failure)
    return cases


def _failures(report: dict[str, Any], cases: dict[str, list[dict[str, Any]]]) -> str:
    if not cases:
        return "<h2 id='failures'>Failing cases</h2><p>None: every case passes every check.</p>"
    kinds = {case["id"]: case["kind"] for case in report["cases"]}
    sections: dict[str, list[str]] = {outcome: [] for outcome in OUTCOMES}
    for case_id in sorted(cases, key=lambda c: (cases[c][0]["dialect"], c)):
        failures = cases[case_id]
        outcome = min((_outcome(f) for f in failures), key=OUTCOMES.index)
        sections[outcome].append(_case_entry(report, case_id, kinds.get(case_id, "?"), failures))
    options = {
        "dialect": sorted({f["dialect"] for fs in cases.values() for f in fs}),
        "check": sorted({f["check"] for fs in cases.values() for f in fs}),
        "level": [
            lv
            for lv in ("must", "should", "may")
            if any(f["level"] == lv for fs in cases.values() for f in fs)
        ],
        "kind": sorted({kinds.get(case_id, "?") for case_id in cases}),
    }
    selects = "".join(
        f"<label>{name} <select data-filter='{name}'><option value=''>all</option>"
        + "".join(f"<option>{_e(value)}</option>" for value in values)
        + "</select></label>"
        for name, values in options.items()
    )
    parts = [
        f"<h2 id='failures'>Failing cases ({len(cases)})</h2>",
        "<form id='filters' class='filters' onsubmit='return false'>",
        selects,
        "<label>search <input type='search' id='search' placeholder='case, message, chunk text…'"
        " size='28'></label>",
        "<button type='button' id='clear'>clear</button>",
        "<span id='shown' class='muted'></span></form>",
    ]
    for outcome in OUTCOMES:
        entries = sections[outcome]
        if not entries:
            continue
        is_open = "" if outcome == "informative" else " open"
        parts.append(
            f"<details class='section' data-outcome='{outcome}' id='{outcome}'{is_open}>"
            f"<summary><h3>{_OUTCOME_TITLES[outcome]} (<span class='count'>{len(entries)}"
            f"</span> of {len(entries)} cases)</h3></summary>{''.join(entries)}</details>"
        )
    return "".join(parts)


def _case_entry(
    report: dict[str, Any], case_id: str, kind: str, failures: list[dict[str, Any]]
) -> str:
    dialect = failures[0]["dialect"]
    checks = sorted({f["check"] for f in failures})
    levels = sorted({f["level"] for f in failures})
    badges = "".join(
        f"<span class='badge {_outcome(f)}'>{_e(f['check'])}</span>"
        for f in sorted(failures, key=lambda f: f["check"])
    )
    if case_id.startswith("generated/"):
        source = "generated by the strategies (no case file: the reproduce command draws it again)"
    else:
        url = CASE_FILE_URL.format(case=case_id)
        source = f"<a class='case-file' href='{_e(url)}'>corpus/cases/{_e(case_id)}.yaml</a>"
    groups: dict[str, list[dict[str, Any]]] = {}
    for failure in failures:
        key = json.dumps([failure["chunking"]["chunks"], failure.get("actual")], sort_keys=True)
        groups.setdefault(key, []).append(failure)
    runs = "".join(_run(report, group) for group in groups.values())
    return (
        f"<details class='case' id='case-{_e(case_id)}' data-dialect='{_e(dialect)}' "
        f"data-kind='{_e(kind)}' data-level='{_e(' '.join(levels))}' "
        f"data-check='{_e(' '.join(checks))}'>"
        f"<summary><code class='case-id'>{_e(case_id)}</code> <span class='muted'>"
        f"{_e(kind)}</span> {badges}</summary><div class='case-body'>"
        f"<p>Case: {source}</p>{runs}</div></details>"
    )


def _run(report: dict[str, Any], failures: list[dict[str, Any]]) -> str:
    """The failures that share one minimal chunking and one actual result."""
    first = failures[0]
    items = []
    for failure in failures:
        known = ""
        if failure["expected_failure"]:
            reason = failure.get("reason") or "no reason given"
            issue = f" ({failure['issue']})" if failure.get("issue") else ""
            known = f"<div><strong>Known failure:</strong> {_e(reason)}{_e(issue)}</div>"
        fingerprint = failure.get("fingerprint")
        if fingerprint is not None and not isinstance(fingerprint, str):
            fingerprint = json.dumps(fingerprint, ensure_ascii=False, sort_keys=True)
        fingerprint_line = (
            f"<div class='muted'>fingerprint <code>{_e(fingerprint)}</code></div>"
            if fingerprint
            else ""
        )
        items.append(
            f"<li><code>{_e(failure['check'])}</code> <span class='muted'>({_e(failure['level'])}"
            f", {_e(failure['status'])})</span>: {_e(failure['message'])}{known}"
            f"{fingerprint_line}<div>reproduce: <code class='reproduce'>"
            f"{_e(_reproduce(report, failure))}</code></div></li>"
        )
    chunking = first["chunking"]
    described = ", ".join(
        str(part) for part in (chunking.get("family"), chunking.get("tokenizer")) if part
    )
    return (
        f"<div class='run'><ul class='checks'>{''.join(items)}</ul>"
        f"<div class='muted'>minimal chunking ({_e(described)}, "
        f"{_plural(len(chunking['chunks']), 'chunk')}; boxes are chunks, ⏎ a newline):</div>"
        f"{_chunks(chunking['chunks'])}"
        f"{_diff(first.get('expected'), first.get('actual'))}</div>"
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _reproduce(report: dict[str, Any], failure: dict[str, Any]) -> str:
    """The report's own command for the failure, or the one older reports imply."""
    if failure.get("reproduce"):
        return str(failure["reproduce"])
    return shlex.join(
        [
            "toolconform", "certify", "--adapter", report["adapter"],
            "--dialect", failure["dialect"], "--case", failure["case"],
        ]
    )  # fmt: skip


def _visible(text: str) -> str:
    """Escaped text with newlines drawn as ⏎ (followed by the real line break)."""
    return html.escape(text, quote=False).replace("\n", "<span class='ws'>⏎</span>\n")


def _chunks(chunks: list[str]) -> str:
    shown, total = [], 0
    for index, chunk in enumerate(chunks[:MAX_CHUNKS]):
        if total > MAX_TEXT:
            break
        total += len(chunk)
        piece = chunk if len(chunk) <= MAX_TEXT else chunk[:MAX_TEXT] + "…"
        css = "chunk empty" if not chunk else "chunk"
        shown.append(
            f"<span class='{css}' title='chunk {index + 1}: {len(chunk)} characters'>"
            f"{_visible(piece)}</span>"
        )
    more = len(chunks) - len(shown)
    tail = f"<span class='muted'> … {more} more chunks in report.json</span>" if more else ""
    return f"<div class='chunks'>{''.join(shown)}{tail}</div>"


# --------------------------------------------------------------------------- the diff


def _call_lines(calls: list[dict[str, Any]] | None, *, expected: bool) -> str:
    """Calls as text, one per line: ``name {arguments}``, arguments as JSON when they are."""
    lines = []
    for call in calls or ():
        if expected and call.get("arguments_raw") is not None:
            arguments = call["arguments_raw"]
        elif expected:
            arguments = json.dumps(call.get("arguments"), ensure_ascii=False)
        else:
            try:
                arguments = json.dumps(json.loads(call.get("arguments") or ""), ensure_ascii=False)
            except ValueError:
                arguments = call.get("arguments") or ""
        lines.append(f"{call.get('name')} {arguments}")
    return "\n".join(lines)


def _fields(result: dict[str, Any], *, expected: bool) -> dict[str, str | None]:
    return {
        "content": result.get("content") or "",
        "reasoning": result.get("reasoning"),
        "calls": _call_lines(result.get("tool_calls"), expected=expected),
    }


def _closest(expected: list[dict[str, Any]], actual: dict[str, Any] | None) -> dict[str, Any]:
    """The allowed outcome (implementation-defined cases) that differs from ``actual`` least."""
    if actual is None:
        return expected[0]
    mine = _fields(actual, expected=False)

    def distance(outcome: dict[str, Any]) -> int:
        theirs = _fields(outcome, expected=True)
        return sum(theirs[key] != mine[key] for key in mine)

    return min(expected, key=distance)


def _diff(expected: Any, actual: Any) -> str:
    if expected is None and actual is None:
        return ""
    caption = ""
    if isinstance(expected, list):
        if not expected:
            expected = None
        else:
            caption = (
                f"<div class='muted'>the closest of {len(expected)} allowed outcomes</div>"
                if len(expected) > 1
                else ""
            )
            expected = _closest(expected, actual)
    if not isinstance(expected, dict | None) or not isinstance(actual, dict | None):
        return _raw_pair(expected, actual)
    theirs = _fields(expected, expected=True) if expected is not None else None
    mine = _fields(actual, expected=False) if actual is not None else None
    rows = []
    for field in ("content", "reasoning", "calls"):
        want = theirs[field] if theirs is not None else None
        got = mine[field] if mine is not None else None
        if theirs is not None and mine is not None and want == got:
            same = "none" if want is None else "empty" if want == "" else _clip(want)
            rows.append(
                f"<tr class='same'><th>{field}</th><td colspan='2' class='muted'>same: "
                f"<span class='text'>{same if want in (None, '') else _visible(same)}</span>"
                "</td></tr>"
            )
            continue
        left, right = _sides(want, got)
        rows.append(f"<tr class='differs'><th>{field}</th><td>{left}</td><td>{right}</td></tr>")
    absent = " (no result: the parser failed before it gave one)" if actual is None else ""
    return f"{caption}" + scroll(
        "<table class='diff'><tr><th></th><th>expected</th>"
        f"<th>actual{_e(absent)}</th></tr>" + "".join(rows) + "</table>"
    )


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def _sides(want: str | None, got: str | None) -> tuple[str, str]:
    """Both sides of one field, what differs marked (deleted on the left, inserted right)."""
    if want is None or got is None:
        return _side(want), _side(got)
    want, got = _clip(want), _clip(got)
    if len(want) + len(got) > 2 * MAX_CHARACTER_DIFF:
        matcher = difflib.SequenceMatcher(
            None, want.splitlines(keepends=True), got.splitlines(keepends=True), autojunk=False
        )
        a_items, b_items = want.splitlines(keepends=True), got.splitlines(keepends=True)
    else:
        matcher = difflib.SequenceMatcher(None, want, got, autojunk=False)
        a_items, b_items = list(want), list(got)
    left, right = [], []
    for operation, a0, a1, b0, b1 in matcher.get_opcodes():
        a_text, b_text = "".join(a_items[a0:a1]), "".join(b_items[b0:b1])
        if operation == "equal":
            left.append(_visible(a_text))
            right.append(_visible(b_text))
            continue
        if a_text:
            left.append(f"<del>{_visible(a_text)}</del>")
        if b_text:
            right.append(f"<ins>{_visible(b_text)}</ins>")
    return (
        f"<pre class='text'>{''.join(left)}</pre>",
        f"<pre class='text'>{''.join(right)}</pre>",
    )


def _side(text: str | None) -> str:
    if text is None:
        return "<span class='muted'>none</span>"
    return f"<pre class='text'>{_visible(_clip(text))}</pre>"


def _raw_pair(expected: Any, actual: Any) -> str:
    def block(value: Any) -> str:
        return f"<pre>{_e(_clip(json.dumps(value, ensure_ascii=False, indent=1)))}</pre>"

    return scroll(
        "<table class='diff'><tr><th>expected</th><th>actual</th></tr>"
        f"<tr><td>{block(expected)}</td><td>{block(actual)}</td></tr></table>"
    )


def _listed(report: dict[str, Any], key: str, anchor: str, title: str, text: str) -> str:
    """A section listing the expectations-file entries ``report[key]`` (case / check:
    reason), when there are any."""
    entries = report.get(key) or []
    if not entries:
        return ""
    items = "".join(
        f"<li><code>{_e(entry['case'])}</code> / <code>{_e(entry['check'])}</code>"
        + (f": {_e(entry['reason'])}" if entry.get("reason") else "")
        + "</li>"
        for entry in entries
    )
    return f"<h2 id='{anchor}'>{title} ({len(entries)})</h2><p>{text}</p><ul>{items}</ul>"


_STYLE = """
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;position:sticky;top:0;
background:#fff;padding:.5rem 0;border-bottom:1px solid #d0d7de;z-index:1}
.filters select,.filters input{font:inherit;max-width:16rem}
details.section>summary{cursor:pointer}details.section>summary h3{display:inline}
details.case{border-left:4px solid #cf222e;margin:.35rem 0;padding:.1rem .6rem;
background:#fff}
details.section[data-outcome=known] details.case{border-color:#d4a72c}
details.section[data-outcome=informative] details.case{border-color:#8c959f}
details.case>summary{cursor:pointer;overflow-wrap:anywhere}
.badge{display:inline-block;font-size:.75rem;border-radius:1rem;padding:0 .45rem;margin:0 .1rem;
background:#ffebe9}.badge.known{background:#fff8c5}.badge.informative{background:#eaeef2}
.run{border-top:1px dashed #d0d7de;padding:.3rem 0}
.checks{margin:.2rem 0;padding-left:1.2rem}.checks li{overflow-wrap:anywhere}
.chunks{font-family:var(--mono);white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;
font-size:.85rem;margin:.2rem 0}
.chunk{border:1px solid #8c959f;border-radius:3px;padding:0 1px;margin-right:2px;
background:#f6f8fa}.chunk:nth-child(even){background:#ddf4ff}
.chunk.empty{display:inline-block;min-width:.6rem}
.ws{color:#8c959f}
table.diff{width:100%;table-layout:fixed}table.diff td{width:50%}
table.diff th:first-child{width:6rem}
table.diff pre{margin:0;background:none;padding:0}
del{background:#ffcecb;text-decoration:none}ins{background:#aceebb;text-decoration:none}
tr.same td{font-size:.8rem}
#matrix td{white-space:nowrap}#matrix td:first-child code{white-space:nowrap}
"""

# Filters and search: which case entries are visible. State lives in the URL fragment so
# that links (the matrix, the site) open a filtered view.
_SCRIPT = """
(function(){
const form=document.getElementById('filters');if(!form)return;
const selects=[...form.querySelectorAll('select[data-filter]')];
const search=document.getElementById('search');
const cases=[...document.querySelectorAll('details.case')];
const texts=new Map();
function text(c){if(!texts.has(c))texts.set(c,c.textContent.toLowerCase());return texts.get(c);}
function apply(){
  const wanted=selects.map(s=>[s.dataset.filter,s.value]).filter(p=>p[1]);
  const query=search.value.trim().toLowerCase();
  let shown=0;
  for(const c of cases){
    const ok=wanted.every(([k,v])=>(c.dataset[k]||'').split(' ').includes(v))
      &&(!query||text(c).includes(query));
    c.hidden=!ok;if(ok)shown++;
  }
  for(const s of document.querySelectorAll('details.section')){
    s.querySelector('.count').textContent=s.querySelectorAll('details.case:not([hidden])').length;
  }
  document.getElementById('shown').textContent=shown+' of '+cases.length+' cases shown';
  const state=new URLSearchParams();
  for(const [k,v] of wanted)state.set(k,v);
  if(query)state.set('q',query);
  const hash=state.toString();
  if(hash!==location.hash.slice(1))history.replaceState(null,'',hash?'#'+hash:location.pathname);
}
function load(){
  const state=new URLSearchParams(location.hash.slice(1));
  if(![...state.keys()].some(k=>k==='q'||selects.some(s=>s.dataset.filter===k)))return false;
  for(const s of selects){
    const v=state.get(s.dataset.filter)||'';
    if(v&&![...s.options].some(o=>o.value===v))s.add(new Option(v,v));
    s.value=v;
  }
  search.value=state.get('q')||'';
  return true;
}
selects.forEach(s=>s.addEventListener('change',apply));
search.addEventListener('input',apply);
// Clearing resets and re-filters in one step: a 'reset' event fires before the
// fields change, so filtering from it needs a timer, and a reader of the page races it.
// (The button is not named 'reset': a form's named control hides its reset() method.)
document.getElementById('clear').addEventListener('click',()=>{form.reset();apply();});
window.addEventListener('hashchange',()=>{if(load()){apply();
  document.getElementById('failures').scrollIntoView();}});
load();apply();
})();
"""
