"""The JSON-lines protocol: a Node implementation, and every way a program can misbehave."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolconform.harness.adapters import load_adapter
from toolconform.harness.adapters.subprocess import Launch
from toolconform.harness.cases import load_cases
from toolconform.harness.cli import main
from toolconform.harness.execution import CaseExecutor, feed_chunking
from toolconform.harness.protocol import problems

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = f"{sys.executable} {Path(__file__).parents[1] / 'protocol_program.py'}"
CASES = {case.id: case for case in load_cases()}
BEI = CASES["qwen3/invalid/truncated-arguments"]  # its output contains "Bei"
PLAIN = CASES["qwen3/valid/stray-think-close-in-content"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_adapter_certifies_through_the_protocol(tmp_path) -> None:
    adapter = f"cmd:node {ROOT / 'examples' / 'node-adapter' / 'adapter.mjs'}"
    # The example holds each call until its close tag: its stream.progressive failures are
    # recorded, and any other failure (or a changed one) fails this test.
    expectations = ROOT / "examples" / "node-adapter" / "expectations.toml"
    # The command a user runs, in a process of its own. One worker: a second worker's load on
    # a 2-core machine would skew the timed ladders.
    command = [str(Path(sys.executable).with_name("toolconform")), "certify"]
    completed = subprocess.run(
        [
            *command, "--adapter", adapter, "--dialect", "qwen25", "--expectations",
            str(expectations), "--jobs", "1", "--no-robustness", "--report", str(tmp_path),
        ],
        env={**os.environ, "TOOLCONFORM_VALIDATE_PROTOCOL": "1"},
        capture_output=True,
        check=False,
    )  # fmt: skip
    assert (tmp_path / "report.json").exists(), completed.stderr[-2000:]
    report = json.loads((tmp_path / "report.json").read_text())
    unexpected = [
        f"{f['case']} {f['check']}: {f['message'][:300]}"
        for f in report["failures"]
        if not f["expected_failure"]
    ]
    assert completed.returncode == 0, "\n".join(report["gate"]["reasons"] + unexpected)


def loop_seconds(program: Path, *, outputs: bool) -> float:
    """The seconds the program's own run loop takes (its ``elapsed_ns``: no request or reply
    in it) for qwen25's content-full-of-angle-brackets at 8,000, cut as certify's ladder
    cuts it, twenty runs per request, with and without ``outputs``; best of five."""
    adapter = load_adapter(f"cmd:node {program}")
    try:
        case = CASES["qwen25/pathological/content-full-of-angle-brackets"]
        chunking = CaseExecutor(adapter, robustness=False)._timing_chunking(
            case, case.sized(8_000)[0]
        )
        runs = [
            adapter.factory.run_batch(
                case.dialect, case.request, [{"chunks": list(chunking.chunks)}], repeat=20,
                tokenizer_family=chunking.tokenizer, outputs=outputs,
            )[0]["elapsed_ns"]
            for _ in range(5)
        ]  # fmt: skip
        return min(runs) / 1e9
    finally:
        adapter.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_adapter_drops_the_outputs_of_a_timed_run() -> None:
    """A timed run asks for the count of outputs only (``outputs: false``); a program that
    keeps them anyway makes its runtime's collector copy them, and its CPU time grows faster
    than its parser's: the example's grew 4.7 to 6.6 times over one doubling of this case
    (2026-12-07) and failed perf.linear in CI, until its run loop dropped each output as it
    came (examples/node-adapter/protocol.mjs). Dropped, its loop is faster than one that
    keeps them; kept either way, the two took the same time."""
    program = ROOT / "examples" / "node-adapter" / "adapter.mjs"
    kept, dropped = (loop_seconds(program, outputs=flag) for flag in (True, False))
    assert kept > 2 * dropped, (kept, dropped)


def test_a_well_behaved_program_passes_with_validated_messages() -> None:
    adapter = load_adapter(f"cmd:{PROGRAM}", Launch(validate=True))
    try:
        assert adapter.implementation["name"] == "protocol-program"
        assert adapter.supports("qwen3") and not adapter.supports("glm47")
        result = CaseExecutor(adapter, robustness=False).run(BEI)
        assert not result.failures and result.runs > 5
    finally:
        adapter.close()


def test_a_program_is_told_when_its_output_was_cut() -> None:
    """A program that declares the ``length`` ending gets the last chunk and
    ``finish_reason: "length"`` in ``finish`` (messages checked against the schema), and
    its reply's finish reason is judged: the reference's passes on a call cut mid-arguments."""
    adapter = load_adapter(f"cmd:{PROGRAM} ends", Launch(validate=True))
    try:
        assert adapter.endings == ("step", "with-last-chunk", "length")
        result = CaseExecutor(adapter, robustness=False).run(BEI)
        assert not result.failures
        assert result.checks.get("result.finish-reason") == "pass"
    finally:
        adapter.close()


@pytest.mark.parametrize(
    ("mode", "check", "status", "message"),
    [
        ("garbage", "run.no-crash", "crash", "not JSON"),
        ("die", "run.no-crash", "crash", "exited with status 7"),
        ("wrong-id", "run.no-crash", "crash", "reply id"),
        ("error", "run.no-error", "error", "parser exploded"),
        ("hang", "run.no-timeout", "timeout", "waited"),
    ],
)
def test_misbehaviour_is_recorded_and_the_program_restarted(mode, check, status, message) -> None:
    adapter = load_adapter(f"cmd:{PROGRAM} {mode}")
    try:
        executor = CaseExecutor(adapter, robustness=False, feed_timeout=1.0)
        failure = next(f for f in executor.run(BEI).failures if f.check == check)
        assert failure.status == status and message in failure.message
        assert not executor.run(PLAIN).failures  # the restarted program answers again
    finally:
        adapter.close()


def test_a_skipped_reply_skips_the_case() -> None:
    adapter = load_adapter(f"cmd:{PROGRAM} skip")
    try:
        result = CaseExecutor(adapter).run(PLAIN)
        assert result.skipped == "not today" and not result.failures
    finally:
        adapter.close()


def test_a_program_that_cannot_start_is_a_usage_error(capsys) -> None:
    status = main(["certify", "--adapter", "cmd:/no/such/program --flag"])
    assert status == 2 and "cannot start" in capsys.readouterr().err


def test_messages_are_checked_against_the_published_schema() -> None:
    assert problems("feed", {"cmd": "feed", "id": 1, "session": "s", "text": "x"}) == []
    assert problems("feed", {"cmd": "feed", "id": 1, "session": "s"})  # no text
    reply = {"id": 3, "deltas": [{"tool_calls": [{"index": 0, "function": {"name": "f"}}]}]}
    assert problems("deltas_response", reply) == []
    assert problems("deltas_response", {"id": 3, "deltas": [{"tool_calls": [{"function": {}}]}]})


def test_reference_adapter_loads_by_name() -> None:
    assert load_adapter("reference").implementation["name"] == "toolconform-reference"


def test_the_hosts_feed_limit_stops_a_slow_feed_and_not_a_long_run() -> None:
    """The host's per-feed limit is one timer per run (a system call per feed cost about as
    much as the reference's feed): many short feeds that together outlast it go on, and a
    feed that alone outlasts it is stopped, however many feeds came before — on its CPU
    time when it spins, at three times the limit when it waits."""
    import time

    from toolconform.harness.adapters.limit import FeedLimit, FeedTimeout

    def feed(limit: FeedLimit, seconds: float, *, spin: bool = False) -> None:
        limit.since = time.perf_counter_ns()
        end = time.monotonic() + seconds
        while spin and time.monotonic() < end:
            pass
        if not spin:
            time.sleep(seconds)
        limit.since = None

    with FeedLimit(1.0) as limit:
        for _ in range(15):
            feed(limit, 0.1, spin=True)
    for spin, message in ((True, "used more than 1 s of CPU"), (False, "waited 3 s")):
        started = time.monotonic()
        with pytest.raises(FeedTimeout, match=message), FeedLimit(1.0) as limit:
            for _ in range(8):
                feed(limit, 0.1, spin=spin)
            feed(limit, 60.0, spin=spin)
        assert time.monotonic() - started < 30  # stopped, not slept through


def test_repeated_runs_share_one_budget_and_stop_at_the_first_that_fails() -> None:
    """certify's ladder makes a fast parser's runs of one measurement in one request
    (``repeat``): the budget bounds them together, as it bounds one run, so a slow parser
    is stopped within it instead of after ``repeat`` budgets."""
    import io
    import time

    from toolconform.harness.adapters.host import Host

    case = CASES["qwen3/valid/text-after-block"]
    chunks = [case.output[i : i + 4] for i in range(0, len(case.output), 4)]
    host = Host("tests.planted_bugs:reparses_prefix", io.BytesIO())
    host.hello({})
    request = {"dialect": "qwen3", "request": case.request, "chunkings": [{"chunks": chunks}]}
    (whole,) = host.run({**request, "repeat": 3})["results"]
    assert whole["repetitions"] == 3 and "error" not in whole
    assert len(whole["chunks"]) == len(chunks) + 1  # one run's outputs, not three
    long = (case.output * 40)[: 40 * len(case.output)]
    slow = {**request, "chunkings": [{"chunks": [long[i : i + 4] for i in range(0, len(long), 4)]}]}
    started = time.perf_counter()
    (one,) = host.run({**slow, "budget": 60.0})["results"]
    once = time.perf_counter() - started
    assert "error" not in one
    started = time.perf_counter()
    (stopped,) = host.run({**slow, "repeat": 1000, "budget": 2 * once})["results"]
    assert stopped["error"]["kind"] == "budget" and 2 <= stopped["repetitions"] < 1000
    assert time.perf_counter() - started < 100 * once  # one budget, not a thousand


def test_a_timed_run_asks_for_the_count_of_its_outputs_alone() -> None:
    """certify's timed runs read the time alone: with ``outputs: false`` the host drops each
    output as it comes and replies with their count, so the ladder times the parser rather
    than the keeping and JSON encoding of its deltas (45-67 % of the reference's own parse
    on a pathological case); a program that ignores the flag has its outputs counted."""
    import io

    from toolconform.harness.adapters.host import Host
    from toolconform.harness.chunkings import Chunking
    from toolconform.harness.execution import OK

    case = CASES["qwen3/valid/text-after-block"]
    chunks = [case.output[i : i + 4] for i in range(0, len(case.output), 4)]
    host = Host("reference", io.BytesIO())
    host.hello({})
    request = {"dialect": "qwen3", "request": case.request, "chunkings": [{"chunks": chunks}]}
    (kept,) = host.run(request)["results"]
    (counted,) = host.run({**request, "outputs": False})["results"]
    assert counted["chunks"] == len(kept["chunks"]) == len(chunks) + 1
    assert problems("run", {"cmd": "run", "id": 1, **request, "outputs": False}) == []
    assert problems("run_response", {"id": 1, "results": [counted]}) == []
    adapter = load_adapter("reference")
    try:
        run = feed_chunking(adapter, case, Chunking("timing", tuple(chunks)), timed=True)
        assert run.outcome == OK and run.result is None and run.cpu_seconds > 0
    finally:
        adapter.close()
