"""The summary page over several certification reports (reports/README.md)."""

from __future__ import annotations

from pathlib import Path

from toolconform.harness.cli import main
from toolconform.harness.commands.verify_report import derived_pages
from toolconform.harness.summary import find_reports, render_summary

REPORTS = Path(__file__).resolve().parents[2] / "reports"

CASES = [
    "--case",
    "qwen3/valid/text-after-block",
    "--case",
    "qwen3/valid/single-call-after-content",
]


def certify(capsys, directory: Path, *args: str) -> None:
    main(["certify", "--jobs", "1", "--no-robustness", *CASES, "--report", str(directory), *args])
    capsys.readouterr()


def test_the_page_counts_must_level_passes_per_dialect_and_links_each_report(
    capsys, tmp_path: Path
) -> None:
    root = tmp_path / "certification"
    certify(capsys, root / "reference-1")
    certify(capsys, root / "reference-1" / "full", "--full")
    certify(capsys, root / "buggy-2", "--adapter", "tests.planted_bugs:drops_text_after_block")
    (root / "buggy-2" / "expectations.toml").write_text("")
    reports = find_reports(root)
    assert [entry.directory.name for entry in reports] == ["buggy-2", "reference-1"]
    assert reports[0].full is None and reports[1].full is not None

    assert "FINDINGS.md" not in render_summary(reports, tmp_path)
    (tmp_path / "FINDINGS.md").write_text("# Findings\n")
    page = render_summary(reports, tmp_path)
    assert "[FINDINGS.md](FINDINGS.md)" in page
    matrix = [line for line in page.splitlines() if line.startswith("| [")]
    buggy = next(row for row in matrix if "drops_text_after_block" in row)
    reference = next(row for row in matrix if "reference-1" in row)
    assert buggy.startswith("| [tests.planted_bugs:drops_text_after_block](certification/buggy-2/")
    assert "[1/2](certification/buggy-2/report.md)" in buggy
    assert "[✓ 2/2](certification/reference-1/report.md)" in reference
    assert "[report](certification/reference-1/full/report.md)" in page
    assert "[expectations.toml](certification/buggy-2/expectations.toml)" in page
    assert "| engine | conformance | gate | qwen3 |" in page
    assert "| 50 % (1/2) | fail |" in buggy

    output = tmp_path / "README.md"
    assert main(["report", "summary", str(root), "--out", str(output)]) == 0
    assert output.read_text() == page


def test_every_published_report_page_derives_from_its_report_json() -> None:
    """What `verify-report` checks first, over every published report: a change to how a
    report renders must render the published reports again (the HTML report began to list
    the known failures not judged, and vLLM's unified page, which has two, went stale)."""
    published = sorted((REPORTS / "certification").rglob("report.json"))
    assert len(published) >= 9
    stale = [
        f"{path.parent.relative_to(REPORTS)}/{name}: {problem}"
        for path in published
        for name, problem in derived_pages(path.parent)
        if problem
    ]
    assert not stale, f"render them again from report.json: {stale}"
    assert render_summary(find_reports(REPORTS / "certification"), REPORTS) == (
        REPORTS / "README.md"
    ).read_text(encoding="utf-8")
