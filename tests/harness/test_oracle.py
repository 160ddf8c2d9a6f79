"""The oracle's pace: what the reference has released at each boundary of a boundary
source, read off one run over its finest chunking (``checks.Oracle``), is never behind what
it releases fed any chunking of those pieces, and ends where that does — on every corpus
case, on generated responses and on malformed token soups, under every ending.
``stream.progressive`` decides a pass on that pace, so this is the property its verdicts
rest on: a parser within the allowance of the pace is within it of the oracle fed its own
chunks."""

from __future__ import annotations

import zlib
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolconform.harness.adapters import Adapter, load_adapter
from toolconform.harness.adapters.reference import reference_factory
from toolconform.harness.cases import Case, load_cases
from toolconform.harness.checks import OK, Oracle, released
from toolconform.harness.chunkings import (
    ENDINGS,
    ROBUSTNESS_TIER,
    Budget,
    Chunking,
    Ending,
    Piece,
    char_chunkings,
    chunking_model,
    from_cut_positions,
    one_per_piece,
    tag_aligned_source,
    token_chunkings,
)
from toolconform.harness.execution import CaseExecutor, feed_chunking
from toolconform.reference import get_dialect
from toolconform.strategies.renderers import renderer_names
from toolconform.strategies.round_trips import round_trips

from ..reference.test_properties import soups

ORACLE = Adapter.from_factory("reference", reference_factory)
CASES = load_cases()
CASES_BY_ID = {case.id: case for case in CASES}
#: A few chunkings of each family per case (certify's quick budget runs about 35 a source).
BUDGET = Budget(two_way=3, random_groupings=2, search_examples=0, char_splits=0)


def _text(case: Case) -> str:
    if case.scaling is None:
        return case.output
    return case.sized(min(case.scaling.sizes))[0]


def _releases_as_it_reads(dialect: str) -> bool:
    return get_dialect(dialect).response_parser.releases_as_it_reads


RENDERED = [name for name in renderer_names() if _releases_as_it_reads(name)]


def _assert_paced(case: Case, pieces: list[Piece], source, chunkings: list[Chunking]) -> None:
    """The pace read off the pieces is never behind the oracle fed the chunking itself (a
    pass on it is a pass on the chunking), and ends where it does."""
    oracle = Oracle(lambda chunking: feed_chunking(ORACLE, case, chunking))
    oracle.boundaries(one_per_piece(pieces, source))
    for chunking in chunkings:
        fed = feed_chunking(ORACLE, case, chunking)
        assert fed.outcome == OK, (case.id, chunking.family, fed.error)
        paced = oracle.pace(chunking)
        assert paced is not None, (case.id, chunking.family)
        finished, pace = paced
        chunked = released(fed.chunk_events)
        assert len(pace) == len(chunked) and pace[-1] == chunked[-1], (case.id, chunking.family)
        behind = [
            (position, ahead, actual)
            for position, (ahead, actual) in enumerate(zip(pace, chunked, strict=True))
            if any(a < b for a, b in zip(ahead, actual, strict=True))
        ]
        assert not behind, (case.id, chunking.family, chunking.chunks, behind[0])
        assert finished.result == fed.result, (case.id, chunking.family)


@pytest.mark.parametrize(
    "dialect", sorted({case.dialect for case in CASES if _releases_as_it_reads(case.dialect)})
)
def test_the_pace_read_off_the_pieces_is_never_behind_a_chunking_of_them(dialect: str) -> None:
    """Every corpus case of the dialect, cut at every boundary source certify cuts it at
    here (real tokenizers where installed), under every family and ending."""
    sources = chunking_model(dialect, fetch=False).sources()
    for case in CASES:
        if case.dialect != dialect:
            continue
        text = _text(case)
        for source in sources:
            pieces = source.split(text) or [Piece("")]
            seed = zlib.crc32(case.id.encode())
            chunkings = list(token_chunkings(pieces, source, BUDGET, seed, endings=ENDINGS))
            _assert_paced(case, pieces, source, chunkings)


def _case(dialect: str, text: str, request: dict) -> Case:
    template = next(case for case in CASES if case.dialect == dialect and case.scaling is None)
    return replace(template, id="generated/oracle", output=text, request=request)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_the_pace_holds_on_generated_responses_and_token_soups(data: st.DataObject) -> None:
    """Outputs the corpus does not hold: round trips of every rendered dialect and token
    soups (calls among stray tags, a token in ten dropped), cut anywhere between pieces."""
    if data.draw(st.booleans(), label="soup"):
        dialect, text, request = data.draw(soups())
        body = {"tools": request.tools} if request.tools else {}
    else:
        dialect = data.draw(st.sampled_from(RENDERED))
        trip = data.draw(round_trips(dialect))
        text, body = trip.text, {"tools": trip.tools}
    case = _case(dialect, text, body)
    source = tag_aligned_source(dialect)
    pieces = source.split(text) or [Piece("")]
    cuts = data.draw(st.lists(st.integers(1, max(len(pieces) - 1, 1)), unique=True))
    chunking = from_cut_positions(pieces, [c for c in cuts if c < len(pieces)], "drawn", source)
    ending = data.draw(st.sampled_from(ENDINGS if chunking.cuts else (Ending.STEP,)))
    _assert_paced(case, pieces, source, [replace(chunking, ending=ending)])


def test_a_chunking_cut_between_pieces_is_judged_by_the_oracle_on_its_own_chunks() -> None:
    """Cut inside a tag, the reference's pace depends on the cuts (DeepSeek V3.2's open tag
    begins with two newlines; fed one character at a time it releases them as content, fed
    whole it holds them): no pace is read off the pieces for such a chunking."""
    case = _case("deepseek_v32", "\n\n<｜DSML｜function_calls>", {})
    source = tag_aligned_source("deepseek_v32")
    pieces = source.split(case.output)
    oracle = Oracle(lambda chunking: feed_chunking(ORACLE, case, chunking))
    oracle.boundaries(one_per_piece(pieces, source))
    characters = next(iter(char_chunkings(case.output, Budget.for_mode("quick"))))
    assert characters.tier == ROBUSTNESS_TIER and len(characters.chunks) == len(case.output)
    assert oracle.pace(characters) is None
    fed = released(feed_chunking(ORACLE, case, characters).chunk_events)
    assert fed[-2] == (len(case.output), 0, 0)  # all of it released as content…
    assert oracle.pace(one_per_piece(pieces, source))[1][-2] == (0, 0, 0)  # …none of it whole


def test_ds2api_does_not_release_as_it_reads() -> None:
    """Why the ds2api dialect declares it does not: fed one token at a time, its sieve has
    released less of ``If a < b and c >`` than fed the same text in one chunk."""
    case = CASES_BY_ID["ds2api/valid/angle-brackets-in-prose"]
    source = chunking_model("ds2api", fetch=False).sources()[0]
    pieces = source.split(case.output)
    end = case.output.index(">") + 1
    cut = next(i for i in range(len(pieces)) if sum(len(p.text) for p in pieces[:i]) == end)
    oracle = Oracle(lambda chunking: feed_chunking(ORACLE, case, chunking))
    oracle.boundaries(one_per_piece(pieces, source))
    two_way = from_cut_positions(pieces, [cut], "two-way", source)
    chunked = released(feed_chunking(ORACLE, case, two_way).chunk_events)
    assert oracle.pace(two_way)[1][0][0] < chunked[0][0] == end


@pytest.mark.parametrize(
    ("case_id", "paced"),
    [
        ("qwen3/valid/content-then-tool-then-content", True),
        ("ds2api/valid/angle-brackets-in-prose", False),
    ],
)
def test_a_passing_parser_costs_the_oracle_a_run_per_source_and_ending(
    case_id: str, paced: bool
) -> None:
    """The oracle's runs for a case a parser passes: the finest chunking once per boundary
    source and the whole text once per ending — not a run per chunking, as the default
    certify fed it about 60 a case; and for a dialect that does not release as it reads, a
    run per chunking still."""
    case = CASES_BY_ID[case_id]
    executor = CaseExecutor(load_adapter("reference"), robustness=False)
    fed: list[str] = []

    def counted(*args, **kwargs):
        fed.append("run")
        return reference_factory(*args, **kwargs)

    executor._oracle = Adapter.from_factory("reference", counted)
    try:
        result = executor.run(case)
    finally:
        executor.adapter.close()
    assert result.checks["stream.progressive"] == "pass"
    assert result.runs > 20
    per_case = len(executor.sources(case.dialect)) + len(ENDINGS)
    assert (len(fed) <= per_case) == paced, (len(fed), result.runs)
