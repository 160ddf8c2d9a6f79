"""``toolconform parse --dialect ds2api``: the reference's view of one ds2api output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolconform.harness.cli import main

OUTPUT = (
    "Let me look.\n"
    "<|DSML|tool_calls>\n"
    '  <|DSML|invoke name="read_file">\n'
    '    <|DSML|parameter name="path"><![CDATA[README.MD]]></|DSML|parameter>\n'
    "  </|DSML|invoke>\n"
    "</|DSML|tool_calls>\n"
    "Done."
)


@pytest.mark.parametrize("chunking", ["whole", "chars:1", "aligned:5"])
def test_parse_prints_content_calls_and_finish_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chunking: str
) -> None:
    source = tmp_path / "output.txt"
    source.write_text(OUTPUT, encoding="utf-8")
    assert main(["parse", "--dialect", "ds2api", "--chunking", chunking, str(source)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["content"] == "Let me look.\n\nDone."
    assert [(c["name"], json.loads(c["arguments"])) for c in result["tool_calls"]] == [
        ("read_file", {"path": "README.MD"})
    ]
    assert result["finish_reason"] == "tool_calls"


def test_dialects_lists_ds2api(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dialects"]) == 0
    assert "ds2api" in capsys.readouterr().out
