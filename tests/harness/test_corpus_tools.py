"""``toolconform corpus build`` and its source checks.

The compiled corpus (``corpus/dist``) is what runners in other languages read, so it must be
reproducible byte for byte, and a case file that cannot become a compiled case must be named
with what is wrong, before anything is written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolconform.harness.cli import main
from toolconform.harness.corpus_build import LONE_SURROGATE, build, corpus_root

CASE = """\
description: one call after content
level: must
features: [single-call]
source: seed 000
provenance:
  origin: hand-written
output: "Hi <tool_call>{\\"name\\": \\"get_weather\\", \\"arguments\\": {}}</tool_call>"
expect:
  content: "Hi "
  reasoning: null
  tool_calls:
  - name: get_weather
    arguments: {}
  finish_reason: tool_calls
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A corpus folder with the real schema and tools and one qwen25 case."""
    root = tmp_path / "corpus"
    (root / "cases" / "qwen25" / "valid").mkdir(parents=True)
    shutil.copy(corpus_root() / "case.schema.json", root)
    shutil.copytree(corpus_root() / "tools", root / "tools")
    (root / "cases" / "qwen25" / "valid" / "one-call.yaml").write_text(CASE, encoding="utf-8")
    return root


def test_the_built_in_corpus_builds_to_the_committed_dist_byte_for_byte() -> None:
    jsonl, manifest_text, problems = build()
    assert problems == []
    dist = corpus_root() / "dist"
    assert jsonl == (dist / "cases.jsonl").read_text(encoding="utf-8")
    assert manifest_text == (dist / "manifest.json").read_text(encoding="utf-8")
    assert build()[:2] == (jsonl, manifest_text)


def test_build_writes_dist_and_check_sees_it_up_to_date(corpus: Path, capsys) -> None:
    assert main(["corpus", "build", "--root", str(corpus)]) == 0
    assert '"id":"qwen25/valid/one-call"' in (corpus / "dist" / "cases.jsonl").read_text()
    assert main(["corpus", "build", "--check", "--root", str(corpus)]) == 0
    (corpus / "cases" / "qwen25" / "valid" / "two.yaml").write_text(CASE, encoding="utf-8")
    assert main(["corpus", "build", "--check", "--root", str(corpus)]) == 1
    assert "out of date" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("relative", "text", "problem"),
    [
        ("qwen25/valid/bad.yaml", "output: [unclosed", "not valid YAML"),
        ("nosuch/valid/x.yaml", CASE, "unknown dialect folder 'nosuch'"),
        ("qwen25/weird/x.yaml", CASE, "kind folder 'weird'"),
        ("qwen25/valid/no-level.yaml", CASE.replace("level: must\n", ""), "'level'"),
        (
            "qwen25/valid/surrogate.yaml",
            CASE.replace("  - name: get_weather", '  - name: "\\uD83D"'),
            LONE_SURROGATE,
        ),
    ],
)
def test_a_broken_case_file_is_named_and_nothing_is_written(
    corpus: Path, capsys, relative: str, text: str, problem: str
) -> None:
    path = corpus / "cases" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    assert main(["corpus", "build", "--root", str(corpus)]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert f"corpus/cases/{relative}" in err
    assert " ".join(problem.split()) in err
    assert not (corpus / "dist").exists()
