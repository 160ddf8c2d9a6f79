"""The per-feed time limit, one mechanism for every place a parser's feed is timed: the
adapter host's batched ``run`` (certify, in the adapter program), in-process runs, the
fuzz target and triage (``harness.execution.feed_limit``).

Imported by the adapter host: standard library only.
"""

from __future__ import annotations

import signal
import time
from typing import Any


class FeedTimeout(Exception):
    """One feed (or finish) went past the per-feed limit."""


class FeedLimit:
    """A per-feed limit on the feed's own CPU time: ``FeedTimeout`` in the main thread when
    a feed has used ``seconds`` of CPU, or has waited ``WALL_FACTOR`` times that by the wall
    clock while using less (blocked on a lock, a sleep or a read, rather than slow).

    CPU time, so that a verdict does not depend on what else the machine runs: with a
    wall-clock limit, a feed that stays under it alone went past it beside other work, and a
    ``run.no-timeout`` failure recorded the machine's load (vLLM's
    ``deepseek_v4/pathological/long-value-with-tag-prefixes``, passed alone in one published
    run and timed out in the next, run beside niced tests on 2026-12-06). The
    main thread's CPU (``thread_time``): the feed runs there, and threads of the adapter's
    own that work beside it neither count against it nor stop it.

    One periodic timer runs for the whole run, ticking ``TICKS`` times per limit, and a feed
    only notes when it began (a clock read instead of system calls: installing a handler per
    feed took a third of the host's time in the default certify, arming a timer per feed a
    seventh — py-spy — and one system call costs about as much as the reference parser's
    feed of a few characters). A tick that finds the feed a previous tick found counts the
    CPU used since the first of them as that feed's; the CPU before that first tick is not
    counted, so a feed is stopped once it has used between ``seconds`` and ``seconds`` plus
    one tick."""

    WALL_FACTOR = 3
    TICKS = 4

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds or 0.0
        #: ``perf_counter_ns`` when the feed under way began (``None``: between feeds).
        self.since: int | None = None
        self._previous: Any = None
        #: The feed the ticks have been finding (its ``since``), and the CPU clock at the
        #: first tick that found it.
        self._feed: int | None = None
        self._first_cpu_ns = 0

    def __enter__(self) -> FeedLimit:
        if self.seconds:
            tick = self.seconds / self.TICKS
            self._previous = signal.signal(signal.SIGALRM, self._tick)
            signal.setitimer(signal.ITIMER_REAL, tick, tick)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def _tick(self, signum: int, frame: object) -> None:
        since = self.since
        cpu_ns = time.thread_time_ns()
        if since is None or since != self._feed:
            self._feed, self._first_cpu_ns = since, cpu_ns
            return
        used = (cpu_ns - self._first_cpu_ns) / 1e9
        if used >= self.seconds:
            raise FeedTimeout(f"a feed used more than {self.seconds:g} s of CPU")
        waited = (time.perf_counter_ns() - since) / 1e9
        if waited >= self.WALL_FACTOR * self.seconds:
            raise FeedTimeout(
                f"a feed waited {waited:.0f} s, {used:.1f} s of it on the CPU (blocked: the "
                f"limit is {self.seconds:g} s of CPU or {self.WALL_FACTOR * self.seconds:g} s "
                "in all)"
            )
