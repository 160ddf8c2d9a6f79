"""reports/COVERAGE.md: every registered parser name, certified under a dialect or with a
reason — made from the recorded registries, and current."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from toolconform.harness.coverage import accounted, render_coverage, unaccounted

REPORTS = Path(__file__).parents[2] / "reports"


def test_the_published_coverage_page_is_current() -> None:
    page = (REPORTS / "COVERAGE.md").read_text(encoding="utf-8")
    assert render_coverage(REPORTS / "certification", REPORTS) == page


def test_a_name_nobody_accounts_for_is_reported() -> None:
    registered = {"tool": ["hermes", "brand_new_parser"], "reasoning": ["qwen3", "hf"]}
    assert unaccounted("vllm", registered) == ["tool:brand_new_parser"]
    entries = {(e.kind, e.name): e for e in accounted("vllm", registered)}
    assert "qwen3" in entries[("reasoning", "qwen3")].dialects
    assert entries[("reasoning", "hf")].reason.startswith("template-driven")


def test_a_binding_the_published_report_has_not_run_is_not_certified(tmp_path) -> None:
    root = tmp_path / "certification"
    shutil.copytree(REPORTS / "certification" / "registries", root / "registries")
    report = json.loads((REPORTS / "certification/sglang-0.5.23/report.json").read_text())
    (root / "sglang-0.5.23").mkdir()
    (root / "sglang-0.5.23/report.json").write_text(json.dumps(report))
    page = render_coverage(root, tmp_path)
    assert "| `mistral` | [mistral (" in page
    # as if mistral were bound after the run
    report["cases"] = [case for case in report["cases"] if case["dialect"] != "mistral"]
    report.get("conformance", {}).get("dialects", {}).pop("mistral", None)
    (root / "sglang-0.5.23/report.json").write_text(json.dumps(report))
    later = render_coverage(root, tmp_path)
    assert "| `mistral` | mistral (bound, not yet run) |" in later

    def certified(text: str) -> int:
        line = next(x for x in text.splitlines() if x.startswith("- SGLang 0.5.23, tool"))
        return int(line.split(": ")[1].split(" of ")[0])

    assert certified(later) == certified(page) - 1
    assert "more bound but not yet in the published report" in later


def test_every_binding_is_on_the_page_with_its_flags_and_tokenizer() -> None:
    """The binding tables are made from the adapters' ``BINDINGS`` (the hand-kept copies in
    docs/engines.md had lost 42 rows): each dialect a row, its flags, the tokenizer the
    adapter feeds, a stand-in said to be one, and why an unserved one is not run."""
    from toolconform.harness.coverage import render_bindings
    from toolconform.harness.engines import vllm

    rows = render_bindings("vllm", {"title": "vLLM", "version": "0.33.0"})
    by_dialect = {row.split(" | ")[0][2:]: row for row in rows if row.startswith("| ")}
    assert set(vllm.BINDINGS) <= set(by_dialect)
    assert (
        "--tool-call-parser qwen3_coder, --reasoning-parser nemotron_v3" in by_dialect["nemotron3"]
    )
    assert "qwen3 (stands in for the model's own" in by_dialect["nemotron3"]
    assert "stands in" not in by_dialect["qwen3"]
    assert f"not run: {vllm.UNSERVED['ernie45']}" in by_dialect["ernie45"]


def test_a_dialect_run_under_a_stand_in_that_cannot_hold_its_ids_certifies_nothing() -> None:
    """hunyuan_a13b's reasoning parser keys on Hunyuan's own token ids: a published report
    that ran it under the Llama 3.1 stand-in shows the stand-in, not vLLM, so neither of its
    names counts as certified, whatever a report holds."""
    registered = {"tool": ["hunyuan_a13b"], "reasoning": ["hunyuan_a13b"]}
    for entry in accounted("vllm", registered):
        assert entry.dialects == ()
        assert "token ids" in entry.reason
