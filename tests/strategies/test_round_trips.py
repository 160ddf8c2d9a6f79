"""Render generated calls → tokenize → stream-decode → reference parse = the generated calls.

Written over ``dialect_names()``: a dialect added later is covered as soon as it has a
renderer (and, for the real-tokenizer test, a faithful tokenizer family); until then its
case is skipped with the reason.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

from toolconform.reference import dialect_names, get_dialect
from toolconform.strategies import (
    RoundTrip,
    as_result,
    engine_chunkings,
    groupings,
    renderer_names,
    round_trips,
    stream_parse,
)
from toolconform.strategies.chunking import cut, tag_aligned_boundaries

#: A share of the profile's examples per case: there are many dialect × family cases.
EXAMPLES = max(10, settings.default.max_examples // 2)
DIALECT_FAMILIES = [
    (dialect, family)
    for dialect in dialect_names()
    for family in get_dialect(dialect).tokenizer_families
]


def require_renderer(dialect: str) -> None:
    if dialect not in renderer_names():
        pytest.skip(
            f"dialect {dialect!r} has no renderer yet: add strategies/renderers/<module>.py "
            "(see toolconform.strategies.renderers)"
        )


def check_chunkings(
    case: RoundTrip, pieces: list[str], drawn: list[str], *, exhaustive: bool
) -> None:
    """Whole, one piece per chunk, seeded random groups and the drawn grouping; with
    ``exhaustive`` also every two-way split (quadratic: for token pieces, not characters)."""
    note(f"text={case.text!r}")
    note(f"pieces={pieces!r}")
    chunkings = [
        (label, chunks)
        for label, chunks in engine_chunkings(pieces, seed=len(pieces))
        if exhaustive or not label.startswith("two-way")
    ]
    chunkings.append(("drawn grouping", drawn))
    for label, chunks in chunkings:
        result = as_result(stream_parse(case.dialect, chunks, case.request))
        assert result == case.expected, f"{label}: {chunks!r}"


@pytest.mark.parametrize(
    ("dialect", "family"), DIALECT_FAMILIES, ids=[f"{d}-{f}" for d, f in DIALECT_FAMILIES]
)
def test_round_trip_through_the_real_tokenizer(dialect: str, family: str) -> None:
    pytest.importorskip("tokenizers")
    from toolconform.strategies import skip_special_tokens_for, token_pieces
    from toolconform.strategies.tokenizers import get_family

    require_renderer(dialect)
    if get_family(family).approximate:
        pytest.skip(f"tokenizer family {family!r} is approximate; round trips use faithful ones")
    skip_special_tokens_for(dialect, family)  # loads the family once, outside the examples

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(round_trips(dialect), st.data())
    def round_trip(case, data) -> None:
        assume(unicodedata.is_normalized("NFC", case.text))
        pieces = token_pieces(dialect, family, case.text)
        assert "".join(pieces) == case.text
        drawn = data.draw(groupings(pieces), label="grouping")
        check_chunkings(case, pieces, drawn, exhaustive=True)

    round_trip()


@pytest.mark.parametrize("dialect", dialect_names())
def test_round_trip_at_tag_aligned_boundaries(dialect: str) -> None:
    """Without a tokenizer: every character boundary except inside tags (declared prefixes
    apart); covers dialects with no faithful family (InternLM)."""
    require_renderer(dialect)
    tags = get_dialect(dialect).protocol_tags()

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(round_trips(dialect), st.data())
    def round_trip(case, data) -> None:
        pieces = cut(case.text, tag_aligned_boundaries(case.text, tags))
        drawn = data.draw(groupings(pieces), label="grouping")
        check_chunkings(case, pieces, drawn, exhaustive=False)

    round_trip()


def test_a_request_survives_its_openai_body() -> None:
    """Generated cases, bench workloads and ``parse`` hand a drawn request to adapters as its
    OpenAI body: reading the body back gives the same request (thinking, template arguments
    and a named tool choice included), so an adapter parses what the oracle parsed."""
    from toolconform.reference import Request

    tools = [{"type": "function", "function": {"name": "get_weather"}}]
    named = {"type": "function", "function": {"name": "get_weather"}}

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(
        st.builds(
            Request,
            tools=st.none() | st.just(tools) | st.just([]),
            tool_choice=st.sampled_from(["auto", "required", "none", named]),
            thinking=st.none() | st.booleans(),
            chat_template_kwargs=st.dictionaries(
                st.sampled_from(["enable_thinking", "reasoning_effort"]), st.booleans() | st.text()
            ),
        )
    )
    def survives(request: Request) -> None:
        again = Request.from_openai(request.to_openai())
        assert (again.tools, again.tool_choice, again.chat_template_kwargs) == (
            request.tools, request.tool_choice, request.chat_template_kwargs
        )  # fmt: skip
        if request.thinking is not None:
            assert again.thinking == request.thinking

    survives()
