"""The certification report, the throughput report and the site, in a real browser.

Headless Chromium (Debian's ``chromium``; ``tox -e browser`` installs it when missing) driven
by Playwright: no page scrolls sideways, the filters and the search box change which cases
are visible, a heat-map cell opens its report filtered to its dialect, and the marker
characters (``ⓘ``, DeepSeek's ``｜`` and ``▁``) are drawn with real glyphs, never the
``.notdef`` box. Screenshots are kept as artifacts in ``$TOOLCONFORM_SCREENSHOTS`` (the
README's pictures in ``docs/img/`` are made this way).

Without Chromium or Playwright the tests are skipped, saying which is missing, unless
``TOOLCONFORM_BROWSER_REQUIRED`` is set (the ``browser`` tox environment sets it): there a
missing browser is a failure, not a silent skip.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolconform.harness.report import write_report
from toolconform.harness.report_html import render_html
from toolconform.harness.site import write_site

from ..report_samples import certification_report

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
#: As this machine's notes say: no GPU, no network besides the registries, a fresh profile.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MARKERS = "ⓘ｜▁"


def _chromium() -> str | None:
    return os.environ.get("TOOLCONFORM_CHROMIUM") or shutil.which("chromium")


def _unavailable() -> str | None:
    if _chromium() is None:
        return "no Chromium here (apt-get install chromium, or tox -e browser, which does it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install 'toolconform[browser]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator:
    reason = _unavailable()
    if reason:
        if os.environ.get("TOOLCONFORM_BROWSER_REQUIRED"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=_chromium(), args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    folder = os.environ.get("TOOLCONFORM_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """The published reports, each certification re-rendered by today's renderer, and the
    site over them: the site links to each report's page beside its JSON."""
    root = tmp_path_factory.mktemp("published")
    for report in sorted((REPORTS / "certification").rglob("report.json")):
        target = root / "certification" / report.parent.relative_to(REPORTS / "certification")
        data = json.loads(report.read_text(encoding="utf-8"))
        # written as certify writes it (a parser's lone surrogate as its escape)
        write_report(
            target,
            [("report.json", None), ("report.html", render_html(data))],
            binary_from=report.parent,
        )
    shutil.copytree(REPORTS / "bench", root / "bench", ignore=shutil.ignore_patterns("*.svg"))
    write_site([root / "certification", root / "bench"], root / "site")
    return root


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "report.html"
    path.write_text(render_html(certification_report(newer=True)), encoding="utf-8")
    return path


def shown(page) -> list[str]:
    """The ids of the case entries the filters leave visible."""
    return page.eval_on_selector_all(
        "details.case:not([hidden])", "entries => entries.map(e => e.id.slice(5))"
    )


def test_filters_and_search_change_what_is_visible(page, sample: Path) -> None:
    page.goto(sample.as_uri())
    everything = shown(page)
    assert len(everything) == 5
    page.select_option("select[data-filter=dialect]", "qwen3")
    assert set(shown(page)) == {
        "qwen3/valid/text-after-call", "qwen3/impl/second-think", "generated/qwen3/0",
    }  # fmt: skip
    assert page.inner_text("#shown") == "3 of 5 cases shown"
    assert not page.is_visible("details.case[data-dialect=deepseek_v3]")
    page.select_option("select[data-filter=kind]", "impl")
    assert shown(page) == ["qwen3/impl/second-think"]
    page.click("#clear")
    page.fill("#search", "valueerror: boom")
    assert shown(page) == ["glm45/invalid/broken"]
    assert "q=valueerror" in page.url  # the state is in the address
    page.fill("#search", "")
    page.select_option("select[data-filter=check]", "result.calls")
    page.select_option("select[data-filter=level]", "must")
    assert shown(page) == ["deepseek_v3/valid/one-call"]
    page.click("#clear")
    assert shown(page) == everything


def test_informative_cases_are_folded_away(page, sample: Path) -> None:
    page.goto(sample.as_uri())
    assert page.is_visible("details.case[id='case-glm45/invalid/broken'] > summary")
    assert not page.is_visible("details.case[id='case-generated/qwen3/0'] > summary")
    page.click("details#informative > summary")
    assert page.is_visible("details.case[id='case-generated/qwen3/0'] > summary")


def test_a_matrix_cell_and_an_address_filter_the_cases(page, sample: Path) -> None:
    page.goto(sample.as_uri() + "#check=result.content")
    assert set(shown(page)) == {
        "deepseek_v3/valid/one-call", "qwen3/valid/text-after-call", "qwen3/impl/second-think",
    }  # fmt: skip
    page.click("#matrix a[href='#dialect=glm45&check=run.no-error']")
    assert shown(page) == ["glm45/invalid/broken"]
    assert page.input_value("select[data-filter=dialect]") == "glm45"


_NOTDEF = """
async (selector) => {
  await document.fonts.ready;
  const canvas = document.createElement("canvas");
  canvas.width = 80; canvas.height = 80;
  const context = canvas.getContext("2d", {willReadFrequently: true});
  const draw = (character, family) => {
    context.clearRect(0, 0, 80, 80);
    context.font = `48px ${family}`;
    context.textBaseline = "top";
    context.fillText(character, 8, 8);
    return context.getImageData(0, 0, 80, 80).data;
  };
  const same = (a, b) => a.every((value, index) => value === b[index]);
  const results = [];
  for (const element of document.querySelectorAll(selector)) {
    const family = getComputedStyle(element).fontFamily;
    await document.fonts.load(`48px ${family}`, element.textContent);
    const missing = draw("\\u0378", family);  // unassigned: what .notdef looks like here
    for (const character of new Set(element.textContent)) {
      if (!"MARKERS".includes(character)) continue;
      const drawn = draw(character, family);
      results.push({character, family, inked: drawn.some(v => v !== 0), notdef: same(drawn, missing)});
    }
  }
  return results;
}
""".replace("MARKERS", MARKERS)


def test_the_markers_render_with_real_glyphs(page, sample: Path) -> None:
    page.goto(sample.as_uri())
    page.click("details.case[id='case-deepseek_v3/valid/one-call'] > summary")
    results = page.evaluate(_NOTDEF, ".chunk, #matrix td, .checks li, pre.text")
    characters = {result["character"] for result in results}
    assert set(MARKERS) <= characters
    for result in results:
        assert result["inked"] and not result["notdef"], result
    loaded = page.evaluate(
        "[...document.fonts].filter(f => f.family.includes('toolconform symbols'))"
        ".map(f => f.status)"
    )
    assert loaded == ["loaded"]  # the bundled subset, not only a system font


@pytest.mark.parametrize("width", [1400, 900])
@pytest.mark.parametrize(
    "which", ["certification/sglang-0.5.23/report.html", "bench/report.html", "site/index.html"]
)
def test_no_page_scrolls_sideways(browser, published: Path, which: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto((published / which).as_uri())
    page.eval_on_selector_all("details", "all => all.forEach(d => d.open = true)")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # what is wider than the page scrolls inside its own box
    for box in page.query_selector_all(".scroll"):
        assert box.evaluate("b => b.getBoundingClientRect().right") <= width
    context.close()


def test_the_bench_report_reads_right(page, published: Path) -> None:
    page.goto((published / "bench" / "report.html").as_uri())
    assert "`" not in page.inner_text("body")
    sizes = page.eval_on_selector_all("img", "images => images.map(i => i.naturalWidth)")
    assert len(sizes) == 2 and all(size > 500 for size in sizes)
    paragraph = page.inner_text("p:has-text('Every measurement first checked')")
    assert "is the floor" in paragraph


def test_a_heat_map_cell_opens_its_report_filtered(page, published: Path) -> None:
    page.goto((published / "site" / "index.html").as_uri())
    cell = page.locator("#heatmap a[href*='sglang-0.5.23/report.html#dialect=deepseek_v32']")
    cell.click()
    page.wait_for_url("**/sglang-0.5.23/report.html#dialect=deepseek_v32")
    assert page.input_value("select[data-filter=dialect]") == "deepseek_v32"
    dialects = page.eval_on_selector_all(
        "details.case:not([hidden])", "all => [...new Set(all.map(e => e.dataset.dialect))]"
    )
    assert dialects == ["deepseek_v32"]


def test_screenshots_are_kept(browser, published: Path, screenshots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    page.goto((published / "certification" / "sglang-0.5.23" / "report.html").as_uri())
    page.select_option("select[data-filter=dialect]", "deepseek_v3")
    page.click("details.case[id='case-deepseek_v3/invalid/empty-section'] > summary")
    page.locator("#failures").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('failures').scrollIntoView()")
    page.screenshot(path=screenshots / "report.png")
    page.goto((published / "site" / "index.html").as_uri())
    page.screenshot(path=screenshots / "site.png", full_page=True)
    page.goto((published / "bench" / "report.html").as_uri())
    page.screenshot(path=screenshots / "bench.png")
    context.close()
    for name in ("report.png", "site.png", "bench.png"):
        assert (screenshots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
