"""Isolated, parallel execution: cases run in worker processes that may be killed.

A parser under test may raise, hang in C code, allocate without bound or kill its process.
Each worker (trusted: the checks and the oracle) owns one adapter program (untrusted: the
parser) and runs one case at a time; the parent gives each case a wall-clock budget, kills
and replaces a worker that exceeds it or dies — with its adapter program and everything that
started — records the case as a timeout or crash, with the failures its finished stages
found (a worker reports its result so far after each stage), and goes on. Workers start
with ``spawn`` so that the parent's threads (the progress display) are never forked.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .adapters import AdapterCrash
from .adapters.subprocess import Launch
from .cases import Case
from .checks import CRASH, TIMEOUT, Outcome
from .chunkings import Chunking, ChunkingModel, Family
from .execution import CaseExecutor, CaseResult
from .processes import become_subreaper, kill_tree

#: Seconds one case may take, by mode: full mode times each pathological case up to a
#: megabyte of output (``scaling.FULL_CHARACTERS``, a budget of up to ``FULL_CAP``) after
#: many more chunkings of its smallest size.
CASE_TIMEOUT = {"quick": 300.0, "full": 900.0}


@dataclass(frozen=True)
class PoolConfig:
    adapter_spec: str
    mode: str = "quick"
    jobs: int = 1
    case_timeout: float = CASE_TIMEOUT["quick"]
    feed_timeout: float = 10.0
    robustness: bool = True
    #: How each dialect's outputs are cut, as the parent decided it for the whole run.
    chunking_models: tuple[ChunkingModel, ...] = ()
    #: How the adapter programs are started and bounded (memory, output, sandbox).
    launch: Launch = field(default_factory=Launch)


#: What a worker sends once its adapter is loaded: only then do its cases' clocks start.
READY = "ready"
#: The tag of a case's result so far, sent after each of its stages (then the result).
PARTIAL = "partial"
#: Seconds a worker may take to start and load its adapter.
STARTUP_TIMEOUT = 300.0
#: Times a worker that cannot start is replaced before its case is recorded as lost.
STARTUP_RETRIES = 1


def _worker_main(connection: Connection, config: PoolConfig) -> None:
    """A worker: start the adapter's programs once (its own, and one under each other hash
    seed for ``result.seed-invariant``), then run the cases the parent sends.

    The worker is trusted code (checks, oracle, expectations); the parser runs only in the
    adapter program it starts. It is a child subreaper, so whatever that program detaches
    stays below it and is killed with it.
    """
    become_subreaper()
    from .adapters import AdapterError, load_adapter

    try:
        adapter = load_adapter(config.adapter_spec, config.launch)
    except AdapterError as error:
        connection.send(("failed", str(error)))
        return
    executor = CaseExecutor(
        adapter,
        mode=config.mode,
        feed_timeout=config.feed_timeout,
        robustness=config.robustness,
        chunking_models=config.chunking_models,
        on_progress=lambda result: connection.send((PARTIAL, result)),
        reseed=True,
    )
    executor.start_reseeded()
    connection.send(READY)
    try:
        while True:
            case = connection.recv()
            if case is None:
                break
            connection.send(executor.run(case))
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        executor.close()
        adapter.close()


class _Worker:
    def __init__(self, context: Any, config: PoolConfig, attempts: int = 0) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, config), daemon=True)
        self.process.start()
        child.close()
        self.case: Case | None = None
        #: The group of the cases it was last given (``_Queue``): what it has loaded.
        self.group: str | None = None
        #: The case's result as of its last finished stage.
        self.partial: CaseResult | None = None
        self.started = 0.0
        self.ready = False
        self.born = time.monotonic()
        #: How many workers before this one failed to start (for one retry).
        self.attempts = attempts
        self.failure = ""

    def give(self, case: Case) -> None:
        self.case = case
        self.partial = None
        self.started = time.monotonic()
        self.connection.send(case)

    def stop(self, *, kill: bool = False) -> None:
        if not kill:
            with contextlib.suppress(OSError):
                self.connection.send(None)
            self.process.join(timeout=5)
        # The worker, its adapter program and whatever that program started, as one tree.
        kill_tree(self.process.pid)
        self.process.join(timeout=5)
        self.connection.close()


class _Queue:
    """The cases still to give, grouped by the tokenizers a worker loads for them (a
    dialect's families; one to two seconds each, once per worker): a worker is given the
    next case of its own group while there is one, then a group no other worker is on, and
    only then a share of the largest group left. Each worker loads about its part of the
    tokenizers instead of every one (the 68 invalid cases of six dialects: 13.1 s with two
    workers, 18.8 s given in corpus order)."""

    def __init__(self, cases: Iterable[Case], key: Callable[[Case], str]) -> None:
        self.groups: dict[str, deque[Case]] = {}
        for case in cases:
            self.groups.setdefault(key(case), deque()).append(case)

    def __bool__(self) -> bool:
        return bool(self.groups)

    def pop(self, group: str | None = None, busy: Iterable[str | None] = ()) -> tuple[str, Case]:
        """The next case for a worker last on ``group``, while the others are on ``busy``."""
        if group not in self.groups:
            taken = set(busy)
            free = [name for name in self.groups if name not in taken]
            group = free[0] if free else max(self.groups, key=lambda name: len(self.groups[name]))
        cases = self.groups[group]
        case = cases.popleft()
        if not cases:
            del self.groups[group]
        return group, case


def run_cases(
    cases: Iterable[Case], config: PoolConfig, on_result: Callable[[CaseResult], None]
) -> None:
    """Run every case in isolated workers; ``on_result`` receives each result as it arrives.

    A worker that cannot start its adapter is replaced once; when its replacement cannot
    either, the next case is recorded as lost with the reason, and the run goes on — with
    no worker able to start at all, ``AdapterCrash`` ends it, and the results so far stand.
    """
    become_subreaper()
    context = multiprocessing.get_context("spawn")
    cases = list(cases)
    families = {model.dialect: model.families for model in config.chunking_models}
    queue = _Queue(cases, lambda case: " ".join(families.get(case.dialect, ())) or case.dialect)
    workers = [_Worker(context, config) for _ in range(max(1, min(config.jobs, len(cases))))]
    unstartable = 0
    try:
        while queue or any(worker.case is not None for worker in workers):
            for worker in workers:
                if worker.ready and worker.case is None and queue:
                    busy = [other.group for other in workers if other is not worker]
                    worker.group, case = queue.pop(worker.group, busy)
                    worker.give(case)
            waiting = [w for w in workers if w.case is not None or not w.ready]
            # Woken by the first case limit to pass, not only once a second.
            now = time.monotonic()
            left = [w.started + config.case_timeout - now for w in waiting if w.case is not None]
            ready = wait([w.connection for w in waiting], timeout=max(0.0, min([1.0, *left])))
            now = time.monotonic()
            for index, worker in enumerate(workers):
                if not worker.ready:
                    started = _start(worker, ready, now)
                    if started is None:
                        continue
                    if started:
                        unstartable = 0
                        continue
                    worker.stop(kill=True)
                    if worker.attempts < STARTUP_RETRIES:
                        workers[index] = _Worker(context, config, worker.attempts + 1)
                        continue
                    unstartable += 1
                    if unstartable >= len(workers) * 2 and not any(w.ready for w in workers):
                        raise AdapterCrash(worker.failure)
                    if queue:
                        on_result(_lost(queue.pop()[1], CRASH, worker.failure))
                    workers[index] = _Worker(context, config)
                    continue
                if worker.case is None:
                    continue
                case = worker.case
                crashed = False
                if worker.connection in ready:
                    try:
                        message = worker.connection.recv()
                    except (EOFError, OSError):
                        crashed = True
                    else:
                        if not (isinstance(message, tuple) and message[0] == PARTIAL):
                            on_result(message)
                            worker.case = None
                            continue
                        # A stage finished: the case limit is still checked, whatever
                        # the worker keeps sending.
                        worker.partial = message[1]
                if crashed:
                    on_result(_lost(case, CRASH, _exit_text(worker.process), worker.partial))
                elif now - worker.started >= config.case_timeout:
                    on_result(
                        _lost(
                            case,
                            TIMEOUT,
                            f"the case took longer than {config.case_timeout:g} s",
                            worker.partial,
                        )
                    )
                elif worker.connection in ready or worker.process.is_alive():
                    continue
                else:
                    on_result(_lost(case, CRASH, _exit_text(worker.process), worker.partial))
                worker.case = None
                worker.stop(kill=True)
                workers[index] = _Worker(context, config)
    finally:
        for worker in workers:
            worker.stop(kill=worker.case is not None or not worker.ready)


def _exit_text(process: Any) -> str:
    """How a worker ended, in words: its exit status or the signal that killed it."""
    process.join(timeout=2)
    code = process.exitcode
    if code is None:
        return "the worker process stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the worker process was killed by {name}"
    return f"the worker process exited with status {code}"


def _start(worker: _Worker, ready: list, now: float) -> bool | None:
    """Whether a starting worker is ready (``True``), failed (``False``, with
    ``worker.failure`` saying why), or is still starting (``None``)."""
    if worker.connection in ready:
        try:
            message = worker.connection.recv()
        except (EOFError, OSError):
            worker.failure = f"a worker could not start the adapter: {_exit_text(worker.process)}"
            return False
        if message == READY:
            worker.ready = True
            return True
        worker.failure = f"a worker could not start the adapter: {message[1]}"
        return False
    if worker.process.is_alive() and now - worker.born < STARTUP_TIMEOUT:
        return None
    worker.failure = (
        f"a worker could not start the adapter within {STARTUP_TIMEOUT:g} s"
        if worker.process.is_alive()
        else f"a worker could not start the adapter: {_exit_text(worker.process)}"
    )
    return False


def _lost(
    case: Case, outcome: Outcome, message: str, partial: CaseResult | None = None
) -> CaseResult:
    """The result of a case whose worker had to be killed or died: what its finished
    stages found (``partial``), and the timeout or crash."""
    result = partial or CaseResult(case.id, case.dialect, case.kind, case.level)
    if any(failure.check == outcome.check for failure in result.failures):
        return result  # one failure per check and case: a stage's own timeout or crash
    result.fail(
        case, outcome.check, message, Chunking(Family.CASE, (case.output,)), status=outcome.status
    )
    return result
