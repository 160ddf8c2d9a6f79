"""The catalogue of checks: every invariant of the contract, with a stable id.

Each check has a level (must / should / may), the seed section it comes from, and the
dialects it applies to (a policy per dialect: ``ds2api`` returns unknown names, so the
filtering check does not apply to it). A check looks at one *run* — a case fed to the parser
under one chunking — with the case's expectations and, where it needs an oracle, the
reference parser's run on the same chunks.

The ``fuzz`` tier holds the checks only the fuzzer runs: properties any input must have when
there is no expected result to compare with (nothing invented, nothing half-swallowed).
Certification reports list the other tiers (``CERTIFIED``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..reference import Dialect, Request
from .cases import Case, Expectation, call_differences, differences
from .chunkings import ROBUSTNESS_TIER, Chunking
from .events import CALL_ARGS, CALL_BEGIN, CONTENT, REASONING, REWRITE, Event, FinalResult

MUST, SHOULD, MAY = "must", "should", "may"
_STRENGTH = {MUST: 3, SHOULD: 2, MAY: 1}

OK = "ok"
ERROR = "error"
TIMEOUT = "timeout"
CRASH = "crash"
#: The adapter broke the contract: a wrong-shaped output, a skip after the session opened.
CONTRACT = "contract"
#: The adapter's output was larger than the run's output limit.
LIMIT = "limit"
#: The tier of the checks only the fuzzer runs.
FUZZ_TIER = "fuzz"


@dataclass(frozen=True)
class Check:
    id: str
    level: str
    title: str
    seed: str
    description: str
    #: Which dialects the check applies to.
    applies: Callable[[Dialect], bool] = field(default=lambda dialect: True)
    tier: str = "token"

    def to_json(self) -> dict[str, str]:
        return {
            "id": self.id,
            "level": self.level,
            "title": self.title,
            "seed": self.seed,
            "description": self.description,
            "tier": self.tier,
        }


def _filters(dialect: Dialect) -> bool:
    return dialect.filters_unknown_names


CATALOGUE: tuple[Check, ...] = (
    Check("run.no-error", MUST, "no exception", "000 实现不变量",
          "The parser does not raise on any chunking of any case."),
    Check("run.no-timeout", MUST, "no hang", "000 实现不变量",
          "Every feed and every case finishes within its time limit."),
    Check("run.no-crash", MUST, "no crash", "000 实现不变量",
          "The parser process does not die or print garbage (subprocess adapters)."),
    Check("run.contract", MUST, "output follows the contract", "000 归一化工具调用输出",
          "Every output has the contract's shape (OpenAI deltas: strings where text goes, "
          "integer indices, …), and a case is skipped only when its session opens."),
    Check("run.output-limit", MUST, "output within its bound", "000 实现不变量",
          "No reply of the adapter is larger than the run's output limit (--output-limit)."),
    Check("result.content", MUST, "content is exact", "000 完整响应与流式响应",
          "The coalesced content equals the expected content: nothing lost, nothing added."),
    Check("result.reasoning", MUST, "reasoning is exact", "000 Response Parser",
          "The coalesced reasoning equals the expected reasoning."),
    Check("result.calls", MUST, "calls are exact", "000 归一化工具调用输出",
          "Names and arguments (as JSON values; order and duplicates where the case says "
          "so) equal the expected calls."),
    Check("result.complete-parse", MUST, "streamed = complete", "000 完整响应与流式响应",
          "The streamed result equals the parser's own non-streaming result."),
    Check("result.chunking-invariant", MUST, "independent of chunking", "000 测试与 benchmark",
          "The final result is the same as for the whole response in one chunk."),
    Check("calls.identity-first", MUST, "identity first", "000 调用身份先行",
          "A call's first event carries id, type 'function' and the name."),
    Check("calls.name-once", MUST, "name once", "000 调用身份先行",
          "A call's name is emitted exactly once, never in pieces."),
    Check("calls.dense-indices", MUST, "dense indices", "000 过滤与保留",
          "Call indices are 0, 1, 2 … in output order, after filtering."),
    Check("calls.unknown-filtered", MUST, "unknown names filtered", "000 过滤与保留",
          "No call carries a name the request did not offer.", applies=_filters),
    Check("calls.arguments-object", MUST, "arguments are an object", "000 JSON 工具 payload",
          "In a valid case every call's arguments are a JSON object; no arguments is '{}'."),
    Check("text.no-protocol-leak", MUST, "no protocol text leaks", "000 Response Parser",
          "No protocol tag, whole or partial, appears in content or reasoning."),
    Check("stream.append-only", MUST, "append-only", "000 归一化工具调用输出",
          "Streamed text is never taken back (snapshot adapters)."),
    Check("stream.progressive", SHOULD, "stable text released early", "000 实现不变量",
          "After each chunk, what was emitted lags the oracle by at most the dialect's "
          "longest tag."),
    Check("perf.linear", SHOULD, "linear total work", "000 JSON 工具 payload",
          "Time grows linearly with the output (pathological cases: time ratio bound)."),
    Check("robustness.char-splits", MAY, "arbitrary character splits",
          "000 与 token 边界对齐的标签前缀",
          "The result survives splits that cut tags where no tokenizer does (informative).",
          tier=ROBUSTNESS_TIER),
    Check("fuzz.no-invented-text", MUST, "no text invented", "000 实现不变量",
          "Content and reasoning are subsequences of the model output.", tier=FUZZ_TIER),
    Check("fuzz.no-invented-call", MUST, "no call invented", "000 实现不变量",
          "Every call's name occurs in the model output (literally, or spelt with JSON "
          "escapes or character references).", tier=FUZZ_TIER),
    Check("fuzz.no-half-swallow", MUST, "never half-swallowed", "003 流式筛 (never half-swallow)",
          "An output that yields no call comes back whole as content: a malformed wrapper is "
          "released, never partly eaten (dialects that release malformed blocks).",
          tier=FUZZ_TIER),
)  # fmt: skip

BY_ID = {check.id: check for check in CATALOGUE}
#: The checks a certification runs and its report lists.
CERTIFIED = tuple(check for check in CATALOGUE if check.tier != FUZZ_TIER)
RUN_OUTCOME_CHECK = {
    ERROR: "run.no-error",
    TIMEOUT: "run.no-timeout",
    CRASH: "run.no-crash",
    CONTRACT: "run.contract",
    LIMIT: "run.output-limit",
}


def effective_level(check: Check, case: Case) -> str:
    """A check counts at the weaker of its own level and the case's level."""
    return min(check.level, case.level, key=lambda level: _STRENGTH[level])


@dataclass
class Run:
    """One case fed under one chunking: the events per chunk and how it ended."""

    chunking: Chunking
    chunk_events: list[list[Event]]
    outcome: str = OK
    error: str | None = None
    result: FinalResult | None = None
    complete: FinalResult | None = None
    seconds: float = 0.0
    #: CPU time of this process: what an in-process parser cost, whatever else ran.
    cpu_seconds: float = 0.0
    #: The parser ran out of memory (a resource limit, not a wrong result).
    exhausted: bool = False


@dataclass
class CaseContext:
    """What the checks of one case know besides the run itself."""

    case: Case
    dialect: Dialect
    expectations: tuple[Expectation, ...]
    whole: Run | None = None
    oracle: Callable[[Chunking], Run] | None = None
    allowed_names: frozenset[str] | None = None

    @classmethod
    def build(
        cls, case: Case, dialect: Dialect, expectations: Sequence[Expectation]
    ) -> CaseContext:
        allowed = Request.from_openai(case.request).allowed_tool_names()
        return cls(case, dialect, tuple(expectations), allowed_names=allowed)


def verdicts(run: Run, context: CaseContext) -> dict[str, str | None]:
    """Each applicable check's verdict on one run: ``None`` passes, a string says why not."""
    if run.chunking.tier == ROBUSTNESS_TIER:
        if run.outcome != OK:
            return {"robustness.char-splits": f"{run.outcome}: {run.error}"}
        return {"robustness.char-splits": _best_mismatch(run.result, context.expectations)}
    if run.outcome != OK:
        return {RUN_OUTCOME_CHECK[run.outcome]: run.error or run.outcome}
    out: dict[str, str | None] = {check: None for check in RUN_OUTCOME_CHECK.values()}
    result = run.result
    assert result is not None
    out.update(_result_checks(result, context.expectations))
    if run.complete is not None:
        out["result.complete-parse"] = same_result(result, run.complete, "complete parse")
    whole = context.whole
    if whole is not None and whole is not run and whole.outcome == OK and whole.result:
        out["result.chunking-invariant"] = same_result(
            result, whole.result, "whole-response result"
        )
    events = [event for chunk in run.chunk_events for event in chunk]
    out.update(call_verdicts(events, result, context.dialect, context.allowed_names))
    if context.case.kind == "valid":
        out["calls.arguments-object"] = _arguments_objects(result)
    out["text.no-protocol-leak"] = _leak(result, context)
    out["stream.append-only"] = _append_only(events)
    if context.oracle is not None and out["result.content"] is None:
        out["stream.progressive"] = _progressive(run, context)
    return out


def call_verdicts(
    events: Sequence[Event],
    result: FinalResult,
    dialect: Dialect,
    allowed_names: frozenset[str] | None,
) -> dict[str, str | None]:
    """The call checks that judge a run by itself, with no expected result: identity first,
    name once, dense indices, unknown names filtered (where the dialect filters). The fuzzer
    runs them on every execution."""
    out = {
        "calls.identity-first": _identity_first(events),
        "calls.name-once": _name_once(events),
        "calls.dense-indices": _dense(events),
    }
    if dialect.filters_unknown_names:
        out["calls.unknown-filtered"] = _filtered(result, allowed_names)
    return out


def same_result(result: FinalResult, other: FinalResult, what: str) -> str | None:
    """Why ``result`` differs from ``other`` (arguments as JSON, key order and duplicates
    counting), or ``None`` when they are the same: the judgement of
    ``result.complete-parse`` and ``result.chunking-invariant``."""
    problems = differences(Expectation.from_result(other), result)
    return f"differs from the {what}: " + "; ".join(problems) if problems else None


def leak_tags(dialect: Dialect) -> list[str]:
    """The protocol tags ``text.no-protocol-leak`` looks for: at least two visible
    characters (a one-character tag is ordinary text too)."""
    return [tag for tag in dialect.protocol_tags() if len(tag.strip()) >= 2]


def _best_expectation(result: FinalResult, expectations: Sequence[Expectation]) -> Expectation:
    return min(expectations, key=lambda expectation: len(differences(expectation, result)))


def _best_mismatch(result: FinalResult | None, expectations: Sequence[Expectation]) -> str | None:
    assert result is not None
    problems = differences(_best_expectation(result, expectations), result)
    return "; ".join(problems) if problems else None


def _result_checks(
    result: FinalResult, expectations: Sequence[Expectation]
) -> dict[str, str | None]:
    expectation = _best_expectation(result, expectations)
    content = reasoning = None
    if result.content != expectation.content:
        content = f"content {result.content!r}, expected {expectation.content!r}"
    if (result.reasoning or "") != (expectation.reasoning or ""):
        reasoning = f"reasoning {result.reasoning!r}, expected {expectation.reasoning!r}"
    calls = call_differences(expectation.calls, result.calls)
    return {
        "result.content": content,
        "result.reasoning": reasoning,
        "result.calls": "; ".join(calls) if calls else None,
    }


def _identity_first(events: Sequence[Event]) -> str | None:
    seen: set[int] = set()
    for event in events:
        if event.kind not in (CALL_BEGIN, CALL_ARGS) or event.index in seen:
            continue
        assert event.index is not None
        seen.add(event.index)
        if event.kind != CALL_BEGIN or not event.name or not event.id or event.type != "function":
            return (
                f"call {event.index}: first event is {event.to_json()}, "
                "needs id, type 'function' and name"
            )
    return None


def _name_once(events: Sequence[Event]) -> str | None:
    names: dict[int, list[str]] = {}
    for event in events:
        if event.kind == CALL_BEGIN and event.name:
            names.setdefault(event.index or 0, []).append(event.name)
    for index, pieces in names.items():
        if len(pieces) > 1:
            return f"call {index}: name emitted {len(pieces)} times: {pieces!r}"
    return None


def _dense(events: Sequence[Event]) -> str | None:
    order: list[int] = []
    for event in events:
        if event.kind in (CALL_BEGIN, CALL_ARGS) and event.index not in order:
            order.append(event.index)  # type: ignore[arg-type]
    if order != list(range(len(order))):
        return f"indices in output order are {order}, expected {list(range(len(order)))}"
    return None


def _filtered(result: FinalResult, allowed: frozenset[str] | None) -> str | None:
    if allowed is None:
        return None
    unknown = [call.name for call in result.calls if call.name not in allowed]
    return f"calls to tools the request did not offer: {unknown}" if unknown else None


def _arguments_objects(result: FinalResult) -> str | None:
    for call in result.calls:
        value = call.arguments_value()
        if not isinstance(value, dict):
            return (
                f"call {call.index} ({call.name}): arguments {call.arguments!r} are not an object"
            )
    return None


def _leak(result: FinalResult, context: CaseContext) -> str | None:
    tags = leak_tags(context.dialect)
    if not tags:
        return None
    expectation = _best_expectation(result, context.expectations)
    for field_name, actual, expected in (
        ("content", result.content, expectation.content),
        ("reasoning", result.reasoning or "", expectation.reasoning or ""),
    ):
        if actual == expected:
            continue
        for inserted in _inserted(expected, actual):
            for tag in tags:
                piece = inserted.strip()
                if tag in inserted or (len(piece) >= 2 and piece in tag):
                    return f"{field_name} has protocol text {inserted!r} (from {tag!r})"
    return None


def _inserted(expected: str, actual: str) -> list[str]:
    matcher = difflib.SequenceMatcher(None, expected, actual, autojunk=False)
    return [
        actual[j1:j2] for op, _, _, j1, j2 in matcher.get_opcodes() if op in ("insert", "replace")
    ]


def _append_only(events: Sequence[Event]) -> str | None:
    rewrites = [event.text for event in events if event.kind == REWRITE]
    return f"text already streamed was changed: {rewrites}" if rewrites else None


def _progressive(run: Run, context: CaseContext) -> str | None:
    assert context.oracle is not None
    oracle = context.oracle(run.chunking)
    if oracle.outcome != OK or oracle.result is None or run.result is None:
        return None
    # Where a case allows several outcomes and the parser chose another one than the oracle,
    # their streams release different text: the oracle's pace says nothing about this one.
    if differences(Expectation.from_result(oracle.result), run.result):
        return None
    allowance = max((len(tag) for tag in context.dialect.protocol_tags()), default=0)
    mine = _cumulative(run.chunk_events)
    reference = _cumulative(oracle.chunk_events)
    for position, (got, want) in enumerate(zip(mine, reference, strict=False)):
        for field_name in (CONTENT, REASONING):
            lag = want[field_name] - got[field_name]
            if lag > allowance:
                return (
                    f"after chunk {position} the {field_name} lags the oracle by {lag} characters "
                    f"(allowed {allowance})"
                )
    return None


def _cumulative(chunks: Sequence[Sequence[Event]]) -> list[dict[str, int]]:
    totals = {CONTENT: 0, REASONING: 0}
    out = []
    for events in chunks:
        for event in events:
            if event.kind in totals:
                totals[event.kind] += len(event.text)
        out.append(dict(totals))
    return out
