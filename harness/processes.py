"""The processes a run starts for the parser under test, measured and ended from outside.

A parser under test is untrusted code: it may start helpers (``sh -c``, ``npx``,
``cargo run``), detach them into sessions of their own, and ignore signals. Three things
keep that contained on Linux:

- the harness's own processes are *child subreapers*, so a process whose parent died is
  re-parented to us instead of to PID 1, and stays in our tree;
- every adapter program runs in a session of its own, and is ended with its whole tree
  (found by walking ``/proc`` from its pid, which catches detached grandchildren too);
- at the end of a run, every process started during the run that is still alive is killed.

The CPU time of an adapter program is read from ``/proc/PID/task/*/schedstat`` (nanoseconds,
kept by the kernel for every thread), summed over its tree: a measurement the program cannot
forge, unlike a time it reports itself. Elsewhere (no ``/proc``) these degrade to the direct
child and to wall-clock time, and the report says what was measured.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

_PROC = Path("/proc")
_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make orphaned descendants of this process its children (Linux); whether it worked."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, int]:
    """pid → parent pid of every process visible in ``/proc``."""
    parents = {}
    for entry in _PROC.iterdir() if _PROC.is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name (field 2) is in parentheses and may hold spaces or parentheses.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1:
            parents[int(entry.name)] = int(fields[1])
    return parents


def _children_files() -> bool:
    """Whether the kernel lists each thread's children (``/proc/PID/task/TID/children``,
    ``CONFIG_PROC_CHILDREN``): walking them reads a few files per process of the tree,
    where scanning every process on the machine reads hundreds."""
    return (_PROC / str(os.getpid()) / "task" / str(os.getpid()) / "children").exists()


_CHILDREN_FILES = _children_files()


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in (_PROC / str(pid) / "task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                found += [int(child) for child in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, grandchildren, …), nearest first."""
    if _CHILDREN_FILES:
        children_of = _children
    else:
        children: dict[int, list[int]] = {}
        for child, parent in _parents().items():
            children.setdefault(parent, []).append(child)

        def children_of(parent: int) -> list[int]:
            return children.get(parent, [])

    found: list[int] = []
    frontier = [pid]
    while frontier:
        below = [child for parent in frontier for child in children_of(parent)]
        found += below
        frontier = below
    return found


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and everything below it.

    The tree is frozen first (SIGSTOP, which no process can catch) until a walk of ``/proc``
    finds nothing new — a stopped process cannot fork — and only then killed, so no child
    escapes by being re-parented while its parent dies. Orphans re-parented to this process
    are reaped here; ``pid`` itself is left for its owner (``Popen``) to reap.
    """
    frozen: set[int] = set()
    for _ in range(100):
        found = {victim for victim in (pid, *descendants(pid)) if _exists(victim)} - frozen
        if not found:
            break
        for victim in found:
            _signal(victim, signal.SIGSTOP)
        frozen |= found
    for victim in frozen:
        _signal(victim, signal.SIGKILL)
    _await_death(frozen)
    _reap(frozen - {pid})


#: How long a killed tree may take to die before the run goes on regardless (a process in
#: uninterruptible sleep dies when its system call returns).
DEATH_TIMEOUT = 5.0


def _await_death(pids: Iterable[int]) -> None:
    """Wait until every process of ``pids`` is gone or a zombie: SIGKILL is delivered when
    the process is next scheduled, which on a loaded machine is after ``kill`` returns, so
    without the wait a killed helper is briefly still running when the run ends."""
    pending = set(pids)
    deadline = time.monotonic() + DEATH_TIMEOUT
    while pending and time.monotonic() < deadline:
        pending = {victim for victim in pending if _exists(victim)}
        if pending:
            time.sleep(0.002)


def _reap(pids: Iterable[int]) -> None:
    for victim in pids:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(victim, os.WNOHANG)


def kill_all(pids: Iterable[int]) -> None:
    for pid in pids:
        kill_tree(pid)


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, number)


def _exists(pid: int) -> bool:
    try:
        state = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return False
    return state[state.rfind(")") + 2 : state.rfind(")") + 3] != "Z"


def cpu_seconds(pid: int) -> float | None:
    """CPU time used so far by ``pid`` and its descendants (``None`` without ``/proc``).

    Zombies are left out; a child that exited and was reaped has its time counted into its
    parent's ``/proc`` entry by the kernel only for the parent's children accounting, which
    schedstat does not include — so measure across a request, while the program lives.
    """
    if not (_PROC / str(pid)).exists():
        return None
    total = 0
    for process in (pid, *descendants(pid)):
        tasks = _PROC / str(process) / "task"
        with contextlib.suppress(OSError):
            for task in tasks.iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


#: What each open ``contained()`` block found below this process when it began.
_BEFORE: list[set[int]] = []


@contextlib.contextmanager
def contained() -> Iterator[None]:
    """Make this process a subreaper for the block, and kill on the way out every process
    that appeared below it during the block (a detached grandchild of an adapter program
    included) — except multiprocessing's own resource tracker, which this process owns."""
    become_subreaper()
    _BEFORE.append(set(descendants(os.getpid())))
    try:
        yield
    finally:
        kill_strays()
        _BEFORE.pop()


def kill_strays() -> None:
    """Kill every process that appeared below this one since the innermost ``contained()``
    began. Call it before writing anything a stray could overwrite (the report): a process
    an adapter detached may be waiting for that file to appear."""
    keep = (_BEFORE[-1] if _BEFORE else set()) | _resource_tracker()
    for pid in descendants(os.getpid()):
        if pid not in keep and _exists(pid):
            kill_tree(pid)
    _reap(set(descendants(os.getpid())) - keep)


def _resource_tracker() -> set[int]:
    try:
        from multiprocessing import resource_tracker

        pid = resource_tracker._resource_tracker._pid  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        return set()
    return {pid} if pid else set()


def resident_bytes(pid: int, *, peak: bool = False) -> int | None:
    """Resident memory of ``pid`` and its descendants (``None`` without ``/proc``); with
    ``peak``, the sum of each one's highest resident memory since ``reset_peak`` (``VmHWM``:
    the kernel keeps it, so a short burst between two readings is not missed)."""
    field = "VmHWM:" if peak else "VmRSS:"
    total = 0
    found = False
    for process in (pid, *descendants(pid)):
        with contextlib.suppress(OSError, ValueError, IndexError):
            for line in (_PROC / str(process) / "status").read_text().splitlines():
                if line.startswith(field):
                    total += int(line.split()[1]) * 1024
                    found = True
    return total if found else None


def reset_peak(pid: int) -> bool:
    """Set the peak resident memory of ``pid`` and its descendants to what they use now
    (``/proc/PID/clear_refs``, Linux 4.0+); whether it worked for every one of them."""
    processes = (pid, *descendants(pid))
    for process in processes:
        try:
            (_PROC / str(process) / "clear_refs").write_text("5")
        except OSError:
            return False
    return True
