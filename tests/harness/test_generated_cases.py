"""Generated cases: round trips drawn by the strategies, with the reference as oracle."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from toolconform.harness.adapters import load_adapter
from toolconform.harness.cases import Case
from toolconform.harness.chunkings import Chunking
from toolconform.harness.cli import main
from toolconform.harness.commands.corpus import _unrecorded
from toolconform.harness.corpus_build import corpus_root
from toolconform.harness.errors import UsageError
from toolconform.harness.execution import CaseExecutor, feed_chunking
from toolconform.harness.generated import RECORD, RECORDED, generated_cases, recorded
from toolconform.reference import FinalResult, Request, ToolCall, get_dialect
from toolconform.strategies.chunking import fixed_size, tag_aligned_boundaries

from .. import planted_bugs


def test_generated_cases_are_the_same_on_every_draw() -> None:
    first, second = generated_cases("qwen3", 4), generated_cases("qwen3", 4)
    assert [(c.id, c.output, c.request, c.expectations) for c in first] == [
        (c.id, c.output, c.request, c.expectations) for c in second
    ]


def test_a_generated_case_id_names_its_content_whatever_else_was_drawn() -> None:
    few, more = generated_cases("qwen3", 2), generated_cases("qwen3", 6)
    by_id = {case.id: case for case in more}
    assert len(by_id) == len(more)  # ids are unique
    assert all(case.id.startswith("generated/qwen3/") for case in more)
    # A larger draw begins with the smaller one; the ids, being digests, agree on it.
    assert [(c.id, c.output) for c in few] == [(c.id, c.output) for c in more[: len(few)]]


_DRAW_IDS = (
    "import json, sys\n"
    "from toolconform.harness.generated import generated_cases\n"
    "print(json.dumps([c.id for c in generated_cases(sys.argv[1], 3)]))\n"
)


def test_generated_cases_do_not_depend_on_what_the_process_loaded() -> None:
    """Hypothesis mixes literals of the local modules loaded so far into its draws, so a live
    draw gave a pytest worker, another adapter or another install other cases than the
    command the expectations were recorded from (stop 24's red CI). Before the record, the
    third qwen25 case was 56d6ebc70e here and a5f8d0d12c after importing certify's modules;
    recorded, it is the same whatever else is loaded."""
    drawn = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", preamble + _DRAW_IDS, "qwen25"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for preamble in ("", "import toolconform.harness.commands.certify\n")
    ]
    assert drawn[0] == drawn[1]
    assert drawn[0] == [entry["id"] for entry in recorded(corpus_root())["qwen25"][:3]]


def test_more_generated_cases_than_are_recorded_is_a_usage_error_not_a_live_draw() -> None:
    with pytest.raises(UsageError, match=f"toolconform corpus draw --count {RECORDED + 1}"):
        generated_cases("qwen3", RECORDED + 1)


def test_every_dialect_with_a_renderer_has_its_generated_cases_recorded(tmp_path: Path) -> None:
    assert _unrecorded(corpus_root()) == []
    lines = (corpus_root() / RECORD).read_text(encoding="utf-8").split("\n")
    (tmp_path / RECORD).write_text(
        "".join(line + "\n" for line in lines if line and '"dialect": "qwen3"' not in line),
        encoding="utf-8",
    )
    (problem,) = _unrecorded(tmp_path)
    assert "0 of 25 round trips of qwen3" in problem and "draw --dialect qwen3" in problem


def test_drawing_more_keeps_what_is_recorded_in_its_place(tmp_path: Path) -> None:
    kept = [
        line
        for line in (corpus_root() / RECORD).read_text(encoding="utf-8").split("\n")
        if '"dialect": "hermes"' in line
    ][:2]
    (tmp_path / RECORD).write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    assert (
        main(["corpus", "draw", "--root", str(tmp_path), "--dialect", "hermes", "--count", "5"])
        == 0
    )
    grown = (tmp_path / RECORD).read_text(encoding="utf-8").split("\n")[:-1]
    assert grown[:2] == kept and len(grown) == 5
    assert len({json.loads(line)["id"] for line in grown}) == 5  # distinct round trips


def test_a_hand_edited_record_entry_is_refused(tmp_path: Path) -> None:
    entry = json.loads((corpus_root() / RECORD).read_text(encoding="utf-8").split("\n")[0])
    entry["output"] += " "
    (tmp_path / RECORD).write_text(json.dumps(entry) + "\n", encoding="utf-8")
    with pytest.raises(UsageError, match="does not match its output and request"):
        recorded(tmp_path)


def test_the_reference_passes_its_generated_cases_and_a_planted_bug_does_not() -> None:
    cases = generated_cases("qwen25", 12)
    reference = CaseExecutor(load_adapter("reference"), robustness=False)
    assert all(not reference.run(case).failures for case in cases)
    buggy = CaseExecutor(
        load_adapter("tests.planted_bugs:empty_string_arguments"), robustness=False
    )
    no_argument_calls = [
        case
        for case in cases
        if any(call.arguments == {} for e in case.expectations for call in e.calls)
    ]
    assert no_argument_calls  # the draw includes calls without arguments
    for case in no_argument_calls:
        assert any(f.check == "calls.arguments-object" for f in buggy.run(case).failures)


@pytest.mark.parametrize("dialect", ["kimi_k2", "glm47"])
def test_a_generated_case_accepts_each_reading_the_corpus_accepts(dialect: str) -> None:
    """Text after a tool block inside reasoning is content to the reference (vLLM's and
    SGLang's reading) and reasoning under seed 000's general rule (LMDeploy's); the corpus
    accepts both at level may. Generated cases asserted the reference's alone at level must,
    so LMDeploy's full mode failed twelve must checks on six such cases (stop 35)."""
    two = [case for case in generated_cases(dialect, RECORDED) if len(case.expectations) == 2]
    assert two and "tool-ends-reasoning" in two[0].features
    general = CaseExecutor(
        load_adapter("tests.planted_bugs:resumes_reasoning_after_block"), robustness=False
    )
    reference = CaseExecutor(load_adapter("reference"), robustness=False)
    drops = CaseExecutor(
        load_adapter("tests.planted_bugs:drops_text_after_block"), robustness=False
    )
    for case in two:
        oracle, resumed = case.expectations
        assert oracle.content and not resumed.content  # the readings differ where they should
        assert resumed.reasoning.endswith(oracle.content) and oracle.calls == resumed.calls
        assert reference.run(case).failures == []
        assert general.run(case).failures == []
        # Asked for the reference's reading alone, the general rule fails: the case tells.
        only_oracle = replace(case, expectations=(oracle,))
        assert {"result.content", "result.reasoning"} <= {
            f.check for f in general.run(only_oracle).failures
        }
        # A reading neither rule gives still fails.
        assert "result.content" in {f.check for f in drops.run(case).failures}
    # Where the readings agree, one expectation: the quick mode's first three cases.
    assert all(len(case.expectations) == 1 for case in generated_cases(dialect, 3))


def test_a_dialect_without_a_renderer_has_no_generated_cases() -> None:
    assert planted_bugs.MultiTokenThink  # registers the unlisted test dialect
    assert generated_cases("test_multitoken_think", 3) == []


def test_the_oracle_is_the_complete_parse_as_a_stream_coalesces_it() -> None:
    """The reference's complete parse and a stream of the same text through the reference
    adapter, coalesced from its events, are one result type and equal."""
    text = '<think>r</think>a<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>'
    case = Case("t", "qwen3", "valid", "must", "", text, {})
    oracle = get_dialect("qwen3").new_parser(Request()).parse_complete(text)
    assert oracle == FinalResult("a", "r", [ToolCall(0, oracle.calls[0].id, "f", '{"x": 1}')])
    tags = get_dialect("qwen3").protocol_tags()
    chunks = tuple(fixed_size(text, 3, tag_aligned_boundaries(text, tags)))
    streamed = feed_chunking(load_adapter("reference"), case, Chunking("chars:3", chunks))
    # The adapter also reports the client's finish reason, which a parse does not have.
    assert streamed.result is not None and streamed.result.finish_reason == "tool_calls"
    assert len(chunks) > 10 and replace(streamed.result, finish_reason=None) == oracle
