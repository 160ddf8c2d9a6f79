"""reports/COVERAGE.md: every registered parser name, certified under a dialect or with a
reason — made from the recorded registries, and current."""

from __future__ import annotations

from pathlib import Path

from toolconform.harness.coverage import accounted, render_coverage, unaccounted

REPORTS = Path(__file__).parents[1] / "reports"


def test_the_published_coverage_page_is_current() -> None:
    page = (REPORTS / "COVERAGE.md").read_text(encoding="utf-8")
    assert render_coverage(REPORTS / "certification", REPORTS) == page


def test_a_name_nobody_accounts_for_is_reported() -> None:
    registered = {"tool": ["hermes", "brand_new_parser"], "reasoning": ["qwen3", "hf"]}
    assert unaccounted("vllm", registered) == ["tool:brand_new_parser"]
    entries = {(e.kind, e.name): e for e in accounted("vllm", registered)}
    assert "qwen3" in entries[("reasoning", "qwen3")].dialects
    assert entries[("reasoning", "hf")].reason.startswith("template-driven")
