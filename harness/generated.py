"""Generated cases: the strategies' round trips as cases, beside the corpus.

The corpus holds what people thought of; generated cases hold what Hypothesis thinks of —
hostile argument values, unknown names, tool blocks in reasoning, text after blocks — for
every dialect that has a renderer. The reference parser is the oracle: a generated case
expects what the reference parses from the rendered text (and the round-trip tests prove
that equals the generated response). Drawing is derandomized, so a run with the same count
and the same Hypothesis version draws the same cases — from the same command: Hypothesis
mixes literals of the *local* modules loaded so far into its draws (an editable install's
toolconform modules are local), so a process that imported other modules first, such as a
pytest worker, may draw others. A generated case's id
(``generated/<dialect>/<digest>``) is a digest of its output and request, so it names the
same case whatever else was drawn — a report's reproduce line, or an expectations entry,
means exactly that case.
"""

from __future__ import annotations

import hashlib
import json

from hypothesis import HealthCheck, given, settings

from ..reference import get_dialect
from .cases import Case, Expectation
from .events import FinalResult


def generated_cases(dialect: str, count: int) -> list[Case]:
    """``count`` round-trip cases of ``dialect``, always the same ones (none without a renderer)."""
    from ..strategies import renderer_names, round_trips

    if count < 1 or dialect not in renderer_names():
        return []
    drawn = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(round_trips(dialect))
    def collect(trip) -> None:
        if len(drawn) < count:
            drawn.append(trip)

    collect()
    cases = {}
    for trip in drawn:  # two equal draws are one case
        case = _case(dialect, trip)
        cases.setdefault(case.id, case)
    return list(cases.values())


def _case(dialect: str, trip) -> Case:
    parsed = get_dialect(dialect).new_parser(trip.request).parse_complete(trip.text)
    result = FinalResult.from_parsed(parsed)
    body = trip.request.to_openai()
    digest = hashlib.sha256(
        json.dumps([trip.text, body], sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()[:10]
    return Case(
        id=f"generated/{dialect}/{digest}",
        dialect=dialect,
        kind="valid",
        level="must",
        description="a round trip drawn by toolconform.strategies",
        output=trip.text,
        request=body,
        # Arguments compared as JSON values: key order is the renderer's, not the contract's.
        expectations=(Expectation.from_result(result, raw=False),),
        features=("generated",),
        source="generated from the renderers and value strategies, the reference parser as oracle",
        provenance={"origin": "generated"},
        origin="generated",
    )
