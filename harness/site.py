"""The static report site: one index over every certification and throughput report found.

In the spirit of Bowtie's public report site: a person choosing an engine sees, on one
page, every implementation × dialect as a heat map of the raw must-level conformance (known
failures count as failures: the page compares parsers, not their gates), each cell a link
into that report already filtered to the dialect; each implementation's history across
versions when several of its reports are found; and the throughput reports' headline (µs
per token chunk, × the no-op floor, and the scaling exponent). Like the renderers it reads
the reports' JSON form only (``report.json``, ``bench.json``); links are relative, so the
folder it writes can be published next to the reports.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .bench.report_markdown import FLOOR, headline, headline_exponents
from .html_page import page, scroll
from .report_html import raw_conformance, title
from .report_markdown import percent
from .scaling import SUPER_LINEAR

CERTIFICATION = "report.json"
THROUGHPUT = "bench.json"


@dataclass(frozen=True)
class Found:
    """One report on disk: where it is and its JSON form."""

    path: Path
    data: dict[str, Any]

    def page(self, names: Sequence[str]) -> Path:
        """The report's page for people: the first of ``names`` beside it, else the JSON."""
        return next(
            (self.path.parent / n for n in names if (self.path.parent / n).exists()), self.path
        )


@dataclass(frozen=True)
class Reports:
    certifications: list[Found]
    throughputs: list[Found]


def find_reports(paths: Iterable[Path]) -> Reports:
    """Every certification and throughput report in ``paths`` (files, or folders searched
    recursively); a file that is not a toolconform report raises ``ValueError``."""
    files: set[Path] = set()
    for path in paths:
        if path.is_dir():
            files.update(path.rglob(CERTIFICATION))
            files.update(path.rglob(THROUGHPUT))
        elif path.is_file():
            files.add(path)
        else:
            raise ValueError(f"{path}: no such file or folder")
    certifications, throughputs = [], []
    for file in sorted(files):
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"{file}: not readable JSON ({error})") from None
        if isinstance(data, dict) and "matrix" in data and "cases" in data:
            certifications.append(Found(file, data))
        elif isinstance(data, dict) and "measurements" in data:
            throughputs.append(Found(file, data))
        else:
            raise ValueError(f"{file}: neither a certification nor a throughput report")
    certifications.sort(key=_order)
    return Reports(certifications, throughputs)


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """Versions in release order: ``0.5.9`` before ``0.5.23``."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in _PARTS.findall(version)
    )


_PARTS = re.compile(r"\d+|[A-Za-z]+")


def _order(found: Found) -> tuple[Any, ...]:
    implementation = found.data["implementation"]
    return (
        implementation.get("name", found.data["adapter"]).lower(),
        found.data["adapter"],
        found.data["mode"] != "quick",
        version_key(str(implementation.get("version", ""))),
    )


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def heat(passed: int, total: int) -> str:
    """A cell's background: red at 0 %, yellow half way, green at 100 %."""
    if not total:
        return "#f6f8fa"
    return f"hsl({round(120 * passed / total)},75%,82%)"


def render_index(reports: Reports, out: Path) -> str:
    """The index page; links are relative to ``out``, the folder it is written to."""

    def link(path: Path) -> str:
        return Path(os.path.relpath(path.resolve(), out.resolve())).as_posix()

    body = [
        "<h1>toolconform reports</h1>",
        f"<p>{len(reports.certifications)} certification reports and "
        f"{len(reports.throughputs)} throughput reports. Raw conformance: the cases that "
        "pass every must-level check / the cases run, known failures counted as failures "
        "(the gate against each implementation's expectations file is the report's other "
        "number). Each cell opens the report filtered to its dialect.</p>",
    ]
    if reports.certifications:
        body.append(_matrix(reports.certifications, link))
        body.append(_history(reports.certifications))
    if reports.throughputs:
        body.append("<h2 id='throughput'>Throughput</h2>")
        body += [_throughput(found, link) for found in reports.throughputs]
    return page("toolconform reports", "".join(body), style=_STYLE)


def _matrix(certifications: list[Found], link) -> str:  # type: ignore[no-untyped-def]
    rates = [raw_conformance(found.data) for found in certifications]
    dialects = sorted({d for _, _, per in rates for d in per})
    head = "".join(f"<th class='dialect'>{_e(d)}</th>" for d in dialects)
    rows = []
    for found, (passed, total, per) in zip(certifications, rates, strict=True):
        target = link(found.page(("report.html", "report.md")))
        corpus = found.data["suite"]["corpus"]
        gate = found.data.get("gate") or {"verdict": found.data["verdict"]}
        cells = []
        for dialect in dialects:
            if dialect not in per:
                cells.append("<td class='none'>—</td>")
                continue
            good, cases = per[dialect]
            cells.append(
                f"<td class='rate' style='background:{heat(good, cases)}'>"
                f"<a href='{_e(target)}#dialect={_e(dialect)}' title='{good} of {cases} cases'>"
                f"{percent(good, cases)}</a></td>"
            )
        rows.append(
            f"<tr><th class='engine'><a href='{_e(target)}'>{_e(title(found.data))}</a>"
            f"<div class='muted'><code>{_e(found.data['adapter'])}</code> · "
            f"{_e(found.data['mode'])} · corpus {_e(corpus.get('cases', '?'))} "
            f"(<code>{_e(str(corpus.get('sha256', ''))[:8])}</code>) · "
            f"<a href='{_e(link(found.path))}'>json</a></div></th>"
            f"<td class='rate' style='background:{heat(passed, total)}'>"
            f"<strong>{percent(passed, total)}</strong><div class='muted'>{passed}/{total}"
            f"</div></td><td>{_e(str(gate['verdict']).upper())}</td>{''.join(cells)}</tr>"
        )
    return (
        "<h2 id='conformance'>Raw conformance, implementations × dialects</h2>"
        + scroll(
            "<table id='heatmap'><tr><th>implementation</th><th>all dialects</th><th>gate</th>"
            f"{head}</tr>{''.join(rows)}</table>"
        )
        + "<p class='muted'>— : the implementation has no parser for the dialect (or ran "
        "none of its cases).</p>"
    )


def _history(certifications: list[Found]) -> str:
    """Per implementation (adapter and mode), its raw conformance version after version,
    when more than one version was found."""
    groups: dict[tuple[str, str, str], list[Found]] = defaultdict(list)
    for found in certifications:
        name = found.data["implementation"].get("name", found.data["adapter"])
        groups[(name, found.data["adapter"], found.data["mode"])].append(found)
    parts = []
    for (name, adapter, mode), founds in sorted(groups.items()):
        versions = {str(f.data["implementation"].get("version", "")) for f in founds}
        if len(versions) < 2:
            continue
        founds = sorted(
            founds, key=lambda f: version_key(str(f.data["implementation"].get("version", "")))
        )
        rates = [raw_conformance(f.data) for f in founds]
        dialects = sorted({d for _, _, per in rates for d in per})
        rows = []
        for found, (passed, total, per) in zip(founds, rates, strict=True):
            cells = "".join(
                f"<td class='rate' style='background:{heat(*per[d])}'>{percent(*per[d])}</td>"
                if d in per
                else "<td class='none'>—</td>"
                for d in dialects
            )
            rows.append(
                f"<tr><th>{_e(found.data['implementation'].get('version', ''))}</th>"
                f"<td class='rate' style='background:{heat(passed, total)}'>"
                f"{percent(passed, total)}</td>{cells}</tr>"
            )
        head = "".join(f"<th class='dialect'>{_e(d)}</th>" for d in dialects)
        parts.append(
            f"<h3>{_e(name)} <span class='muted'>(<code>{_e(adapter)}</code>, {_e(mode)})"
            "</span></h3>"
            + scroll(
                f"<table class='history'><tr><th>version</th><th>all dialects</th>{head}</tr>"
                f"{''.join(rows)}</table>"
            )
        )
    if not parts:
        return ""
    return "<h2 id='history'>History across versions</h2>" + "".join(parts)


def _throughput(found: Found, link) -> str:  # type: ignore[no-untyped-def]
    data = found.data
    adapters, dialects, cells = headline(data)
    exponents = headline_exponents(data)
    implementations = data.get("implementations") or {}
    rows = []
    for adapter in adapters:
        info = implementations.get(adapter) or {}
        name = f"{info.get('name', adapter)} {info.get('version', '')}".strip()
        row = []
        for dialect in dialects:
            value = cells.get((adapter, dialect), "·")
            exponent = exponents.get((adapter, dialect))
            slow = exponent is not None and exponent > SUPER_LINEAR and adapter != FLOOR
            note = "" if exponent is None or adapter == FLOOR else f" · {exponent:.2f}"
            row.append(
                f"<td class='{'bad' if slow else ''}'>{_e(value)}{_e(note)}"
                f"{' ⚠' if slow else ''}</td>"
            )
        rows.append(
            f"<tr><th class='engine'><code>{_e(adapter)}</code><div class='muted'>{_e(name)}"
            f"</div></th>{''.join(row)}</tr>"
        )
    target = link(found.page(("report.html", "report.md")))
    head = "".join(f"<th class='dialect'>{_e(d)}</th>" for d in dialects)
    parsers = ", ".join(a for a in adapters if a != FLOOR)
    return (
        f"<h3>{_e(parsers)} <span class='muted'>({_e(data['mode'])} mode, "
        f"{_e(data['started_at'])})</span></h3><p><a href='{_e(target)}'>the report</a> · "
        f"<a href='{_e(link(found.path))}'>json</a></p>"
        "<p class='muted'>µs per chunk at one token per chunk on the long-string workload "
        "(× the no-op floor) · the scaling exponent of time against length (1 = linear; ⚠ "
        "super-linear).</p>"
        + scroll(f"<table class='throughput'><tr><th>parser</th>{head}</tr>{''.join(rows)}</table>")
    )


def write_site(paths: Iterable[Path], out: Path) -> Reports:
    """Find the reports and write ``out/index.html``; returns what was found."""
    from .report import write_report

    paths = list(paths)
    reports = find_reports(paths)
    if not reports.certifications and not reports.throughputs:
        raise ValueError(f"no report.json or bench.json under {', '.join(map(str, paths))}")
    write_report(out, [("index.html", render_index(reports, out))])
    return reports


_STYLE = """
td.rate{text-align:center;white-space:nowrap;font-variant-numeric:tabular-nums}
td.rate a{color:#1f2328;text-decoration:none;display:block}
td.rate a:hover{text-decoration:underline}
td.none{color:#8c959f;text-align:center}
th.engine{text-align:left;min-width:16rem;background:#fff}th.dialect{white-space:nowrap}
table.throughput td{white-space:nowrap}
"""
