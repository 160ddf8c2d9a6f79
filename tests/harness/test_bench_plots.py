"""The throughput report's plots and page: one colour per parser everywhere, no label on
another, sizes read as 1k / 64k / 1M; the HTML is real Markdown, its tables scroll."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from toolconform.harness.bench.plots import duration_label, figures, size_label
from toolconform.harness.bench.report_markdown import render_html, render_markdown

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.colors import to_hex  # noqa: E402

REPORTS = Path(__file__).resolve().parents[2] / "reports" / "bench"


#: The panels of the published report where SGLang's super-linear lines stretch the axes.
CROWDED = {"deepseek_v32", "glm47", "kimi_k2", "qwen25", "qwen3_coder"}


def published(name: str = "bench.json", dialects: set[str] = CROWDED) -> list[dict]:
    measurements = json.loads((REPORTS / name).read_text(encoding="utf-8"))["measurements"]
    return [m for m in measurements if m["dialect"] in dialects]


@pytest.fixture(scope="module")
def drawn():
    made = figures(published())
    yield made
    for figure in made.values():
        matplotlib.pyplot.close(figure)


def test_each_parser_has_one_colour_in_every_panel_and_in_the_legend(drawn) -> None:
    for figure in drawn.values():
        seen: dict[str, set[str]] = {}
        for axis in figure.axes:
            for line in axis.get_lines():
                seen.setdefault(line.get_label(), set()).add(to_hex(line.get_color()))
        assert {"reference", "lmdeploy", "sglang", "noop"} <= set(seen)
        assert all(len(colours) == 1 for colours in seen.values()), seen
        (legend,) = figure.legends
        for handle, text in zip(legend.legend_handles, legend.get_texts(), strict=True):
            assert {to_hex(handle.get_color())} == seen[text.get_text()]


def _texts(figure):
    """Every visible, non-empty text of the figure with its box on the canvas."""
    renderer = figure.canvas.get_renderer()
    texts = [text for legend in figure.legends for text in legend.get_texts()]
    for axis in figure.axes:
        if not axis.axison:
            continue
        texts += [axis.title, axis.xaxis.label, axis.yaxis.label]
        (x0, x1), (y0, y1) = sorted(axis.get_xlim()), sorted(axis.get_ylim())
        texts += [t for t in axis.get_xticklabels() if x0 <= t.get_position()[0] <= x1]
        texts += [t for t in axis.get_yticklabels() if y0 <= t.get_position()[1] <= y1]
    return [
        (text.get_text(), text.get_window_extent(renderer))
        for text in texts
        if text.get_visible() and text.get_text()
    ]


def test_no_label_lands_on_another(drawn) -> None:
    for name, figure in drawn.items():
        figure.canvas.draw()
        texts = _texts(figure)
        assert len(texts) > 40
        for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
            overlap = (
                min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0),
                min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0),
            )
            assert not (overlap[0] > 0.5 and overlap[1] > 0.5), (name, a, b)


def test_sizes_read_as_people_say_them(drawn) -> None:
    assert [size_label(v) for v in (4, 256, 1_000, 64_000, 1_000_000)] == [
        "4", "256", "1k", "64k", "1M",
    ]  # fmt: skip
    assert duration_label(2e-6) == "2 µs" and duration_label(0.02) == "20 ms"
    scaling = drawn["scaling"]
    scaling.canvas.draw()
    labels = [t.get_text() for t in scaling.axes[0].get_xticklabels() if t.get_text()]
    assert labels == ["1k", "8k", "64k"]
    full = figures(published("reference-full/bench.json", {"qwen3"}))["scaling"]
    full.canvas.draw()
    assert [t.get_text() for t in full.axes[0].get_xticklabels() if t.get_text()] == [
        "1k", "8k", "64k", "256k", "1M",
    ]  # fmt: skip
    units = {t.get_text().split()[-1] for t in full.axes[0].get_yticklabels() if t.get_text()}
    assert units <= {"ns", "µs", "ms", "s"}
    matplotlib.pyplot.close(full)


def test_the_html_is_markdown_rendered_with_scrolling_tables(tmp_path: Path) -> None:
    data = json.loads((REPORTS / "bench.json").read_text(encoding="utf-8"))
    plot = tmp_path / "scaling.png"
    plot.write_bytes(b"\x89PNG fake")
    markdown = render_markdown(data, command="toolconform bench --report out", plots=[plot])
    page = render_html(markdown, [plot])
    text = re.sub(r"<[^>]+>", "", page[page.index("<body>") :])
    assert "`" not in text  # code spans are code, not backticks
    assert "<code>toolconform bench --report out</code>" in page
    paragraph = re.search(r"<p>Every measurement first checked.*?</p>", page, re.S)
    assert paragraph and "never timed" in paragraph[0] and "is the floor" in paragraph[0]
    assert page.count("<div class='scroll'><table>") == page.count("<table>") >= 3
    assert 'src="data:image/png;base64,' in page
