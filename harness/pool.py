"""Isolated, parallel execution: cases run in worker processes that may be killed.

A parser under test may raise, hang in C code, allocate without bound or kill its process.
Each worker owns one adapter instance and runs one case at a time; the parent gives each
case a wall-clock budget, kills and replaces a worker that exceeds it or dies, records the
case as a timeout or crash, and goes on. Workers start with ``spawn`` so that the parent's
threads (the progress display) are never forked.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from .adapters import AdapterCrash
from .cases import Case
from .checks import BY_ID, effective_level
from .chunkings import Chunking, ChunkingModel
from .execution import CaseExecutor, CaseResult, Failure


@dataclass(frozen=True)
class PoolConfig:
    adapter_spec: str
    mode: str = "quick"
    jobs: int = 1
    case_timeout: float = 300.0
    feed_timeout: float = 10.0
    memory_limit: int | None = 8 * 2**30  # bytes of address space per worker
    robustness: bool = True
    #: How each dialect's outputs are cut, as the parent decided it for the whole run.
    chunking_models: tuple[ChunkingModel, ...] = ()


#: What a worker sends once its adapter is loaded: only then do its cases' clocks start.
READY = "ready"
#: Seconds a worker may take to start and load its adapter.
STARTUP_TIMEOUT = 300.0


def _worker_main(connection: Connection, config: PoolConfig) -> None:
    """A worker: load the adapter once, then run the cases the parent sends."""
    if config.memory_limit:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (config.memory_limit, config.memory_limit))
        except (ImportError, ValueError, OSError):
            pass
    from .adapters import load_adapter

    adapter = load_adapter(config.adapter_spec)
    executor = CaseExecutor(
        adapter,
        mode=config.mode,
        feed_timeout=config.feed_timeout,
        robustness=config.robustness,
        chunking_models=config.chunking_models,
    )
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
        adapter.close()


class _Worker:
    def __init__(self, context: Any, config: PoolConfig) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, config), daemon=True)
        self.process.start()
        child.close()
        self.case: Case | None = None
        self.started = 0.0
        self.ready = False
        self.born = time.monotonic()

    def give(self, case: Case) -> None:
        self.case = case
        self.started = time.monotonic()
        self.connection.send(case)

    def stop(self, *, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.connection.send(None)
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def run_cases(
    cases: Iterable[Case], config: PoolConfig, on_result: Callable[[CaseResult], None]
) -> None:
    """Run every case in isolated workers; ``on_result`` receives each result as it arrives."""
    context = multiprocessing.get_context("spawn")
    queue = list(cases)
    queue.reverse()
    workers = [_Worker(context, config) for _ in range(max(1, min(config.jobs, len(queue))))]
    try:
        while queue or any(worker.case is not None for worker in workers):
            for worker in workers:
                if worker.ready and worker.case is None and queue:
                    worker.give(queue.pop())
            waiting = [w for w in workers if w.case is not None or not w.ready]
            ready = wait([worker.connection for worker in waiting], timeout=1.0)
            now = time.monotonic()
            for index, worker in enumerate(workers):
                if not worker.ready:
                    _start(worker, ready, now)
                    continue
                if worker.case is None:
                    continue
                case = worker.case
                if worker.connection in ready:
                    try:
                        on_result(worker.connection.recv())
                        worker.case = None
                        continue
                    except (EOFError, OSError):
                        on_result(_lost(case, "crash", "the worker process died"))
                elif now - worker.started > config.case_timeout:
                    on_result(
                        _lost(
                            case, "timeout", f"the case took longer than {config.case_timeout:g} s"
                        )
                    )
                elif worker.process.is_alive():
                    continue
                else:
                    on_result(
                        _lost(case, "crash", f"the worker exited ({worker.process.exitcode})")
                    )
                worker.case = None
                worker.stop(kill=True)
                workers[index] = _Worker(context, config)
    finally:
        for worker in workers:
            worker.stop(kill=worker.case is not None)


def _start(worker: _Worker, ready: list, now: float) -> None:
    """Mark a starting worker ready, or fail the run if it cannot load the adapter."""
    if worker.connection in ready:
        try:
            worker.ready = worker.connection.recv() == READY
            return
        except (EOFError, OSError):
            pass
    elif worker.process.is_alive() and now - worker.born < STARTUP_TIMEOUT:
        return
    worker.stop(kill=True)
    raise AdapterCrash(
        f"a worker could not start the adapter (exit status {worker.process.exitcode}); "
        "run one case with --jobs 1 to see its error"
    )


def _lost(case: Case, status: str, message: str) -> CaseResult:
    """The result of a case whose worker had to be killed or died."""
    check = "run.no-timeout" if status == "timeout" else "run.no-crash"
    result = CaseResult(case.id, case.dialect, case.kind, case.level)
    result.checks[check] = "fail"
    result.failures.append(
        Failure(
            case=case.id,
            dialect=case.dialect,
            check=check,
            level=effective_level(BY_ID[check], case),
            status=status,
            message=message,
            chunking=Chunking("case", (case.output,)),
        )
    )
    return result
