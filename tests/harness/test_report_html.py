"""The HTML certification report: organised around cases, with diffs, chunk boundaries and
filters, the two numbers in the headline, and the fields newer reports carry."""

from __future__ import annotations

import re

import pytest

from toolconform.harness.report_html import raw_conformance, render_html
from toolconform.harness.symbol_font import SYMBOLS

from ..report_samples import certification_report


def entries(page: str) -> dict[str, str]:
    """case id → the markup of its entry."""
    found = re.findall(r"<details class='case' id='case-([^']+)'(.*?)</details>", page, re.S)
    return dict(found)


def test_one_entry_per_failing_case_with_its_failing_checks_inside() -> None:
    report = certification_report()
    page = render_html(report)
    found = entries(page)
    assert sorted(found) == sorted({f["case"] for f in report["failures"]})
    one_call = found["deepseek_v3/valid/one-call"]
    assert "result.calls" in one_call and "result.content" in one_call
    # Two checks failed on the same chunking and result: shown once, both checks listed.
    assert one_call.count("class='run'") == 1
    assert one_call.count("<li><code>") == 2


def test_the_headline_has_the_raw_conformance_and_the_gate() -> None:
    page = render_html(certification_report())
    headline = page[page.index("class='headline'") : page.index("</div></div></div>")]
    # must-level failures on 2 of the 4 must-level cases that ran; the known one counts
    assert "50 %" in headline and "2 of 4 must-level cases" in headline
    assert "FAIL" in headline and "1 known" in headline and "3 unexpected" in headline


def test_newer_fields_are_shown_as_the_report_gives_them() -> None:
    page = render_html(certification_report(newer=True))
    assert "33.3 %" in page and "2 of 6 must-level cases" in page  # the report's own figure
    assert "0 changed" in page
    assert "<li>3 unexpected failures</li><li>1 stale expectation</li>" in page
    assert "<strong>sandboxed</strong>" in page
    assert "tag-aligned (no faithful tokenizer)" in page and "tokenizer deepseek-v3" in page
    assert "--allow-skips" in page
    assert "toolconform certify --adapter demo:factory --case glm45/invalid/broken" in page
    assert "fp-0005" in page


def test_raw_conformance_prefers_the_reports_own_figure() -> None:
    assert raw_conformance(certification_report())[:2] == (2, 4)
    passed, total, dialects = raw_conformance(certification_report(newer=True))
    assert (passed, total, dialects["qwen3"]) == (2, 6, (1, 3))


def test_expected_and_actual_are_diffed_field_by_field() -> None:
    found = entries(render_html(certification_report()))
    known = found["qwen3/valid/text-after-call"]
    assert "<del> there</del>" in known  # what the parser lost
    assert re.search(r"<tr class='same'><th>calls</th>", known)
    leaked = found["deepseek_v3/valid/one-call"]
    assert "<ins>&lt;｜tool▁calls▁begin｜&gt;" in leaked
    assert '<del>get_weather {"city": "Oslo"}</del>' in leaked


def test_the_closest_allowed_outcome_is_the_one_diffed() -> None:
    impl = entries(render_html(certification_report()))["qwen3/impl/second-think"]
    assert "the closest of 2 allowed outcomes" in impl
    assert "<del>&lt;/think&gt;d</del>" in impl  # against 'b<think>c</think>d', not 'bd'


def test_a_parser_error_has_no_actual_result() -> None:
    broken = entries(render_html(certification_report()))["glm45/invalid/broken"]
    assert "no result: the parser failed before it gave one" in broken
    assert "ValueError: boom" in broken


def test_the_minimal_chunking_shows_every_chunk_boundary() -> None:
    found = entries(render_html(certification_report()))
    assert found["deepseek_v3/valid/one-call"].count("<span class='chunk'") == 2
    assert "⏎</span>\n" in found["deepseek_v3/valid/one-call"]  # newlines made visible
    pieces = found["qwen3/valid/text-after-call"]
    assert pieces.count("<span class='chunk") == 3 and "chunk empty" in pieces


def test_informative_cases_are_folded_away_and_the_rest_open() -> None:
    page = render_html(certification_report())
    sections = dict(
        re.findall(r"<details class='section' data-outcome='(\w+)' id='\w+'( open)?>", page)
    )
    assert sections == {"unexpected": " open", "known": " open", "informative": ""}
    informative = page[page.index("data-outcome='informative'") :]
    assert "generated/qwen3/0" in informative and "qwen3/impl/second-think" in informative


def test_filters_and_search_are_offered_for_what_failed() -> None:
    page = render_html(certification_report())
    for name in ("dialect", "check", "level", "kind"):
        assert f"<select data-filter='{name}'>" in page
    assert (
        "<option>deepseek_v3</option>" in page and "<option>robustness.char-splits</option>" in page
    )
    assert "<option>impl</option>" in page and "<option>may</option>" in page
    assert "id='search'" in page
    entry = re.search(r"<details class='case' id='case-qwen3/impl/second-think'[^>]*>", page)
    assert entry and "data-kind='impl'" in entry[0] and "data-level='may'" in entry[0]


def test_each_corpus_case_links_to_its_file() -> None:
    found = entries(render_html(certification_report()))
    assert re.search(
        r"<a class='case-file' href='https://github\.com/[^']+/corpus/cases/qwen3/valid/text-after-call\.yaml'>",
        found["qwen3/valid/text-after-call"],
    )
    assert "case-file" not in found["generated/qwen3/0"]


def test_todays_content_is_kept() -> None:
    page = render_html(certification_report())
    assert "Tool ids are random" in page  # notes from the implementation
    assert "--tool-call-parser glm45" in page  # how each dialect is served
    assert "qwen3/valid/fixed-long-ago" in page  # stale expectations
    assert "<table id='matrix'>" in page and "href='#dialect=glm45&amp;check=run.no-error'" in page
    assert (
        "<strong>Known failure:</strong> drops text after a block (https://example.org/issues/1)"
        in page
    )


def test_wide_tables_scroll_in_their_own_box() -> None:
    page = render_html(certification_report())
    for table in ("matrix", "dialects"):
        assert f"<div class='scroll'><table id='{table}'>" in page
    assert ".scroll{overflow-x:auto" in page


def test_the_page_is_one_file_with_the_symbol_font_inline() -> None:
    page = render_html(certification_report())
    assert not re.search(r"<(?:link|script|img)[^>]+(?:src|href)=", page)
    assert "@font-face{font-family:'toolconform symbols'" in page
    assert "src:url(data:font/woff;base64," in page


def test_text_from_the_parser_is_escaped_not_markup() -> None:
    report = certification_report()
    report["failures"][0]["message"] = "<![CDATA[docs/guide.md]]> <script>alert(1)</script>"
    page = render_html(report)
    assert "&lt;![CDATA[docs/guide.md]]&gt; &lt;script&gt;" in page
    assert "<script>alert" not in page


def test_huge_outputs_are_cut_in_the_page() -> None:
    report = certification_report()
    report["failures"][2]["chunking"]["chunks"] = ["a" * 10] * 5000
    page = render_html(report)
    assert "more chunks in report.json" in page
    assert len(page) < 600_000


def test_the_bundled_font_covers_every_symbol() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    from importlib import resources

    path = resources.files("toolconform.harness").joinpath("assets", "symbols.woff")
    with resources.as_file(path) as font_file:
        covered = set(ttlib.TTFont(str(font_file)).getBestCmap())
    assert {ord(character) for character in SYMBOLS} <= covered
    assert {ord("ⓘ"), ord("｜"), ord("▁")} <= covered
