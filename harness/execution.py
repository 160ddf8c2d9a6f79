"""Running one case: every chunking, every check, a search, and minimal reproducers.

For each boundary source of the dialect the case is fed under the deterministic chunkings
(whole, two-way splits, one piece per chunk, random groupings), then a Hypothesis search over
subsets of boundaries looks for a failing chunking and shrinks it. Each failure is kept with
the chunking of fewest chunks that shows it, shrunk further by removing cuts while the same
check still fails — so a report always shows a minimal reproducer. Arbitrary character
splits run last, in the robustness tier.
"""

from __future__ import annotations

import contextlib
import signal
import time
import traceback
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from ..reference import get_dialect
from ..reference.types import FinalResult
from . import scaling
from .adapters import Adapter, AdapterCrash, AdapterError, SessionSkipped
from .adapters.limit import FeedLimit, FeedTimeout
from .adapters.reference import reference_factory
from .adapters.subprocess import (
    ImplementationError,
    OutputLimitExceeded,
    ProtocolCrash,
    SubprocessFactory,
    other_hash_seeds,
)
from .cases import Case, Expectation
from .checks import (
    BY_ID,
    CONTRACT,
    CRASH,
    ERROR,
    LIMIT,
    MUST,
    OK,
    RUN_OUTCOME_CHECK,
    SEED_INVARIANT,
    TIMEOUT,
    CaseContext,
    Oracle,
    Outcome,
    Run,
    effective_level,
    same_result,
    verdicts,
)
from .chunkings import (
    TOKEN_TIER,
    BoundarySource,
    Budget,
    Chunking,
    ChunkingModel,
    Ending,
    Family,
    Piece,
    char_chunkings,
    chunking_model,
    family_of,
    from_cut_positions,
    labelled,
    one_per_piece,
    token_chunkings,
)
from .events import (
    AdapterOutputError,
    Normalizer,
    Snapshot,
    coalesce,
    events_from_snapshots,
)

#: Wall-clock seconds a timed run may take per CPU second it is allowed, at least.
_WALL_PER_CPU = 3.0
#: The most runs one ladder measurement repeats to reach ``scaling.NOISE_FLOOR``.
_REPEAT_MAX = 100
#: mem.no-leak: responses parsed (the first warms the program up), and the growth of its
#: resident memory allowed per response: bytes per output character, and at least a floor.
#: A garbage-collected runtime (V8, the JVM) grows its heap for a while and then levels off,
#: so a growth over the allowance is judged again on the latest runs, up to _LEAK_RUNS_MAX
#: responses: only a growth that lasts is a leak.
_LEAK_RUNS = 7
_LEAK_RUNS_MAX = 35
_LEAK_PER_CHARACTER = 16
_LEAK_FLOOR = 128 * 2**10
#: mem.linear: the peak memory one response may take above what the program held before it,
#: in bytes per output character, and at least a floor (a runtime's own allocations).
_PEAK_PER_CHARACTER = 1024
_PEAK_FLOOR = 64 * 2**20
#: Per-feed seconds assumed for a reply deadline when no per-feed limit is set, and the
#: seconds a reply may take beyond the program's own limits before it counts as a hang.
_DEFAULT_FEED_TIMEOUT = 10.0
_REPLY_SLACK = 5.0
#: Runs spent at most on shrinking one failure.
_SHRINK_BUDGET = 150
_OVER_BUDGET = "the run took longer than its budget of"


#: ``CaseResult.skip_kind``: the adapter does not declare the dialect (not counted as run);
#: the expectations file declares it or a feature unsupported; the adapter refused a case.
UNSUPPORTED, DECLARED, ADAPTER = "unsupported", "declared", "adapter"


class _LadderBroken(Exception):
    """A timed run did not complete (an error, a crash, a hang): there is nothing to time,
    and the size it broke at is one the correctness checks have not seen."""

    def __init__(self, run: Run, size: int) -> None:
        super().__init__(run.error)
        self.run = run
        self.size = size


class _LateSkip(Exception):
    """A session that skipped after it was opened: a contract violation, not a skip."""


@dataclass
class Failure:
    """One check failed on one case: the minimal chunking that shows it, and why."""

    case: str
    dialect: str
    check: str
    level: str
    status: str  # fail | error | timeout | crash
    message: str
    chunking: Chunking
    expected: Any = None
    actual: Any = None
    expected_failure: bool = False
    #: Why the implementation fails it, and its bug report (from the expectations file).
    reason: str = ""
    issue: str = ""
    #: What the failure is (``expectations.fingerprint``), set when the run is classified.
    fingerprint: str = ""
    #: A known (case, check) that now fails differently: the fingerprint the entry recorded.
    changed_from: str = ""
    #: One shell command that reproduces the failure, set when the report is made.
    reproduce: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Failure:
        """A failure as a report recorded it (its classification is redone by the reader)."""
        chunking = data["chunking"]
        return cls(
            case=data["case"],
            dialect=data["dialect"],
            check=data["check"],
            level=data["level"],
            status=data["status"],
            message=data["message"],
            chunking=Chunking(
                chunking["family"],
                tuple(chunking["chunks"]),
                None,
                chunking["tier"],
                chunking.get("tokenizer"),
                chunking.get("ending", Ending.STEP),
            ),
            expected=data.get("expected"),
            actual=data.get("actual"),
            reproduce=data.get("reproduce", ""),
        )

    def to_json(self) -> dict[str, Any]:
        known = {"reason": self.reason, "issue": self.issue} if self.expected_failure else {}
        if self.changed_from:
            known = {"changed_from": self.changed_from, "reason": self.reason}
        return {
            "case": self.case,
            "dialect": self.dialect,
            "check": self.check,
            "level": self.level,
            "status": self.status,
            "message": self.message,
            "chunking": self.chunking.to_json(),
            "expected": self.expected,
            "actual": self.actual,
            "expected_failure": self.expected_failure,
            "fingerprint": self.fingerprint,
            "reproduce": self.reproduce,
            **known,
        }


@dataclass
class CaseResult:
    """All that one case produced: per check pass / fail, the failures, the effort."""

    case: str
    dialect: str
    kind: str
    level: str
    checks: dict[str, str] = field(default_factory=dict)  # check id → pass | fail
    failures: list[Failure] = field(default_factory=list)
    skipped: str | None = None
    #: Who skipped it: ``declared`` (the expectations file declares the dialect or a
    #: feature unsupported) or ``adapter`` (the adapter refused a dialect it supports).
    skip_kind: str | None = None
    runs: int = 0
    seconds: float = 0.0

    def fail(
        self,
        case: Case,
        check: str,
        message: str,
        chunking: Chunking,
        *,
        status: str = "fail",
        expected: Any = None,
        actual: Any = None,
    ) -> None:
        """Record ``check`` as failed, with its one failure, at the level it counts at in
        ``case``: the failures judged outside the chunking runs (measurements of timed runs,
        a worker lost) are built here."""
        self.checks[check] = "fail"
        self.failures.append(
            Failure(
                case=case.id,
                dialect=case.dialect,
                check=check,
                level=effective_level(BY_ID[check], case),
                status=status,
                message=message,
                chunking=chunking,
                expected=expected,
                actual=actual,
            )
        )

    def never_judged(self, check: str) -> bool:
        """Whether ``check`` went unjudged because a run of the case hung, crashed or broke
        first (a ``run.*`` check failed and the case stopped there): a known failure of it
        did not pass, and is not stale."""
        return check not in self.checks and any(
            self.checks.get(outcome) == "fail" for outcome in RUN_OUTCOME_CHECK.values()
        )


@contextmanager
def feed_limit(seconds: float | None) -> Iterator[None]:
    """Raise ``FeedTimeout`` in this (main) thread when the block has used ``seconds`` of
    CPU, or waited three times that (``FeedLimit``: the adapter host's limit, per block)."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    with FeedLimit(seconds) as limit:
        limit.since = time.perf_counter_ns()
        yield


def feed_chunking(
    adapter: Adapter,
    case: Case,
    chunking: Chunking,
    *,
    feed_timeout: float | None = None,
    budget: float | None = None,
    timed: bool = False,
    repeat: int = 1,
) -> Run:
    """Feed one chunking to a fresh session; record the events and how it ended.

    ``budget`` bounds the whole run in seconds (checked between feeds): past it the run
    stops as a timeout. An adapter program that offers ``run`` gets the whole chunking in one
    request (its own per-feed limit and budget); with ``timed`` its CPU time is read from
    outside (``Run.cpu_seconds``; otherwise that is the wall-clock time of the run).
    ``repeat`` (a program that offers ``run``: ``batches_runs``) runs it that many times in
    the one request, within the one budget; the outputs are the last run's.
    """
    factory = adapter.factory
    if batches_runs(adapter):
        assert isinstance(factory, SubprocessFactory)
        return _feed_remote(adapter, factory, case, chunking, feed_timeout, budget, timed, repeat)
    assert repeat == 1, "only an adapter program that offers run repeats a chunking"
    events: list[list[Any]] = []
    run = Run(chunking, events)
    start = time.perf_counter()
    cpu_start = time.process_time()
    try:
        with feed_limit(feed_timeout):
            try:
                session = adapter.open(case.dialect, case.request, chunking.tokenizer)
            except LookupError as error:
                if type(error) is not LookupError:  # a KeyError inside the parser is a bug
                    raise
                raise SessionSkipped(str(error)) from None
        fed = chunking.fed
        for position, chunk in enumerate(chunking.chunks[:fed]):
            if budget is not None and time.perf_counter() - start > budget:
                run.progress = position / max(len(chunking.chunks), 1)
                raise FeedTimeout(f"{_OVER_BUDGET} {budget:.1f} s")
            ids = chunking.token_ids[position] if chunking.token_ids is not None else None
            with feed_limit(feed_timeout):
                try:
                    events.append(session.feed(chunk, ids))
                except SessionSkipped:
                    raise _LateSkip from None
        with feed_limit(feed_timeout):
            try:
                if fed < len(chunking.chunks):  # the last chunk comes with the end
                    ids = chunking.token_ids[-1] if chunking.token_ids is not None else None
                    events.append(
                        session.finish(
                            chunking.chunks[-1], ids, finish_reason=chunking.finish_reason
                        )
                    )
                else:
                    events.append(session.finish())
            except SessionSkipped:
                raise _LateSkip from None
    except SessionSkipped:
        raise
    except _LateSkip:
        run.outcome = CONTRACT
        run.error = (
            f"the adapter skipped the case at chunk {len(events)}: a case may be skipped "
            "only when its session is opened"
        )
    except AdapterOutputError as error:
        run.outcome, run.error = CONTRACT, f"{error} (chunk {len(events)})"
    except FeedTimeout as error:
        run.outcome, run.error = TIMEOUT, f"{error} (chunk {len(events)})"
    except OutputLimitExceeded as error:
        run.outcome, run.error = LIMIT, str(error)
    except AdapterCrash as error:
        run.outcome, run.error = CRASH, str(error)
    except ImplementationError as error:
        run.outcome, run.error = ERROR, f"{error} (chunk {len(events)})"
    except MemoryError:
        run.outcome, run.error = ERROR, f"MemoryError at chunk {len(events)}"
        run.exhausted = True
    except Exception as error:  # the parser under test raised: that is its result
        run.outcome, run.error = ERROR, _describe(error, len(events))
    run.seconds = time.perf_counter() - start
    run.cpu_seconds = time.process_time() - cpu_start
    if run.outcome == OK:
        run.result = coalesce(events)
    return run


def batches_runs(adapter: Adapter) -> bool:
    """Whether the adapter is a program that takes a whole chunking, repeated, per request."""
    factory = adapter.factory
    return isinstance(factory, SubprocessFactory) and bool(factory.capabilities.get("run"))


#: What a ``run`` result's error kind means for the run.
_REMOTE_OUTCOMES = {
    "raised": ERROR,
    "timeout": TIMEOUT,
    "budget": TIMEOUT,
    "memory": ERROR,
    "contract": CONTRACT,
}


def _feed_remote(
    adapter: Adapter,
    factory: SubprocessFactory,
    case: Case,
    chunking: Chunking,
    feed_timeout: float | None,
    budget: float | None,
    timed: bool,
    repeat: int = 1,
) -> Run:
    events: list[list[Any]] = []
    run = Run(chunking, events)
    payload: dict[str, Any] = {"chunks": list(chunking.chunks)}
    if chunking.ending != Ending.STEP:
        payload["ending"] = chunking.ending
    if chunking.token_ids is not None:
        payload["token_ids"] = [list(ids) for ids in chunking.token_ids]
    per_feed = feed_timeout or _DEFAULT_FEED_TIMEOUT
    timeout = per_feed * (len(chunking.chunks) + 2) + _REPLY_SLACK
    if budget is not None:
        timeout = min(timeout, budget + per_feed + _REPLY_SLACK)
    cpu_before = factory.cpu_seconds() if timed else None
    start = time.perf_counter()
    result: dict[str, Any] = {}
    try:
        (result,) = factory.run_batch(
            case.dialect,
            case.request,
            [payload],
            repeat=repeat,
            tokenizer_family=chunking.tokenizer,
            feed_timeout=feed_timeout,
            budget=budget,
            timeout=timeout,
            outputs=not timed,  # a timed run is judged by its time alone
        )
    except SessionSkipped:
        raise
    except OutputLimitExceeded as error:
        run.outcome, run.error = LIMIT, str(error)
    except ProtocolCrash as error:
        timed_out = str(error).startswith("no reply within")
        run.outcome, run.error = (TIMEOUT if timed_out else CRASH), str(error)
    except AdapterCrash as error:
        run.outcome, run.error = CRASH, str(error)
    except ImplementationError as error:
        run.outcome, run.error = ERROR, str(error)
    except AdapterOutputError as error:
        run.outcome, run.error = CONTRACT, str(error)
    run.seconds = time.perf_counter() - start
    cpu_after = factory.cpu_seconds() if timed else None
    measured = cpu_before is not None and cpu_after is not None and cpu_after >= cpu_before
    run.cpu_seconds = cpu_after - cpu_before if measured else run.seconds  # type: ignore[operator]
    if run.outcome != OK:
        return run
    outputs = result.get("chunks") if isinstance(result, dict) else None
    error = result.get("error") if isinstance(result, dict) else None
    normalizer = Normalizer(snapshots=adapter.output_mode == "snapshots")
    # A timed run is judged by its time alone (its output was checked at the same size or
    # the smallest): it asked for the count of its outputs, and a program that sends them
    # anyway has them counted, not normalized (that would only compete with the parser).
    produced = len(outputs) if isinstance(outputs, list) else outputs
    try:
        if not (isinstance(outputs, list) or (timed and type(outputs) is int and outputs >= 0)):
            raise AdapterOutputError(f"a run result needs its chunks' outputs, got {result!r:.120}")
        for output in outputs if not timed else ():
            events.append(normalizer.events(output))
    except AdapterOutputError as problem:
        run.outcome, run.error = CONTRACT, f"{problem} (chunk {len(events)})"
        return run
    if error is not None:
        kind = error.get("kind") if isinstance(error, dict) else None
        message = error.get("message", error) if isinstance(error, dict) else error
        run.outcome = _REMOTE_OUTCOMES.get(str(kind), ERROR)
        if kind == "budget":
            message = f"{_OVER_BUDGET} {budget:.1f} s"
            # The share of all the repetitions done: those before the last, and its part.
            done = int(result.get("repetitions", 1)) - 1 if repeat > 1 else 0
            run.progress = (done + produced / max(len(chunking.chunks), 1)) / repeat
        run.error = f"{message} (chunk {produced})"
        run.exhausted = kind == "memory"
    elif produced != chunking.fed + 1:
        run.outcome = CONTRACT
        run.error = f"a run result with {produced} outputs for {chunking.fed} fed chunks and finish"
    if run.outcome == OK and not timed:
        run.result = coalesce(events)
    return run


def _describe(error: BaseException, chunk: int) -> str:
    where = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    location = f" at {where[0].filename}:{where[0].lineno}" if where else ""
    return f"{type(error).__name__}: {error} (chunk {chunk}{location})"


def complete_result(adapter: Adapter, case: Case, text: str) -> tuple[FinalResult | None, str]:
    """The adapter's own non-streaming result, when it has one (its errors count as none),
    and a contract problem with its shape, if any."""
    try:
        factory = adapter.factory
        if isinstance(factory, SubprocessFactory):
            if not factory.capabilities.get("parse"):
                return None, ""
            message = factory.call(
                "parse",
                {"dialect": case.dialect, "request": case.request, "text": text},
                "parse_response",
            ).get("message")
        else:
            message = adapter.open(case.dialect, case.request).parse(text)
    except Exception:
        return None, ""
    if message is None:
        return None, ""
    try:
        snapshot = Snapshot.from_json(message)
    except AdapterOutputError as problem:
        return None, f"the non-streaming result: {problem}"
    return coalesce([events_from_snapshots(Snapshot(), snapshot)]), ""


def ladder_sizes(case: Case, mode: str) -> list[int]:
    """The sizes a pathological case is timed at: the ladder between its own two sizes, and
    in full mode continued (each twice the last) until the output is at least
    ``scaling.FULL_CHARACTERS`` long — the fitted exponent then covers the sizes where a
    super-linear term dominates a parser's per-character cost."""
    assert case.scaling is not None
    sizes = scaling.ladder(*case.scaling.sizes)
    if mode == "full":
        while case.characters_at(sizes[-1]) < scaling.FULL_CHARACTERS:
            sizes.append(sizes[-1] * scaling.STEP)
    return sizes


class CaseExecutor:
    """Runs cases against one adapter (inside a worker process, or in-process for pytest)."""

    def __init__(
        self,
        adapter: Adapter,
        *,
        mode: str = "quick",
        feed_timeout: float | None = 10.0,
        robustness: bool = True,
        families: frozenset[Family] | None = None,
        chunking_models: Iterable[ChunkingModel] = (),
        on_progress: Callable[[CaseResult], None] | None = None,
        reseed: bool = False,
    ) -> None:
        self.adapter = adapter
        #: Judge ``result.seed-invariant``: an adapter program's parser is run again in one
        #: program per other string-hash seed, started when first needed and stopped by
        #: ``close`` (an in-process parser has the harness's seed: not judged).
        self.reseed = reseed and isinstance(adapter.factory, SubprocessFactory)
        self._reseeded: dict[str, Adapter] = {}
        #: Receives a pathological case's result so far between its stages (after the
        #: smallest size with the memory check, after the ladder): a worker sends it to the
        #: parent, so that a case killed at its wall-clock limit keeps what they found.
        self.on_progress = on_progress
        #: dialect → its chunking model as the run decided it (else decided here, lazily).
        self.chunking_models = {model.dialect: model for model in chunking_models}
        self.mode = mode
        self.feed_timeout = feed_timeout
        #: Chunking families to run; ``None`` runs them all.
        self.families = families
        self.robustness = robustness and (families is None or Family.CHARS in families)
        self._oracle = Adapter.from_factory("reference", reference_factory)

    def close(self) -> None:
        """Stop the programs under other hash seeds (the adapter is its owner's to close)."""
        for adapter in self._reseeded.values():
            adapter.close()
        self._reseeded.clear()

    def run(self, case: Case) -> CaseResult:
        start = time.perf_counter()
        result = CaseResult(case.id, case.dialect, case.kind, case.level)
        if not self.adapter.supports(case.dialect):
            result.skipped = f"the adapter does not support dialect {case.dialect!r}"
            result.skip_kind = UNSUPPORTED
            return result
        try:
            if case.scaling is not None:
                self._run_pathological(case, result)
            else:
                self._run_case(case, case.output, case.expectations, result)
        except SessionSkipped as skipped:
            result = CaseResult(
                case.id,
                case.dialect,
                case.kind,
                case.level,
                skipped=str(skipped),
                skip_kind=ADAPTER,
            )
        result.seconds = time.perf_counter() - start
        return result

    # ----------------------------------------------------------------- ordinary cases

    def _run_case(
        self,
        case: Case,
        text: str,
        expectations: tuple[Expectation, ...],
        result: CaseResult,
        *,
        extra: tuple[Chunking, ...] = (),
        only: tuple[Chunking, ...] | None = None,
    ) -> None:
        """Check the case under every chunking (plus ``extra``), or under ``only`` these
        after the whole response."""
        dialect = get_dialect(case.dialect)
        context = CaseContext.build(case, dialect, expectations, text=text)
        context.oracle = Oracle(lambda chunking: feed_chunking(self._oracle, case, chunking))
        complete, problem = complete_result(self.adapter, case, text)
        found: dict[str, tuple[Run, str]] = {}

        def evaluate(run: Run) -> dict[str, str | None]:
            run.complete = complete
            result.runs += 1
            return verdicts(run, context)

        def record(run: Run) -> None:
            for check, message in evaluate(run).items():
                if message is None:
                    result.checks.setdefault(check, "pass")
                    continue
                result.checks[check] = "fail"
                known = found.get(check)
                if known is None or run.chunking.cuts < known[0].chunking.cuts:
                    found[check] = (run, message)

        hung = False
        # The runs result.seed-invariant repeats under other seeds: the whole output, and the
        # two-way split nearest the middle (what a parser completes in one feed after it has
        # started: SGLang's MiniMax-M2 detector orders the parameters of such a feed by a
        # set). Not one piece per chunk: a feed of one token rarely completes two things to
        # order, and it is a case's costliest run (with it, under two seeds, the default
        # certify took 134 s in CI's replica; without it, 122 s in a run of its own).
        compared: list[Run] = []
        halves: list[Run] = []
        if only is not None:
            whole = feed_chunking(
                self.adapter, case, Chunking(Family.WHOLE, (text,)), feed_timeout=self.feed_timeout
            )
            context.whole = whole
            for run in (
                whole,
                *(
                    feed_chunking(self.adapter, case, c, feed_timeout=self.feed_timeout)
                    for c in only
                ),
            ):
                record(run)
        sources = self.sources(case.dialect) if only is None else []
        first = sources[0] if sources else None
        for source in sources:
            pieces = source.split(text) or [Piece("")]
            if dialect.response_parser.releases_as_it_reads:
                context.oracle.boundaries(one_per_piece(pieces, source))
            seed = zlib.crc32(case.id.encode())
            chunkings = token_chunkings(
                pieces, source, self._budget(case), seed=seed, endings=self.adapter.endings
            )
            for chunking in chunkings:
                whole = chunking.family == Family.WHOLE
                if not (whole or self._selected(chunking.family)):
                    continue
                run = feed_chunking(self.adapter, case, chunking, feed_timeout=self.feed_timeout)
                if whole:
                    context.whole = run  # the baseline of result.chunking-invariant
                if source is first and whole:
                    compared.append(run)
                elif source is first and chunking.family == labelled(Family.TWO_WAY, source.name):
                    halves.append(run)
                if whole and not self._selected(Family.WHOLE):
                    continue
                record(run)
                # A parser that hung, crashed its program, flooded its output or ran out of
                # memory once will again: that settles it (each costs a program restart).
                hung = run.outcome in (TIMEOUT, CRASH, LIMIT) or run.exhausted
                if hung:
                    break
            if hung:
                break
            for chunking in extra:
                record(feed_chunking(self.adapter, case, chunking, feed_timeout=self.feed_timeout))
            if self._selected(Family.SEARCH) and not any(BY_ID[c].level == MUST for c in found):
                searched = self._search(case, pieces, source, evaluate)
                if searched is not None:
                    record(searched)
        if self.robustness and not hung and only is None and case.scaling is None:
            for chunking in char_chunkings(text, self._budget(case)):
                record(feed_chunking(self.adapter, case, chunking, feed_timeout=self.feed_timeout))

        if not hung:
            middle = halves[len(halves) // 2 : len(halves) // 2 + 1]
            self._check_seed(case, compared + middle, result)
        if problem and "run.contract" not in found:  # a streamed violation says more
            broken = Run(Chunking(Family.WHOLE, (text,)), [], outcome=CONTRACT, error=problem)
            result.checks["run.contract"] = "fail"
            found["run.contract"] = (broken, problem)
        failed = {failure.check for failure in result.failures}
        for check, (run, message) in found.items():
            if check in failed:  # one failure per check and case: the first size's stands
                continue
            if run.chunking.tier == TOKEN_TIER and run.chunking.cuts > 1 and run.outcome != TIMEOUT:
                run, message = self._shrink(case, run, check, evaluate)
            _record_run_failure(result, case, check, run, message, expectations)

    def start_reseeded(self) -> None:
        """Start the programs under the other hash seeds now: a worker does so before it
        takes its first case, so that their start-up (an engine's imports take seconds) is
        not charged to a case's clock. One that cannot start is reported by the first case
        that needs it."""
        if not self.reseed:
            return
        factory = self.adapter.factory
        assert isinstance(factory, SubprocessFactory)
        for seed in other_hash_seeds(factory.launch.hash_seed):
            with contextlib.suppress(AdapterError):
                self._reseeded_adapter(seed)

    def _reseeded_adapter(self, seed: str) -> Adapter:
        """The program under ``seed``, started when first needed."""
        adapter = self._reseeded.get(seed)
        if adapter is None:
            factory = self.adapter.factory
            assert isinstance(factory, SubprocessFactory)
            adapter = self._reseeded[seed] = Adapter.from_factory(
                self.adapter.spec, factory.reseeded(seed)
            )
        return adapter

    def _check_seed(self, case: Case, compared: list[Run], result: CaseResult) -> None:
        """``result.seed-invariant``: ``compared`` again in a program under each other hash
        seed, each result the same as under the first. A parser that iterates a set answers
        by the seed its process drew; certify fixes one seed so that verdicts repeat, and
        this is what the fixed seed would otherwise hide."""
        compared = [run for run in compared if run.outcome == OK and run.result is not None]
        if not self.reseed or not compared:
            return
        factory = self.adapter.factory
        assert isinstance(factory, SubprocessFactory)
        first = factory.launch.hash_seed
        for seed in other_hash_seeds(first):
            try:
                reseeded = self._reseeded_adapter(seed)
            except AdapterError as error:
                message = f"the adapter program did not start under PYTHONHASHSEED={seed}: {error}"
                result.fail(case, SEED_INVARIANT, message, compared[0].chunking, status=CRASH)
                return
            for run in compared:
                assert run.result is not None
                again = feed_chunking(reseeded, case, run.chunking, feed_timeout=self.feed_timeout)
                result.runs += 1
                if again.outcome != OK or again.result is None:
                    problem = f"ended {again.outcome}: {again.error}"
                else:
                    baseline = f"result under PYTHONHASHSEED={first}"
                    problem = same_result(again.result, run.result, baseline)
                if problem:
                    result.fail(
                        case,
                        SEED_INVARIANT,
                        f"under PYTHONHASHSEED={seed} the run {problem}",
                        run.chunking,
                        status=Outcome(again.outcome).status,
                        expected=run.result.to_json(),
                        actual=again.result.to_json() if again.result is not None else None,
                    )
                    return
        result.checks.setdefault(SEED_INVARIANT, "pass")

    def sources(self, dialect: str) -> list[BoundarySource]:
        model = self.chunking_models.get(dialect)
        if model is None:
            model = self.chunking_models[dialect] = chunking_model(dialect, fetch=False)
        return model.sources()

    def _budget(self, case: Case) -> Budget:
        return Budget.for_mode(self.mode, pathological=case.scaling is not None)

    def _selected(self, label: str) -> bool:
        return self.families is None or family_of(label) in self.families

    def _search(
        self,
        case: Case,
        pieces: list[Piece],
        source: BoundarySource,
        evaluate: Callable[[Run], dict[str, str | None]],
    ) -> Run | None:
        """Hypothesis search over subsets of boundaries; the failure it returns is shrunk."""
        budget = self._budget(case)
        if len(pieces) < 3 or not budget.search_examples:
            return None
        strategy = st.lists(st.integers(1, len(pieces) - 1), unique=True).map(sorted)

        label = labelled(Family.SEARCH, source.name)

        def fails(cuts: list[int]) -> bool:
            chunking = from_cut_positions(pieces, cuts, label, source)
            run = feed_chunking(self.adapter, case, chunking, feed_timeout=self.feed_timeout)
            return any(message for message in evaluate(run).values())

        try:
            cuts = find(
                strategy,
                fails,
                settings=settings(
                    max_examples=budget.search_examples,
                    derandomize=True,
                    database=None,
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                ),
            )
        except NoSuchExample:
            return None
        chunking = from_cut_positions(pieces, cuts, label, source)
        return feed_chunking(self.adapter, case, chunking, feed_timeout=self.feed_timeout)

    def _shrink(
        self,
        case: Case,
        run: Run,
        check: str,
        evaluate: Callable[[Run], dict[str, str | None]],
    ) -> tuple[Run, str]:
        """Remove cuts one at a time while ``check`` still fails: a minimal chunking."""
        chunking = run.chunking
        message = evaluate(run).get(check) or ""
        pieces, source = _chunks_as_pieces(chunking)
        cuts = list(range(1, len(pieces)))
        budget = _SHRINK_BUDGET
        position = len(cuts) - 1
        while position >= 0 and budget > 0 and len(cuts) > 1:
            trial_cuts = cuts[:position] + cuts[position + 1 :]
            trial = replace(
                from_cut_positions(pieces, trial_cuts, chunking.family, source),
                ending=chunking.ending,
            )
            trial_run = feed_chunking(self.adapter, case, trial, feed_timeout=self.feed_timeout)
            budget -= 1
            trial_message = evaluate(trial_run).get(check)
            if trial_message:
                cuts, run, message = trial_cuts, trial_run, trial_message
            position -= 1
        return run, message

    # ----------------------------------------------------------------- pathological cases

    def _run_pathological(self, case: Case, result: CaseResult) -> None:
        """Correctness at the smallest size, the whole response at the largest, and the time
        on a ladder of sizes between them (``scaling``), judged by its fitted exponent.

        The ladder's budget is the parser's own (``scaling.measure``), so a slow but linear
        parser completes it, and a super-linear one is stopped as soon as its next step would
        pass the budget — caught, not waited for. A parser already slow below the case's
        sizes is timed there first (``_probe``): one super-linear there is judged on those
        sizes, and the memory checks run at the largest of them, so that a quadratic parser
        costs seconds where its ladder and its repeated responses at the case's own sizes
        took a minute. The correctness checks always run at the case's own sizes.
        """
        assert case.scaling is not None
        sizes = ladder_sizes(case, self.mode)
        smallest, largest = sizes[0], sizes[-1]
        text, expectations = case.sized(smallest)
        self._run_case(case, text, expectations, result)
        if result.checks.get("run.no-timeout") == "fail":
            return  # it hung already: timing it says nothing more
        cap = scaling.FULL_CAP if self.mode == "full" else scaling.CAP
        try:
            probed = self._probe(case, smallest, result, cap)
            if probed is None:
                self._check_retained_memory(case, text, result)
                self._progress(result)  # the smallest size's chunkings and the memory check
                timer = _Timer(self, case, result)
                verdict = scaling.confirm(
                    sizes, timer, scaling.measure(sizes, timer, cap=cap), cap=cap
                )
            else:
                timer, verdict = probed
                self._check_retained_memory(case, case.sized(timer.largest)[0], result)
        except _LadderBroken as broken:
            # It failed at a size the correctness checks did not see (past some length it
            # raises, crashes or hangs): that size is checked as the largest is, so the
            # failure is reported, never taken for a pass with nothing timed.
            text, expectations = case.sized(broken.size)
            self._run_case(case, text, expectations, result, only=(broken.run.chunking,))
            return
        self._check_peak_memory(case, timer.peaks, result)
        if verdict.linear:
            result.checks.setdefault("perf.linear", "pass")
        else:
            timed = timer.largest
            repeated = f" (each time is of {timer.repeat} runs)" if timer.repeat > 1 else ""
            below = (
                f"; timed below the case's own sizes ({smallest} to {largest}): the parser "
                "is super-linear there already"
                if probed is not None
                else ""
            )
            result.fail(
                case,
                "perf.linear",
                verdict.describe() + repeated + below,
                _timing(
                    f"<{len(case.sized(timed)[0])} characters (size {timed}) in ~4-character "
                    "chunks>"
                ),
                expected={"max_exponent": scaling.SUPER_LINEAR},
                actual={
                    "exponent": round(verdict.exponent or 0.0, 3),
                    "seconds": {str(size): round(seconds, 6) for size, seconds in verdict.points},
                    "stopped_before": verdict.stopped_before,
                    "runs_per_measurement": timer.repeat,
                    "below_case_sizes": probed is not None,
                },
            )
        self._progress(result)  # the whole response at the largest size may be what hangs
        text, expectations = case.sized(largest)
        self._run_case(case, text, expectations, result, only=())

    def _probe(
        self, case: Case, smallest: int, result: CaseResult, cap: float
    ) -> tuple[_Timer, scaling.Verdict] | None:
        """The parser timed below the case's sizes, when it is slow there: the timer and a
        super-linear verdict, or ``None`` to time it on the case's own ladder.

        One run each at an eighth and a quarter of the smallest size decides whether to look
        (a few milliseconds for a linear parser; a parser that fast there says nothing about
        its growth). When both are over ``scaling.NOISE_FLOOR`` and the second grew faster
        than linear, the sizes an eighth, a quarter and half the smallest are judged as the
        ladder is (``scaling.measure`` and ``confirm``); only a super-linear verdict stands.
        A super-linear term seen at small sizes does not vanish at larger ones, so the
        failure says no more than was measured, and a linear verdict here decides nothing.
        """
        sizes = [smallest // 8, smallest // 4, smallest // 2]
        if sizes[0] < 1:
            return None
        timer = _Timer(self, case, result, repeat=1)
        first, second = (timer(size, None) for size in sizes[:2])
        if min(first, second) < scaling.NOISE_FLOOR:
            return None
        if scaling.two_sizes(first, second, sizes[1] / sizes[0]).linear:
            return None
        verdict = scaling.confirm(sizes, timer, scaling.measure(sizes, timer, cap=cap), cap=cap)
        return None if verdict.linear else (timer, verdict)

    def _progress(self, result: CaseResult) -> None:
        if self.on_progress is not None:
            self.on_progress(result)

    def _check_retained_memory(self, case: Case, text: str, result: CaseResult) -> None:
        """``mem.no-leak``: the same response parsed again and again must not grow the
        adapter program's memory. After one warm-up run, the resident memory of the program
        (measured from outside) may grow by less than ``_LEAK_PER_CHARACTER`` bytes per
        output character per response — the reference grows by about one, a parser that
        keeps every chunk and delta by about 170. A growth over the allowance is judged again
        on the latest responses, so a garbage-collected heap that levels off passes and only
        a lasting growth fails."""
        factory = self.adapter.factory
        if not isinstance(factory, SubprocessFactory):
            return
        chunking = self._timing_chunking(case, text)
        allowed = max(_LEAK_FLOOR, _LEAK_PER_CHARACTER * len(text))
        readings: list[int] = []
        while len(readings) < _LEAK_RUNS_MAX:
            run = feed_chunking(
                self.adapter, case, chunking, timed=True, feed_timeout=self.feed_timeout
            )
            result.runs += 1
            memory = factory.resident_bytes()
            if run.outcome != OK or memory is None:
                return
            readings.append(memory)
            if len(readings) >= _LEAK_RUNS and _retained_growth(readings) <= allowed:
                result.checks.setdefault("mem.no-leak", "pass")
                return
        growth = _retained_growth(readings)
        result.fail(
            case,
            "mem.no-leak",
            f"the adapter program still grew by {growth / 2**10:.0f} KiB with each response of "
            f"{len(text)} characters after {len(readings)} responses (allowed "
            f"{allowed / 2**10:.0f} KiB): it keeps what ended sessions saw",
            _timing(f"<{len(text)} characters in ~4-character chunks, {len(readings)} times>"),
            expected={"max_growth_per_response": allowed},
            actual={"resident_bytes": readings},
        )

    def _check_peak_memory(self, case: Case, peaks: _PeakMemory, result: CaseResult) -> None:
        """``mem.linear``: the memory one response takes at its peak is bounded by a linear
        function of the output — at most ``_PEAK_PER_CHARACTER`` bytes per character above
        what the program held before, and at least ``_PEAK_FLOOR``. Judged at the largest
        size the ladder timed: a parser that keeps a copy of the text so far on every chunk
        (until the session ends, so ``mem.no-leak`` passes) takes memory quadratic in the
        output, and exceeds any such bound at a size of tens of kilobytes."""
        if not peaks.readings:
            return  # not measurable here (no /proc, or no timed run completed)
        size = max(peaks.readings)
        characters = len(case.sized(size)[0])
        growth = peaks.readings[size]
        allowed = max(_PEAK_FLOOR, _PEAK_PER_CHARACTER * characters)
        if growth <= allowed:
            result.checks.setdefault("mem.linear", "pass")
            return
        result.fail(
            case,
            "mem.linear",
            f"one response of {characters} characters took {growth / 2**20:.1f} MiB at its peak, "
            f"above what the program held before (allowed {allowed / 2**20:.1f} MiB: "
            f"{_PEAK_PER_CHARACTER} bytes per character): memory grows faster than the output",
            _timing(f"<{characters} characters (size {size}) in ~4-character chunks>"),
            expected={"max_peak_growth": allowed},
            actual={"peak_growth": {str(s): peak for s, peak in sorted(peaks.readings.items())}},
        )

    def _timing_chunking(self, case: Case, text: str) -> Chunking:
        """The text in chunks of about four characters, cut at token boundaries."""
        source = self.sources(case.dialect)[0]
        pieces = source.split(text)
        cuts = []
        size = 0
        for index, piece in enumerate(pieces[:-1], start=1):
            size += len(piece.text)
            if size >= 4:
                cuts.append(index)
                size = 0
        return from_cut_positions(pieces, cuts, labelled(Family.TIMING, source.name), source)


def _chunks_as_pieces(chunking: Chunking) -> tuple[list[Piece], BoundarySource]:
    """The chunks of a chunking as pieces: shrinking merges neighbours, never re-cuts them."""
    ids = chunking.token_ids or tuple(() for _ in chunking.chunks)
    pieces = [
        Piece(chunk, tuple(chunk_ids))
        for chunk, chunk_ids in zip(chunking.chunks, ids, strict=True)
    ]
    return pieces, BoundarySource(chunking.family, lambda text: pieces, chunking.tokenizer)


def _record_run_failure(
    result: CaseResult,
    case: Case,
    check: str,
    run: Run,
    message: str,
    expectations: tuple[Expectation, ...],
) -> None:
    """A check failed by one run: what was expected (every acceptable result) and what the
    run gave."""
    expected = (
        expectations[0].to_json() if len(expectations) == 1 else [e.to_json() for e in expectations]
    )
    actual = run.result.to_json() if run.result is not None else None
    result.fail(
        case,
        check,
        message,
        run.chunking,
        status=Outcome(run.outcome).status,
        expected=expected,
        actual=actual,
    )


def _timing(description: str) -> Chunking:
    """The chunking of a failure judged from timed runs: described, not listed (thousands of
    ~4-character chunks)."""
    return Chunking(Family.TIMING, (description,))


class _Timer:
    """One ladder's measurement (``scaling.Measurement``): CPU seconds of the case at a
    size, in chunks of about four characters, as a program run (or a batch of runs) times
    them; the peak memory of each run is recorded too.

    Runs per measurement (``repeat``): as many as the first size needs to take at least
    ``scaling.NOISE_FLOOR`` CPU seconds, the same number at every size (a fast parser's
    run of a few milliseconds measures the scheduler and its JIT, not its growth). A
    measurement is the time of all its runs, so the budget is in real seconds.
    """

    def __init__(
        self, executor: CaseExecutor, case: Case, result: CaseResult, *, repeat: int = 0
    ) -> None:
        self.executor, self.case, self.result = executor, case, result
        self.repeat = repeat
        self.peaks = _PeakMemory(executor.adapter.factory)
        self.timed: set[int] = set()  # the sizes a measurement completed at
        # Each size is cut when first timed: a stopped ladder cuts less.
        self._chunkings: dict[int, Chunking] = {}
        self._load = _WALL_PER_CPU  # wall seconds per CPU second of the last run
        self._batched = batches_runs(executor.adapter)

    @property
    def largest(self) -> int:
        """The largest size a measurement completed at."""
        return max(self.timed)

    def __call__(self, size: int, limit: float | None) -> float:
        executor, case = self.executor, self.case
        chunking = self._chunkings.get(size)
        if chunking is None:
            chunking = executor._timing_chunking(case, case.sized(size)[0])
            self._chunkings[size] = chunking
        total, runs = 0.0, 0
        while runs < (self.repeat or _REPEAT_MAX):
            # Once the count is known, a program that offers ``run`` makes them all in one
            # request: one reply to read instead of one per run (the host's feed costs a
            # tenth of a microsecond, so a fast parser's measurement is many runs).
            batch = self.repeat - runs if self._batched and self.repeat > 1 else 1
            # The program stops itself by the wall clock; the ladder counts CPU time. On
            # a loaded machine the first is a multiple of the second: give it that.
            remaining = None if limit is None else max(limit - total, 0.0)
            wall = None if remaining is None else remaining * max(_WALL_PER_CPU, 2 * self._load)
            self.peaks.start()
            run = feed_chunking(
                executor.adapter, case, chunking, timed=True, budget=wall,
                feed_timeout=executor.feed_timeout, repeat=batch,
            )  # fmt: skip
            self.result.runs += batch
            if run.outcome == TIMEOUT and (run.error or "").startswith(_OVER_BUDGET):
                # The runs so far and this request's, projected from the share it did.
                estimate = total + run.cpu_seconds / max(run.progress, 1e-3)
                raise scaling.Exceeded(estimate * max(self.repeat, 1) / (runs + batch))
            if run.outcome != OK:
                raise _LadderBroken(run, size)
            self.peaks.record(size)
            self._load = run.seconds / max(run.cpu_seconds, 1e-6)
            total, runs = total + run.cpu_seconds, runs + batch
            if not self.repeat and total >= scaling.NOISE_FLOOR:
                break
        self.repeat = self.repeat or runs
        self.timed.add(size)
        return total


class _PeakMemory:
    """The peak resident memory of the adapter program in each timed run, above what it
    held when the run began: what one response takes, whatever earlier responses kept (a
    leak is ``mem.no-leak``'s). The highest reading per size: an allocator that keeps freed
    memory makes a later run of the same size look cheaper than the first, never dearer.
    Nothing is read where the program is in-process or the system does not let its peak be
    reset."""

    def __init__(self, factory: object) -> None:
        self.factory = factory if isinstance(factory, SubprocessFactory) else None
        self.readings: dict[int, int] = {}
        self._before: int | None = None

    def start(self) -> None:
        self._before = None
        if self.factory is None:
            return
        before = self.factory.resident_bytes()
        if before is not None and self.factory.reset_peak():
            self._before = before

    def record(self, size: int) -> None:
        if self._before is None:
            return
        assert self.factory is not None
        peak = self.factory.resident_bytes(peak=True)
        if peak is not None:
            growth = max(0, peak - self._before)
            self.readings[size] = max(self.readings.get(size, 0), growth)


def _retained_growth(readings: list[int]) -> float:
    """Resident bytes gained per response over the latest ``_LEAK_RUNS - 1`` responses
    (never counting the first, which warms the program up)."""
    window = readings[max(1, len(readings) - _LEAK_RUNS + 1) :]
    return (window[-1] - window[0]) / (len(window) - 1)
