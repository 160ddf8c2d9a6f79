"""Running a target: under libFuzzer (atheris), or under Hypothesis when atheris is absent.

Both fuzzers leave their findings the same way — one file per failing input, named
``crash-<sha1>`` (or libFuzzer's ``timeout-`` / ``oom-`` / ``slow-unit-``), in the run's
artifact folder — so triage does not care which fuzzer found what. Progress comes back as
``Progress`` records: libFuzzer's status lines are parsed; the Hypothesis fuzzer reports its
own counts (it has no coverage figure).

Inside the fuzzing loop only a sample of the inputs meets the expensive oracles
(``Target.test_one_input``). The inputs worth more are judged by all of them
(``Target.judge``): the seeds and, under libFuzzer, every input it keeps for new coverage —
read from the work corpus as libFuzzer writes it, by this process, uninstrumented.
"""

from __future__ import annotations

import hashlib
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .oracles import Finding
from .target import JUDGED_BESIDE, SAMPLE_VARIABLE, Target

#: Artifact name prefixes libFuzzer writes, and what each means.
ARTIFACT_KINDS = {
    "crash-": "an oracle failed",
    "timeout-": "one input ran longer than -timeout",
    "oom-": "memory over -rss_limit_mb",
    "slow-unit-": "a slow input (-report_slow_units)",
    "leak-": "a leak",
}

# "#1234	NEW    cov: 56 ft: 78 corp: 9/1024b lim: 4 exec/s: 1000 rss: 50Mb …"
_STATUS = re.compile(
    r"^#(?P<execs>\d+)\s+(?P<event>\w+)\s+cov: (?P<cov>\d+) ft: (?P<ft>\d+)"
    r"(?: corp: (?P<corpus>\d+)/\S+)?(?:.*?exec/s: (?P<rate>\d+))?"
)
# Fork mode: "#1234: cov: 56 ft: 78 corp: 9 exec/s 1000 oom/timeout/crash: 0/0/1 time: 5s …"
_FORK_STATUS = re.compile(
    r"^#(?P<execs>\d+): cov: (?P<cov>\d+) ft: (?P<ft>\d+) corp: (?P<corpus>\d+) "
    r"exec/s:? (?P<rate>\d+) oom/timeout/crash: (?P<oom>\d+)/(?P<timeouts>\d+)/(?P<crashes>\d+)"
)


@dataclass
class Progress:
    """What a run has done so far."""

    execs: int = 0
    rate: int = 0
    coverage: int | None = None
    features: int | None = None
    corpus: int | None = None
    seconds: float = 0.0
    #: CPU time the fuzzing used (the fuzzer's processes, or this one): on a shared
    #: machine, executions per CPU-second say more than per wall-clock second.
    cpu_seconds: float = 0.0
    #: Inputs judged by every oracle besides the fuzzing loop's sample — the seeds and
    #: libFuzzer's new-coverage inputs — and the CPU seconds that took (part of
    #: ``cpu_seconds``; under libFuzzer, spent in this process beside the fuzzer's).
    thorough: int = 0
    thorough_seconds: float = 0.0
    findings: list[Path] = field(default_factory=list)


def parse_status(line: str, progress: Progress) -> bool:
    """Update ``progress`` from one libFuzzer output line; True when it was a status line."""
    match = _STATUS.match(line) or _FORK_STATUS.match(line)
    if match is None:
        return False
    groups = match.groupdict()
    progress.execs = int(groups["execs"])
    progress.coverage = int(groups["cov"])
    progress.features = int(groups["ft"])
    if groups.get("corpus"):
        progress.corpus = int(groups["corpus"])
    if groups.get("rate"):
        progress.rate = int(groups["rate"])
    return True


def findings_in(artifacts: Path) -> list[Path]:
    """The finding files in an artifact folder, oldest first."""
    if not artifacts.is_dir():
        return []
    found = [p for p in artifacts.iterdir() if p.name.startswith(tuple(ARTIFACT_KINDS))]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name))


@dataclass
class LibFuzzerRun:
    """One libFuzzer run of an executable target script."""

    script: Path
    seconds: int
    artifacts: Path
    corpus: Path
    seeds: Path
    dictionary: Path
    jobs: int = 1
    #: Go on after a finding (libFuzzer's fork mode, one worker per job); else the run
    #: stops at the first finding, as plain libFuzzer does.
    keep_going: bool = False
    seed: int | None = None
    #: Stop after this many executions (libFuzzer's ``-runs``), ``seconds`` still a cap:
    #: with a seed, the same inputs every time on any machine, where a time budget runs
    #: as many as the machine's load allows (a smoke run that found a new bug only on an
    #: idle machine failed one CI run and passed the next).
    runs: int | None = None
    #: Per-input limit: an input running longer is a hang (``timeout-…``).
    timeout: int = 30
    max_len: int = 4096
    log: Path | None = None
    #: Judges an input by every oracle: ``True`` when it fails. libFuzzer's seeds and each
    #: input it keeps for new coverage are judged so, in this process, as they appear; the
    #: fuzzing loop then leaves its sample to this judge (``target.SAMPLE_VARIABLE``).
    judge: Callable[[bytes], bool] | None = None

    def command(self) -> list[str]:
        options = [
            f"-max_total_time={self.seconds}",
            f"-dict={self.dictionary}",
            f"-artifact_prefix={self.artifacts}/",
            f"-timeout={self.timeout}",
            "-rss_limit_mb=2048",
            f"-max_len={self.max_len}",
            "-print_final_stats=1",
        ]
        if self.seed is not None:
            options.append(f"-seed={self.seed}")
        if self.runs is not None:
            options.append(f"-runs={self.runs}")
        if self.jobs > 1 or self.keep_going:
            # Fork mode: N worker processes share one corpus; findings do not stop it.
            options += [f"-fork={self.jobs}", "-ignore_crashes=1", "-ignore_timeouts=1"]
        return [str(self.script), *options, str(self.corpus), str(self.seeds)]

    def run(self, on_progress: Callable[[Progress], None]) -> tuple[Progress, int]:
        """Run to the end; ``on_progress`` gets every status update. Returns the last
        progress and libFuzzer's exit code."""
        for folder in (self.artifacts, self.corpus, self.seeds):
            folder.mkdir(parents=True, exist_ok=True)
        environment = dict(os.environ)
        # libFuzzer re-runs argv[0] in fork mode: the script's shebang must find this Python.
        bin_dir = str(Path(sys.executable).parent)
        environment["PATH"] = bin_dir + os.pathsep + environment.get("PATH", "")
        if self.judge is not None:
            # Every kept input is judged by every oracle here: the instrumented loop need
            # not spend two thirds of its time on a sample of its own.
            environment[SAMPLE_VARIABLE] = JUDGED_BESIDE
        progress = Progress()
        started = time.monotonic()
        cpu_before = _children_cpu() + time.process_time()
        before = set(findings_in(self.artifacts))
        judged: set[str] = set()
        log = self.log.open("w", encoding="utf-8", buffering=1) if self.log else None
        with subprocess.Popen(
            [sys.executable, *self.command()],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env=environment,
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                if log:
                    log.write(line)
                progress.seconds = time.monotonic() - started
                status = parse_status(line, progress)
                if (
                    status
                    and self._judge_new(judged, progress)
                    and not (self.keep_going or self.jobs > 1)
                ):
                    process.terminate()  # a failure stops a plain run, as libFuzzer's own do
                if status or "Test unit written" in line:
                    progress.findings = [p for p in findings_in(self.artifacts) if p not in before]
                    on_progress(progress)
            code = process.wait()
        if log:
            log.close()
        progress.seconds = time.monotonic() - started
        progress.cpu_seconds = _children_cpu() + time.process_time() - cpu_before
        progress.findings = [p for p in findings_in(self.artifacts) if p not in before]
        return progress, code

    def _judge_new(self, judged: set[str], progress: Progress) -> bool:
        """Judge the seeds and corpus inputs not judged yet; True when one failed (it is
        then written as a finding)."""
        if self.judge is None:
            return False
        failed = False
        for folder in (self.seeds, self.corpus):
            for entry in os.scandir(folder):
                if entry.name in judged:
                    continue
                judged.add(entry.name)
                try:
                    data = Path(entry.path).read_bytes()
                except FileNotFoundError:  # replaced by a smaller input meanwhile
                    continue
                started = time.process_time()
                if self.judge(data):
                    write_finding(self.artifacts, data)
                    failed = True
                progress.thorough += 1
                progress.thorough_seconds += time.process_time() - started
        return failed


def _children_cpu() -> float:
    """CPU seconds of the finished child processes of this one (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def write_finding(artifacts: Path, data: bytes) -> Path:
    """Store a failing input as libFuzzer would (``crash-<sha1 of the bytes>``)."""
    artifacts.mkdir(parents=True, exist_ok=True)
    path = artifacts / f"crash-{hashlib.sha1(data).hexdigest()}"
    path.write_bytes(data)
    return path


def run_hypothesis(
    target: Target,
    seconds: float,
    artifacts: Path,
    on_progress: Callable[[Progress], None],
    *,
    seed: int = 0,
    seeds: Sequence[bytes] = (),
    batch: int = 200,
    max_size: int = 2048,
    stop_after: int | None = None,
    runs: int | None = None,
    keep: Callable[[Path], bool] | None = None,
) -> Progress:
    """Fuzz with Hypothesis-generated bytes through the same decoding, for ``seconds``, or
    until ``runs`` inputs have run (as libFuzzer's ``-runs``: the same inputs on every
    machine, however loaded, since a fixed seed draws the same bytes).

    Runs batches of ``batch`` examples with successive seeds until the time is up; the
    seed inputs are replayed first. Every failing input is written as a finding file and
    counts when ``keep(path)`` says it is a new failure (``findings.Findings.add``; every
    one without ``keep``); the run goes on after one, unless ``stop_after`` findings are in.
    The seeds are judged by every oracle, the generated inputs as the fuzzing loop judges
    them (the expensive oracles on a sample). No coverage guidance: this is the fallback
    fuzzer.
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    progress = Progress()
    started = time.monotonic()
    cpu_started = time.process_time()
    failed: set[bytes] = set()
    # Hypothesis draws mostly a few bytes; half the inputs are of any length up to
    # ``max_size`` instead, so that long outputs are reached too (repetitions the
    # linear-time oracle can time, tag shells longer than a parser's bounds).
    any_length = st.integers(0, max_size).flatmap(lambda n: st.binary(min_size=n, max_size=n))
    inputs = st.binary(max_size=max_size) | any_length

    def running() -> bool:
        done = stop_after is not None and len(progress.findings) >= stop_after
        done = done or (runs is not None and progress.execs >= runs)
        return not done and time.monotonic() - started < seconds

    def one(data: bytes, thorough: bool = False) -> None:
        progress.execs += 1
        started = time.process_time()
        try:
            if thorough:
                target.judge(data)
            else:
                target.test_one_input(data)
        except Finding:
            if data not in failed:
                failed.add(data)
                path = write_finding(artifacts, data)
                if keep is None or keep(path):
                    progress.findings.append(path)
        finally:
            if thorough:
                progress.thorough += 1
                progress.thorough_seconds += time.process_time() - started

    for data in seeds:
        one(data, thorough=True)
    round_number = 0
    while running():

        @hypothesis_seed(seed + round_number)
        @settings(
            max_examples=batch,
            deadline=None,
            database=None,
            phases=(Phase.generate,),
            suppress_health_check=list(HealthCheck),
            derandomize=False,
        )
        @given(inputs)
        def fuzz(data: bytes) -> None:
            if running():
                one(data)

        fuzz()
        round_number += 1
        progress.seconds = time.monotonic() - started
        progress.rate = int(progress.execs / max(progress.seconds, 1e-9))
        on_progress(progress)
    progress.seconds = time.monotonic() - started
    progress.cpu_seconds = time.process_time() - cpu_started
    progress.rate = int(progress.execs / max(progress.seconds, 1e-9))
    return progress
