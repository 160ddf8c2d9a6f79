"""Generated cases: the strategies' round trips as cases, beside the corpus.

The corpus holds what people thought of; generated cases hold what Hypothesis thinks of —
hostile argument values, unknown names, tool blocks in reasoning, text after blocks — for
every dialect that has a renderer. The reference parser is the oracle: a generated case
expects what the reference parses from the rendered text (and the round-trip tests prove
that equals the generated response).

The draw is **recorded**, not redone on every run: ``corpus/generated.jsonl`` holds, per
dialect and in order, the output and request of every round trip drawn, and a run with
``--generated N`` runs the first ``N`` of each dialect. A live draw was not reproducible:
Hypothesis' draws change with its version (not pinned), and it mixes literals of the
*local* modules loaded so far into them, so the same command drew other cases in a pytest
worker or under another adapter (SGLang's serving adapter drew another third inkling case;
by Hypothesis' rule a non-editable install's modules are not local, so it would differ too)
— and an expectations file, a report's reproduce line or a certificate named cases another
process never ran. ``toolconform corpus draw`` grows the
record (what is recorded stays, so ids in expectations files keep their meaning); the
expectations are computed from the reference at load time, so a fix to the oracle reaches
every generated case without a redraw.

Where the reference reads the text by a rule that is the dialect's choice, not the
contract's, a generated case accepts each reading (``readings``), as the corpus's impl cases
do: a generated case is a must-level claim, and it must not claim more than the corpus does
about the same text.

A generated case's id (``generated/<dialect>/<digest>``) is a digest of its output and
request, so it names the same case whatever else was drawn.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from ..reference import Dialect, ReasoningParser, Request, get_dialect
from .cases import Case, Expectation
from .corpus_build import corpus_root
from .errors import UsageError

#: The record's file name in the corpus folder.
RECORD = "generated.jsonl"
#: How many round trips per dialect the record holds (full mode's default ``--generated``).
RECORDED = 25


def generated_cases(dialect: str, count: int) -> list[Case]:
    """The first ``count`` recorded round trips of ``dialect`` as cases (none without a
    renderer); asking for more than are recorded is a usage error, never a live draw."""
    if count < 1:
        return []
    entries = recorded(corpus_root()).get(dialect, [])
    if not entries:
        from ..strategies import renderer_names

        if dialect not in renderer_names():
            return []
    if count > len(entries):
        raise UsageError(
            f"--generated {count}: {len(entries)} round trips of {dialect} are recorded; "
            f"record more with: toolconform corpus draw --count {count}"
        )
    return [_case(dialect, entry["output"], entry["request"]) for entry in entries[:count]]


@functools.cache
def recorded(root: Path) -> dict[str, list[dict]]:
    """The record under ``root``, by dialect in draw order (empty when there is none)."""
    path = root / RECORD
    if not path.exists():
        return {}
    entries: dict[str, list[dict]] = {}
    # Split on newlines only: outputs hold U+2028 and other characters splitlines() breaks at.
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        entry = json.loads(line)
        if digest_id(entry["dialect"], entry["output"], entry["request"]) != entry["id"]:
            raise UsageError(
                f"{path}:{number}: {entry['id']} does not match its output and request "
                "(edited by hand? redraw with toolconform corpus draw)"
            )
        entries.setdefault(entry["dialect"], []).append(entry)
    return entries


def digest_id(dialect: str, output: str, request: dict) -> str:
    """The case id of a round trip: a digest of its output and request body."""
    digest = hashlib.sha256(
        json.dumps([output, request], sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()[:10]
    return f"generated/{dialect}/{digest}"


def record(root: Path, count: int, dialects: Iterable[str]) -> dict[str, int]:
    """Grow the record under ``root`` to ``count`` distinct round trips per dialect; what is
    recorded stays and keeps its place. Returns how many were added per dialect."""
    entries = {name: list(drawn) for name, drawn in recorded(root).items()}
    added = {}
    for dialect in dialects:
        have = entries.setdefault(dialect, [])
        known = {entry["id"] for entry in have}
        before = len(have)
        examples = count
        while len(have) < count and examples <= 16 * count:
            for output, request in draw(dialect, examples):
                entry_id = digest_id(dialect, output, request)
                if entry_id not in known and len(have) < count:
                    known.add(entry_id)
                    have.append(
                        {"id": entry_id, "dialect": dialect, "output": output, "request": request}
                    )
            examples *= 2
        added[dialect] = len(have) - before
    lines = [
        json.dumps(entry, sort_keys=True, ensure_ascii=False)
        for name in sorted(entries)
        for entry in entries[name]
    ]
    (root / RECORD).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    recorded.cache_clear()
    return added


def draw(dialect: str, examples: int) -> list[tuple[str, dict]]:
    """A derandomized Hypothesis draw of ``examples`` round trips: (output, request body)."""
    from ..strategies import round_trips

    drawn: list[tuple[str, dict]] = []

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(round_trips(dialect))
    def collect(trip) -> None:
        if len(drawn) < examples:
            drawn.append((trip.text, trip.request.to_openai()))

    collect()
    return drawn


def readings(dialect: str, output: str, body: dict) -> tuple[Expectation, ...]:
    """What a correct parser may return for ``output``: the reference's reading first.

    In the dialects whose reference ends reasoning at a tool block (``tool_open_ends_reasoning``:
    vLLM's and SGLang's reading of Kimi K2 and GLM), text after a block that stands inside
    reasoning is content; seed 000's general rule resumes reasoning after the block, as
    LMDeploy does. The corpus accepts both (``kimi_k2/impl/section-inside-reasoning-without-
    think-close`` and the GLM ``impl/…-inside-reasoning…`` cases, level may) and asks for the
    reference's only at level should (``kimi_k2/valid/tool-section-ends-reasoning``), so a
    generated case, level must, accepts the general rule's reading too when it differs.
    Arguments are compared as JSON values: key order is the renderer's, not the contract's.
    """
    spec = get_dialect(dialect)
    request = Request.from_openai(body)
    found = [Expectation.from_result(spec.new_parser(request).parse_complete(output), raw=False)]
    if spec.reasoning_parser is not None and spec.reasoning_parser.tool_open_ends_reasoning:
        general = _resuming(spec).new_parser(request).parse_complete(output)
        if (expectation := Expectation.from_result(general, raw=False)) not in found:
            found.append(expectation)
    return tuple(found)


@functools.cache
def _resuming(spec: Dialect) -> Dialect:
    """``spec`` with seed 000's general rule: reasoning resumes after a tool block."""
    base = spec.reasoning_parser
    assert base is not None
    resumes: type[ReasoningParser] = type(
        base.__name__, (base,), {"tool_open_ends_reasoning": False}
    )
    return replace(spec, reasoning_parser=resumes)


def _case(dialect: str, output: str, body: dict) -> Case:
    expectations = readings(dialect, output, body)
    features: tuple[str, ...] = ("generated",)
    description = "a round trip drawn by toolconform.strategies"
    if len(expectations) > 1:
        features += ("tool-ends-reasoning",)
        description += (
            "; text after a tool block inside reasoning is content (the reference) or "
            "reasoning (seed 000's general rule)"
        )
    return Case(
        id=digest_id(dialect, output, body),
        dialect=dialect,
        kind="valid",
        level="must",
        description=description,
        output=output,
        request=body,
        expectations=expectations,
        features=features,
        source="generated from the renderers and value strategies, the reference parser as oracle",
        provenance={"origin": "generated"},
        origin="generated",
    )
