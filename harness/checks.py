"""The catalogue of checks: every invariant of the contract, with a stable id.

Each check has a level (must / should / may), the seed section it comes from, when it
applies (a policy per dialect: ``ds2api`` returns unknown names, so the filtering check does
not apply to it; arguments must be an object in valid cases) and its verdict: the catalogue
drives the checks, ``verdicts`` is a loop over it. A check looks at one *run* — a case fed
to the parser under one chunking — with the case's expectations and, where it needs an
oracle, the reference parser's run on the same chunks. Runs end in a typed ``Outcome``.

The ``fuzz`` tier holds the checks only the fuzzer runs: properties any input must have when
there is no expected result to compare with (nothing invented, nothing half-swallowed).
Certification reports list the other tiers (``CERTIFIED``). The fuzzer runs the catalogue's
own verdicts where they need no expectation (``SELF_CONTAINED``, ``self_contained_verdicts``).
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..reference import Dialect, FinalResult, Request
from . import json_values
from .cases import Case, Expectation, ExpectedCall, call_differences, differences
from .chunkings import ROBUSTNESS_TIER, TOKEN_TIER, Chunking, Ending, Family
from .events import (
    CALL_ARGS,
    CALL_BEGIN,
    CONTENT,
    FINISH,
    REASONING,
    REWRITE,
    Event,
)
from .json_values import arguments_value

MUST, SHOULD, MAY = "must", "should", "may"
#: The tier of the checks only the fuzzer runs.
FUZZ_TIER = "fuzz"
_STRENGTH = {MUST: 3, SHOULD: 2, MAY: 1}


class Outcome(StrEnum):
    """How one run ended. Bowtie keeps these apart everywhere, and so do we: a result that is
    wrong (judged by the checks), an error the parser raised, a hang, a dead or garbled
    program, output in the wrong shape, output over its bound."""

    OK = "ok"
    ERROR = "error"
    TIMEOUT = "timeout"
    CRASH = "crash"
    #: The adapter broke the contract: a wrong-shaped output, a skip after the session opened.
    CONTRACT = "contract"
    #: The adapter's output was larger than the run's output limit.
    LIMIT = "limit"

    @property
    def check(self) -> str:
        """The check a run that ended this way fails."""
        return RUN_OUTCOME_CHECK[self]

    @property
    def status(self) -> str:
        """The status a failure of such a run has in reports (``fail`` for a wrong result)."""
        return "fail" if self is Outcome.OK else self.value


OK, ERROR, TIMEOUT, CRASH, CONTRACT, LIMIT = (
    Outcome.OK,
    Outcome.ERROR,
    Outcome.TIMEOUT,
    Outcome.CRASH,
    Outcome.CONTRACT,
    Outcome.LIMIT,
)


@dataclass
class Run:
    """One case fed under one chunking: the events per chunk and how it ended."""

    chunking: Chunking
    chunk_events: list[list[Event]]
    outcome: Outcome = OK
    error: str | None = None
    result: FinalResult | None = None
    complete: FinalResult | None = None
    seconds: float = 0.0
    #: CPU time of the parser: its process's, in-process; its program tree's, measured from
    #: outside, for an adapter program (the wall-clock time where that cannot be measured).
    cpu_seconds: float = 0.0
    #: The parser ran out of memory (a resource limit, not a wrong result).
    exhausted: bool = False
    #: The share of the chunks fed when a run stopped at its budget (1.0: all of them).
    progress: float = 1.0


@dataclass
class CaseContext:
    """What the checks of one case know besides the run itself."""

    case: Case
    dialect: Dialect
    expectations: tuple[Expectation, ...]
    whole: Run | None = None
    oracle: Oracle | None = None
    allowed_names: frozenset[str] | None = None
    #: Call index → (name, id) of the calls whose id the output itself writes (Kimi's
    #: ``functions.NAME:IDX``, Mistral's ``[CALL_ID]``), as the reference reads them.
    written_ids: dict[int, tuple[str | None, str]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        case: Case,
        dialect: Dialect,
        expectations: Sequence[Expectation],
        *,
        text: str | None = None,
    ) -> CaseContext:
        """The context of ``case`` run on ``text`` (its output unless given: a pathological
        case's output at one size)."""
        request = Request.from_openai(case.request)
        return cls(
            case,
            dialect,
            tuple(expectations),
            allowed_names=request.allowed_tool_names(),
            written_ids=written_ids(dialect, request, case.output if text is None else text),
        )


def written_ids(dialect: Dialect, request: Request, text: str) -> dict[int, tuple[str | None, str]]:
    """The calls of ``text`` whose id the output writes: the reference's complete parse
    (one parse per case), keeping the ids it read from the text rather than made up."""
    try:
        parsed = dialect.new_parser(request).parse_complete(text)
    except Exception:  # the reference's own failure is corpus validation's to report
        return {}
    return {
        call.index: (call.name, call.id)
        for call in parsed.calls
        if call.id and call.id != f"call_{call.index}" and call.id in text
    }


#: Characters released so far, per channel: content, reasoning, call arguments.
Released = tuple[int, int, int]


class Oracle:
    """The reference parser on one case's text, the pace ``stream.progressive`` holds a
    parser to: how much of each channel it has released after each chunk of a chunking.

    Cut at a boundary source's token boundaries, the reference releases text as soon as the
    text so far makes it stable (``ResponseParser.releases_as_it_reads``), so what it has
    released at a boundary fed one piece at a time is never less than what it has released
    there fed any coarser chunking of the same pieces (tested on every corpus case,
    generated responses and token soups: tests/harness/test_oracle.py). A parser within the
    allowance of that pace is within it of the oracle fed its own chunks; so a pass is read
    off one run over the source's finest chunking (``boundaries``) and one whole run per
    ending — not a run per chunking, as the default certify did for its ~60 chunkings a case
    (a tenth of its time under py-spy). A lag past the allowance, a chunking cut between two
    pieces (a tag cut anywhere, where the pace does depend on the cuts) and a dialect that
    does not release as it reads are judged against the oracle's run on the very same chunks
    (``run``), which a failure then reports: every verdict is the one that run gives.
    """

    def __init__(self, run: Callable[[Chunking], Run]) -> None:
        #: The oracle fed one chunking.
        self.run = run
        self._finest: dict[str | None, Chunking] = {}
        self._released: dict[str | None, dict[int, Released]] = {}
        self._finished: dict[str, Run] = {}

    def boundaries(self, finest: Chunking) -> None:
        """Read the pace of the chunkings of ``finest``'s source (the one its tokenizer
        names) off the oracle's run over ``finest``, one piece per chunk, when first asked."""
        self._finest[finest.tokenizer] = finest

    def pace(self, chunking: Chunking) -> tuple[Run, list[Released]] | None:
        """The oracle's whole run under the chunking's ending, and what it had released
        after each of the chunking's chunks and after the finish; ``None`` where that cannot
        be read off (another source, a cut between two pieces, a run that did not
        complete): then only the oracle's run on the chunking itself says."""
        finest = self._finest.get(chunking.tokenizer)
        if finest is None:
            return None
        released_at = self._released.get(chunking.tokenizer)
        if released_at is None:
            released_at = self._released[chunking.tokenizer] = self._released_at(finest)
        finished = self._finished.get(chunking.ending)
        if finished is None:
            text = "".join(finest.chunks)
            whole = Chunking(Family.WHOLE, (text,), ending=chunking.ending)
            finished = self._finished[chunking.ending] = self.run(whole)
        if finished.outcome != OK or finished.result is None:
            return None
        paced = []
        end = 0
        for chunk in chunking.chunks[: chunking.fed]:
            end += len(chunk)
            at = released_at.get(end)
            if at is None:
                return None
            paced.append(at)
        paced.append(released(finished.chunk_events)[-1])
        return finished, paced

    def _released_at(self, finest: Chunking) -> dict[int, Released]:
        """What the oracle had released at each boundary of ``finest`` (by offset in the
        text); empty when that run did not complete."""
        run = self.run(finest)
        if run.outcome != OK:
            return {}
        ends = itertools.accumulate(len(chunk) for chunk in finest.chunks[: finest.fed])
        return dict(zip(ends, released(run.chunk_events), strict=False))


def released(chunks: Sequence[Sequence[Event]]) -> list[Released]:
    """Characters released so far after each chunk's events: content, reasoning, arguments."""
    content = reasoning = arguments = 0
    out = []
    for events in chunks:
        for event in events:
            if event.kind == CONTENT:
                content += len(event.text)
            elif event.kind == REASONING:
                reasoning += len(event.text)
            elif event.kind == CALL_ARGS:
                arguments += len(event.text)
        out.append((content, reasoning, arguments))
    return out


class Judged:
    """One completed run as the checks see it, with what several of them need computed once:
    the expectation closest to the result, the events in order."""

    def __init__(self, run: Run, context: CaseContext, out: dict[str, str | None]) -> None:
        assert run.result is not None
        self.run = run
        self.context = context
        self.result: FinalResult = run.result
        #: The verdicts given so far (a check may depend on an earlier one's).
        self.out = out
        self._expectation: Expectation | None = None
        self._events: list[Event] | None = None

    @property
    def expectation(self) -> Expectation:
        if self._expectation is None:
            self._expectation = _best_expectation(self.result, self.context.expectations)
        return self._expectation

    @property
    def events(self) -> list[Event]:
        if self._events is None:
            self._events = [event for chunk in self.run.chunk_events for event in chunk]
        return self._events


#: What a check needs to give its verdict on a completed run: ``None`` passes.
Verdict = Callable[[Judged], str | None]


@dataclass(frozen=True)
class Check:
    id: str
    level: str
    title: str
    seed: str
    description: str
    #: The verdict on a completed run; ``None`` for checks judged from how a run ended (the
    #: ``run.*`` outcomes), from timings (``perf.linear``) or in their own tier.
    verdict: Verdict | None = None
    #: Whether the check applies to this run (its dialect's policy, its case's kind …).
    applies: Callable[[Judged], bool] = field(default=lambda judged: True)
    tier: str = "token"
    #: Its failures count at its own level whatever the case's (``effective_level``).
    keeps_level: bool = False

    def to_json(self) -> dict[str, str]:
        return {
            "id": self.id,
            "level": self.level,
            "title": self.title,
            "seed": self.seed,
            "description": self.description,
            "tier": self.tier,
        }


def _content(judged: Judged) -> str | None:
    result, expectation = judged.result, judged.expectation
    if result.content != expectation.content:
        return f"content {result.content!r}, expected {expectation.content!r}"
    return None


def _reasoning(judged: Judged) -> str | None:
    result, expectation = judged.result, judged.expectation
    if (result.reasoning or "") != (expectation.reasoning or ""):
        return f"reasoning {result.reasoning!r}, expected {expectation.reasoning!r}"
    return None


def _calls(judged: Judged) -> str | None:
    problems = call_differences(judged.expectation.calls, judged.result.calls)
    return "; ".join(problems) if problems else None


def _complete_parse(judged: Judged) -> str | None:
    assert judged.run.complete is not None
    return same_result(judged.result, judged.run.complete, "complete parse")


def _chunking_invariant(judged: Judged) -> str | None:
    whole = judged.context.whole
    assert whole is not None and whole.result is not None
    return same_result(judged.result, whole.result, "whole-response result")


#: The check judged by running a case again in a program under a second string-hash seed:
#: a parser that iterates a set answers by the seed its process drew (SGLang 0.5.23's
#: MiniMax-M2 detector orders streamed arguments so), and one fixed seed hides that.
SEED_INVARIANT = "result.seed-invariant"

#: The check of the client-visible finish reason (its failures' fingerprints hash it).
FINISH_REASON = "result.finish-reason"


def _reports_finish_reason(judged: Judged) -> bool:
    """A run cut at ``max_tokens`` (only adapters that model the serving layer declare that
    ending), or one whose adapter reported a finish reason."""
    return judged.run.chunking.ending == Ending.LENGTH or any(
        event.kind == FINISH for event in judged.events
    )


def _finish_reason(judged: Judged) -> str | None:
    """Seed 000 (Response Parser): the finish state rides on the last delta of the last
    chunk, and only a final ``stop`` becomes ``tool_calls``, once a call was emitted — a
    ``length`` cut stays ``length`` so that a client can tell a truncated call from a whole
    one. Consistency with what was streamed is judged here; whether the calls are the right
    ones, by ``result.calls``. A request that names its tool may get ``stop`` (OpenAI's
    answer to a forced function)."""
    run = judged.run
    last = len(run.chunk_events) - 1
    reported = [
        (position, event.text)
        for position, events in enumerate(run.chunk_events)
        for event in events
        if event.kind == FINISH
    ]
    if not reported:
        return "the stream was cut at max_tokens and no finish_reason was reported"
    if len(reported) > 1:
        return f"finish_reason reported {len(reported)} times: {[r for _, r in reported]}"
    position, reason = reported[0]
    if position != last:
        return f"finish_reason {reason!r} at chunk {position}, before the end of the stream"
    if run.chunking.ending == Ending.LENGTH:
        allowed = ("length",)
    elif judged.result.calls:
        named = isinstance(judged.context.case.request.get("tool_choice"), dict)
        allowed = ("tool_calls", "stop") if named else ("tool_calls",)
    else:
        allowed = ("stop",)
    if reason not in allowed:
        why = (
            "the stream was cut at max_tokens"
            if run.chunking.ending == Ending.LENGTH
            else f"the stream stopped with {len(judged.result.calls)} call(s)"
        )
        return f"finish_reason {reason!r}, expected {' or '.join(map(repr, allowed))}: {why}"
    return None


def _has_whole(judged: Judged) -> bool:
    whole = judged.context.whole
    return (
        whole is not None and whole is not judged.run and whole.outcome == OK and bool(whole.result)
    )


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
          "The coalesced content equals the expected content: nothing lost, nothing added.",
          verdict=_content),
    Check("result.reasoning", MUST, "reasoning is exact", "000 Response Parser",
          "The coalesced reasoning equals the expected reasoning.", verdict=_reasoning),
    Check("result.calls", MUST, "calls are exact", "000 归一化工具调用输出",
          "Names and arguments (as JSON values; order and duplicates where the case says "
          "so) equal the expected calls.", verdict=_calls),
    Check("result.complete-parse", MUST, "streamed = complete", "000 完整响应与流式响应",
          "The streamed result equals the parser's own non-streaming result.",
          verdict=_complete_parse, applies=lambda judged: judged.run.complete is not None),
    Check("result.chunking-invariant", MUST, "independent of chunking", "000 测试与 benchmark",
          "The final result is the same as for the whole response in one chunk.",
          verdict=_chunking_invariant, applies=_has_whole),
    Check(SEED_INVARIANT, MUST, "independent of the hash seed", "000 实现不变量",
          "The final result is the same when the adapter program runs under two other "
          "string-hash seeds (PYTHONHASHSEED): the whole response and the output cut in two "
          "near its middle, compared as result.chunking-invariant compares (adapter programs "
          "only)."),
    Check(FINISH_REASON, MUST, "finish reason tells a cut", "000 Response Parser",
          "Where the adapter reports the client's finish_reason (serving layers), it comes once, "
          "with the end of the stream: 'length' when the output was cut at max_tokens, "
          "'tool_calls' after a call, else 'stop'.",
          verdict=_finish_reason, applies=_reports_finish_reason),
    Check("calls.identity-first", MUST, "identity first", "000 调用身份先行",
          "A call's first event carries id, type 'function' and the name.",
          verdict=lambda judged: _identity_first(judged.events)),
    Check("calls.name-once", MUST, "name once", "000 调用身份先行",
          "A call's name is emitted exactly once, never in pieces.",
          verdict=lambda judged: _name_once(judged.events)),
    Check("calls.stable-id", MUST, "one id per call", "000 调用身份先行",
          "Every fragment of a call that carries an id carries the same one (a client "
          "matches fragments, and later the tool's result, by it).",
          verdict=lambda judged: _stable_ids(judged.events)),
    Check("calls.unique-ids", MUST, "ids unique in a response", "000 调用身份先行",
          "No two calls of one response share an id (a client maps each tool result back "
          "to its call by id); an id the output itself writes (Kimi's functions.NAME:IDX, "
          "Mistral's [CALL_ID]) may repeat as often as the output repeats it.",
          verdict=lambda judged: _unique_ids(judged.result, judged.run.chunking.chunks)),
    Check("calls.written-id", SHOULD, "the output's own ids kept", "000 调用身份先行",
          "Where the output writes a call's id (Kimi's functions.NAME:IDX, Mistral's "
          "[CALL_ID]), the call carries that id: the client answers the call under it, and "
          "the model's template writes the tool's result back under it (LMDeploy, the seed's "
          "implementation, passes the raw header on as the id).",
          verdict=lambda judged: _keeps_written_ids(judged.result, judged.context.written_ids),
          applies=lambda judged: bool(judged.context.written_ids)),
    Check("calls.dense-indices", MUST, "dense indices", "000 过滤与保留",
          "Call indices are 0, 1, 2 … in output order, after filtering.",
          verdict=lambda judged: _dense(judged.events)),
    Check("calls.unknown-filtered", MUST, "unknown names filtered", "000 过滤与保留",
          "No call carries a name the request did not offer.",
          verdict=lambda judged: _filtered(judged.result, judged.context.allowed_names),
          applies=lambda judged: judged.context.dialect.filters_unknown_names),
    Check("calls.arguments-object", MUST, "arguments are an object", "000 JSON 工具 payload",
          "A call's arguments are a JSON object (no arguments is '{}'): every call of a valid "
          "case, and in every other kind each call the expected result has whole. Must-level "
          "in every case kind: arguments a client cannot parse break every client.",
          verdict=lambda judged: _arguments_objects(judged),
          keeps_level=True),
    Check("text.no-protocol-leak", MUST, "no protocol text leaks", "000 Response Parser",
          "No protocol tag, whole or partial, appears in content or reasoning, nor a whole "
          "tag in an argument's key or value.",
          verdict=lambda judged: _leak(judged)),
    Check("stream.append-only", MUST, "append-only", "000 归一化工具调用输出",
          "Streamed text is never taken back (snapshot adapters).",
          verdict=lambda judged: _append_only(judged.events)),
    Check("stream.progressive", SHOULD, "stable text released early", "000 实现不变量",
          "After each chunk, what was emitted — text and string argument values — lags the "
          "oracle by at most the dialect's longest tag (arguments: plus a little slack).",
          verdict=lambda judged: _progressive(judged),
          applies=lambda judged: judged.context.oracle is not None
          and judged.out.get("result.content") is None),
    Check("perf.linear", SHOULD, "linear total work", "000 JSON 工具 payload",
          "Time grows linearly with the output: the fitted exponent of time against size over "
          "a ladder of sizes (pathological cases) is at most 1.3."),
    Check("mem.no-leak", SHOULD, "no memory kept across responses", "000 实现不变量",
          "A session keeps nothing once it ends: the adapter program's resident memory does "
          "not grow with the number of responses it parsed (pathological cases)."),
    Check("mem.linear", SHOULD, "peak memory linear in the output", "000 实现不变量",
          "The memory one response takes at its peak, above what the adapter program held "
          "before it, is at most 1 KiB per output character, with a floor of 64 MiB "
          "(pathological cases, at the largest size timed)."),
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
#: The checks whose verdict needs nothing but the run itself (its events, its result, the
#: request's tools): no expected result, no oracle. The fuzzer gives them on every execution.
SELF_CONTAINED = (
    FINISH_REASON,
    "calls.identity-first",
    "calls.name-once",
    "calls.stable-id",
    "calls.unique-ids",
    "calls.dense-indices",
    "calls.unknown-filtered",
    "stream.append-only",
)
RUN_OUTCOME_CHECK = {
    ERROR: "run.no-error",
    TIMEOUT: "run.no-timeout",
    CRASH: "run.no-crash",
    CONTRACT: "run.contract",
    LIMIT: "run.output-limit",
}


def effective_level(check: Check, case: Case) -> str:
    """A check counts at the weaker of its own level and the case's level, unless what it
    guards is never implementation-defined (``keeps_level``)."""
    if check.keeps_level:
        return check.level
    return min(check.level, case.level, key=lambda level: _STRENGTH[level])


def verdicts(run: Run, context: CaseContext) -> dict[str, str | None]:
    """Each applicable check's verdict on one run: ``None`` passes, a string says why not.

    A run that did not complete fails the check of how it ended; a completed one passes
    every ``run.*`` check and gets each catalogue check's verdict, in catalogue order.
    """
    if run.chunking.tier == ROBUSTNESS_TIER:
        if run.outcome != OK:
            return {"robustness.char-splits": f"{run.outcome}: {run.error}"}
        return {"robustness.char-splits": _best_mismatch(run.result, context.expectations)}
    if run.outcome != OK:
        return {Outcome(run.outcome).check: run.error or str(run.outcome)}
    out: dict[str, str | None] = {check: None for check in RUN_OUTCOME_CHECK.values()}
    judged = Judged(run, context, out)
    for check in CATALOGUE:
        if check.verdict is not None and check.tier == TOKEN_TIER and check.applies(judged):
            out[check.id] = check.verdict(judged)
    return out


def self_contained_verdicts(run: Run, context: CaseContext) -> dict[str, str | None]:
    """The ``SELF_CONTAINED`` checks' verdicts on one completed run (those that apply), by
    the catalogue's own verdict functions; ``context`` needs no expectations."""
    judged = Judged(run, context, {})
    out: dict[str, str | None] = {}
    for check_id in SELF_CONTAINED:
        check = BY_ID[check_id]
        assert check.verdict is not None
        if check.applies(judged):
            out[check_id] = check.verdict(judged)
    return out


def _best_expectation(result: FinalResult, expectations: Sequence[Expectation]) -> Expectation:
    return min(expectations, key=lambda expectation: len(differences(expectation, result)))


def _best_mismatch(result: FinalResult | None, expectations: Sequence[Expectation]) -> str | None:
    assert result is not None
    problems = differences(_best_expectation(result, expectations), result)
    return "; ".join(problems) if problems else None


def same_result(result: FinalResult, other: FinalResult, what: str) -> str | None:
    """Why ``result`` differs from ``other`` (arguments as JSON, key order and duplicates
    counting), or ``None`` when they are the same: the judgement of
    ``result.complete-parse`` and ``result.chunking-invariant``, the fuzzer's too."""
    problems = differences(Expectation.from_result(other), result)
    return f"differs from the {what}: " + "; ".join(problems) if problems else None


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


def _arguments_objects(judged: Judged) -> str | None:
    """Every call of a valid case; elsewhere the calls whose counterpart in the closest
    expected result is an object (a call cut inside its arguments is expected as the
    partial text it is, and a case may accept arguments that are a JSON string)."""
    whole = judged.context.case.kind == "valid"
    expected = judged.expectation.calls
    for call in judged.result.calls:
        if not whole and not (
            call.index < len(expected) and _expected_object(expected[call.index])
        ):
            continue
        value = arguments_value(call.arguments)
        if not isinstance(value, dict):
            return (
                f"call {call.index} ({call.name}): arguments {call.arguments!r} are not an object"
            )
    return None


def _expected_object(call: ExpectedCall) -> bool:
    if call.arguments is not None:
        return isinstance(call.arguments, dict)
    return call.arguments_raw is not None and _raw_object(call.arguments_raw)


@functools.lru_cache(maxsize=4096)
def _raw_object(raw: str) -> bool:
    try:
        return isinstance(json.loads(raw), dict)
    except (ValueError, RecursionError):
        return False


def _stable_ids(events: Sequence[Event]) -> str | None:
    ids: dict[int, str] = {}
    for event in events:
        if event.kind != CALL_BEGIN or event.id is None or event.index is None:
            continue
        first = ids.setdefault(event.index, event.id)
        if event.id != first:
            return f"call {event.index}: id {first!r}, then {event.id!r} in a later fragment"
    return None


def _unique_ids(result: FinalResult, chunks: Sequence[str]) -> str | None:
    """Ids a parser makes up must differ. Where the output writes the ids, a parser that
    passes one on as often as the output holds it invents nothing: the repeat is the
    model's (a fuzz input spliced from blocks, or a model that numbers two calls alike)."""
    seen: dict[str, list[int]] = {}
    for call in result.calls:
        if call.id is not None:
            seen.setdefault(call.id, []).append(call.index)
    text: str | None = None
    for call_id, indices in seen.items():
        if len(indices) < 2:
            continue
        if text is None:
            text = "".join(chunks)
        if text.count(call_id) < len(indices):
            return f"calls {indices[0]} and {indices[1]} share the id {call_id!r}"
    return None


def _keeps_written_ids(
    result: FinalResult, written: dict[int, tuple[str | None, str]]
) -> str | None:
    """Each call whose id the output writes carries it. A run whose calls are not the
    reference's (other names, fewer) is judged by ``result.calls``, not here."""
    calls = result.calls
    if any(
        index >= len(calls) or calls[index].name != name for index, (name, _) in written.items()
    ):
        return None
    for index, (name, call_id) in sorted(written.items()):
        got = calls[index].id
        if got != call_id:
            return f"call {index} ({name}) has the id {got!r}; the output writes {call_id!r}"
    return None


def leak_tags(dialect: Dialect) -> list[str]:
    """The protocol tags ``text.no-protocol-leak`` looks for: at least two visible
    characters (a one-character tag is ordinary text too)."""
    return [tag for tag in dialect.protocol_tags() if len(tag.strip()) >= 2]


def _leak(judged: Judged) -> str | None:
    """Protocol text in content or reasoning that the expectation does not hold.

    Linear in the text (a check must not be slower than the parser it judges): the common
    prefix and suffix of expected and actual are set aside, and what remains of the actual
    text must hold no more copies of a tag than what remains of the expected, nor be a piece
    of one.
    """
    tags = leak_tags(judged.context.dialect)
    if not tags:
        return None
    result, expectation = judged.result, judged.expectation
    for field_name, actual, expected in (
        ("content", result.content, expectation.content),
        ("reasoning", result.reasoning or "", expectation.reasoning or ""),
    ):
        if actual == expected:
            continue
        inserted, removed = _difference(expected, actual)
        piece = inserted.strip()
        for tag in tags:
            if inserted.count(tag) > removed.count(tag):
                return f"{field_name} has protocol text {_excerpt(inserted, tag)!r} (from {tag!r})"
            if len(piece) >= 2 and piece in tag and piece not in removed:
                return f"{field_name} has protocol text {inserted!r} (from {tag!r})"
    if len(result.calls) == len(expectation.calls):
        for call, expected_call in zip(result.calls, expectation.calls, strict=True):
            got = "\n".join(_strings(arguments_value(call.arguments)))
            want = "\n".join(_strings(_expected_arguments(expected_call)))
            for tag in tags:
                if got.count(tag) > want.count(tag):
                    return (
                        f"call {call.index} ({call.name}): its arguments hold protocol text "
                        f"{_excerpt(got, tag)!r} (from {tag!r})"
                    )
    return None


def _expected_arguments(call: ExpectedCall) -> Any:
    if call.arguments_raw is not None:
        value = json_values.parse(call.arguments_raw)
        return value.raw if isinstance(value, json_values.NotJson) else value
    return call.arguments


def _strings(value: Any) -> Iterator[str]:
    """Every key and string value in a JSON value (the text itself when it is not JSON)."""
    if isinstance(value, json_values.NotJson):
        yield value.raw
    elif isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _difference(expected: str, actual: str) -> tuple[str, str]:
    """The middle parts of ``actual`` and ``expected`` that differ, their common prefix and
    suffix removed."""
    limit = min(len(expected), len(actual))
    start = 0
    while start < limit and expected[start] == actual[start]:
        start += 1
    end = 0
    while end < limit - start and expected[-1 - end] == actual[-1 - end]:
        end += 1
    return actual[start : len(actual) - end], expected[start : len(expected) - end]


def _excerpt(text: str, tag: str) -> str:
    at = text.find(tag)
    return text[max(0, at - 20) : at + len(tag) + 20]


def _append_only(events: Sequence[Event]) -> str | None:
    rewrites = [event.text for event in events if event.kind == REWRITE]
    return f"text already streamed was changed: {rewrites}" if rewrites else None


#: Characters a string argument may lag the oracle's beyond the longest tag: the parser may
#: hold a value's escape sequence or a key's quoting a little longer than the oracle does.
_ARGUMENT_SLACK = 32


def _progressive(judged: Judged) -> str | None:
    """Stable text and argument values are released early: after every chunk, what the
    parser emitted lags the oracle by at most the dialect's longest tag (arguments: plus a
    little slack, and scaled to the parser's own serialization, which may space JSON
    differently). A parser that holds a value until its close tag, or a whole call until the
    block ends, lags by the value."""
    run, context = judged.run, judged.context
    assert context.oracle is not None
    mine = released(run.chunk_events)
    paced = context.oracle.pace(run.chunking)
    if paced is not None and _lag(run, mine, *paced, context) is None:
        return None
    # A lag past the allowance, or a pace that cannot be read off the text: judged against
    # the oracle fed these very chunks.
    oracle = context.oracle.run(run.chunking)
    return _lag(run, mine, oracle, released(oracle.chunk_events), context)


def _lag(
    run: Run, mine: list[Released], oracle: Run, reference: list[Released], context: CaseContext
) -> str | None:
    """How far the parser's releases ``mine`` lag the oracle's ``reference``, chunk by chunk,
    past the allowance; ``None`` when they do not (or when the two chose other outcomes)."""
    if oracle.outcome != OK or oracle.result is None or run.result is None:
        return None
    # Where a case allows several outcomes and the parser chose another one than the oracle,
    # their streams release different text: the oracle's pace says nothing about this one.
    if differences(Expectation.from_result(oracle.result), run.result):
        return None
    allowance = max((len(tag) for tag in context.dialect.protocol_tags()), default=0)
    scale = (mine[-1][2] / reference[-1][2]) if mine and reference[-1][2] else 1.0
    for position, (got, want) in enumerate(zip(mine, reference, strict=False)):
        for channel, field_name in ((0, CONTENT), (1, REASONING)):
            lag = want[channel] - got[channel]
            if lag > allowance:
                return (
                    f"after chunk {position} the {field_name} lags the oracle by {lag} characters "
                    f"(allowed {allowance})"
                )
        lag = round(want[2] * scale) - got[2]
        if lag > allowance + _ARGUMENT_SLACK:
            return (
                f"after chunk {position} the call arguments lag the oracle by {lag} characters "
                f"(allowed {allowance + _ARGUMENT_SLACK}): values are held, not streamed"
            )
    return None
