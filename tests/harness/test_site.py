"""``toolconform site``: the index of every certification and throughput report found."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from toolconform.harness.bench.report_markdown import headline, headline_exponents
from toolconform.harness.cli import main
from toolconform.harness.scaling import SUPER_LINEAR
from toolconform.harness.site import find_reports, render_index, version_key

from ..report_samples import certification_report, renamed

BENCH = Path(__file__).resolve().parents[2] / "reports" / "bench" / "bench.json"


def write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def published(tmp_path: Path) -> Path:
    """A reports folder: two versions of one engine, another engine, and a bench report."""
    root = tmp_path / "reports"
    older = certification_report(name="demo-engine", version="0.5.9")
    write(root / "certification" / "demo-0.5.9" / "report.json", older)
    write(
        root / "certification" / "demo-0.5.23" / "report.json",
        renamed(older, version="0.5.23", passed=5),
    )
    (root / "certification" / "demo-0.5.23" / "report.html").write_text("<html></html>")
    other = certification_report(name="other-engine", version="2.0", newer=True)
    write(root / "certification" / "other-2.0" / "report.json", other)
    bench = root / "bench" / "bench.json"
    bench.parent.mkdir(parents=True)
    shutil.copyfile(BENCH, bench)
    return root


def test_every_report_under_the_paths_is_found(published: Path) -> None:
    found = find_reports([published / "certification", published / "bench" / "bench.json"])
    assert len(found.certifications) == 3 and len(found.throughputs) == 1
    (published / "stray.json").write_text("{}")
    with pytest.raises(ValueError, match="neither a certification nor a throughput report"):
        find_reports([published / "stray.json"])


def test_versions_sort_in_release_order() -> None:
    assert sorted(["0.5.23", "0.5.9", "0.10.0"], key=version_key) == ["0.5.9", "0.5.23", "0.10.0"]


def test_the_heat_map_shows_raw_conformance_and_links_into_each_report(
    published: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    page = render_index(find_reports([published]), out)
    heatmap = page[page.index("<table id='heatmap'>") : page.index("</table>")]
    rows = re.findall(r"<tr><th class='engine'>.*?</tr>", heatmap)
    assert len(rows) == 3
    newer = next(row for row in rows if "demo-engine 0.5.23" in row)
    assert "83.3 %" in newer  # its own conformance figure: 5 of 6
    assert "href='../reports/certification/demo-0.5.23/report.html#dialect=qwen3'" in newer
    older = next(row for row in rows if "demo-engine 0.5.9" in row)
    assert "50 %" in older  # computed from its failures (2 of 4 must-level), known ones counted
    assert "href='../reports/certification/demo-0.5.9/report.json#dialect=qwen3'" in older
    assert re.search(r"background:hsl\(\d+,75%,82%\)", newer)


def test_an_engines_history_across_versions(published: Path, tmp_path: Path) -> None:
    page = render_index(find_reports([published]), tmp_path / "site")
    history = page[page.index("id='history'") :]
    assert "demo-engine" in history and "other-engine" not in history  # one version only
    assert history.index("<th>0.5.9</th>") < history.index("<th>0.5.23</th>")


def test_throughput_reports_show_their_headline(published: Path, tmp_path: Path) -> None:
    """Each cell is the report's headline figure and its exponent, marked ⚠ where the
    exponent is super-linear and only there (read from the published bench.json, so that a
    regenerated report keeps the test meaningful)."""
    page = render_index(find_reports([published]), tmp_path / "site")
    section = page[page.index("id='throughput'") :]
    data = json.loads(BENCH.read_text(encoding="utf-8"))
    _, _, cells = headline(data)
    exponents = headline_exponents(data)
    slow = max(exponents, key=exponents.get)  # the most super-linear parser and dialect
    assert exponents[slow] > SUPER_LINEAR and cells[slow] != "mismatch"
    assert f"{cells[slow]} · {exponents[slow]:.2f} ⚠" in section
    linear = ("reference", slow[1])
    assert exponents[linear] <= SUPER_LINEAR
    assert f"{cells[linear]} · {exponents[linear]:.2f}</td>" in section
    assert "<code>reference</code>" in section and "<code>noop</code>" in section


def test_the_command_writes_the_site(published: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "site"
    assert main(["site", str(published), "--out", str(out)]) == 0
    assert "3 certification and 1 throughput reports" in capsys.readouterr().out
    assert "raw conformance" in (out / "index.html").read_text(encoding="utf-8").lower()


def test_nothing_to_index_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["site", str(tmp_path), "--out", str(tmp_path / "site")]) == 2
    assert "no report.json or bench.json" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()
    assert main(["site", str(tmp_path / "missing"), "--out", str(tmp_path / "site")]) == 2
