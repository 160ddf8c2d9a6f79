"""Generated cases: round trips drawn by the strategies, with the reference as oracle."""

from __future__ import annotations

from dataclasses import replace

from toolconform.harness.adapters import load_adapter
from toolconform.harness.cases import Case
from toolconform.harness.chunkings import Chunking
from toolconform.harness.events import Call, FinalResult
from toolconform.harness.execution import CaseExecutor, feed_chunking
from toolconform.harness.generated import generated_cases
from toolconform.reference import Request, get_dialect
from toolconform.strategies.chunking import fixed_size, tag_aligned_boundaries

from . import planted_bugs


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


def test_a_dialect_without_a_renderer_has_no_generated_cases() -> None:
    assert planted_bugs.MultiTokenThink  # registers the unlisted test dialect
    assert generated_cases("test_multitoken_think", 3) == []


def test_the_oracle_is_the_complete_parse_as_a_stream_coalesces_it() -> None:
    """``FinalResult.from_parsed`` speaks the harness's words for the reference's parse: a
    stream of the same text through the reference adapter coalesces to the same result."""
    text = '<think>r</think>a<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>'
    case = Case("t", "qwen3", "valid", "must", "", text, {})
    oracle = FinalResult.from_parsed(
        get_dialect("qwen3").new_parser(Request()).parse_complete(text)
    )
    assert oracle == FinalResult("a", "r", [Call(0, "f", '{"x": 1}', oracle.calls[0].id)])
    tags = get_dialect("qwen3").protocol_tags()
    chunks = tuple(fixed_size(text, 3, tag_aligned_boundaries(text, tags)))
    streamed = feed_chunking(load_adapter("reference"), case, Chunking("chars:3", chunks))
    # The adapter also reports the client's finish reason, which a parse does not have.
    assert streamed.result is not None and streamed.result.finish_reason == "tool_calls"
    assert len(chunks) > 10 and replace(streamed.result, finish_reason=None) == oracle
