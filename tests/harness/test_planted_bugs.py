"""The harness catches each planted bug with the right check and a minimal chunking.

Every adapter in ``tests/planted_bugs.py`` is the reference parser with one fault. For each,
the harness must blame the check that names the fault, show a chunking of the fewest chunks
that exhibits it, and leave the reference itself clean on the same cases.
"""

from __future__ import annotations

import pytest

from toolconform.harness import execution, scaling
from toolconform.harness.adapters import Adapter, load_in_process
from toolconform.harness.cases import Case, Expectation, ExpectedCall, load_cases
from toolconform.harness.chunkings import Family
from toolconform.harness.execution import CaseExecutor, CaseResult

from .. import planted_bugs

CORPUS = {case.id: case for case in load_cases()}
BUGS = "tests.planted_bugs"


def run(factory, case: Case, **options) -> CaseResult:
    adapter = Adapter.from_factory(factory.__name__, factory)
    return CaseExecutor(adapter, robustness=False, **options).run(case)


def failure_of(result: CaseResult, check: str):
    found = [f for f in result.failures if f.check == check]
    assert found, f"{check} not failed; failures: {[(f.check, f.message) for f in result.failures]}"
    return found[0]


def think_case() -> Case:
    return Case(
        id="test/valid/split-think",
        dialect="test_multitoken_think",
        kind="valid",
        level="must",
        description="</think> spans three tokens",
        output="<think>plan</think>Sure.",
        expectations=(Expectation("Sure.", "plan"),),
    )


@pytest.mark.parametrize(
    ("factory", "case_id", "check", "max_chunks"),
    [
        (planted_bugs.drops_text_after_block, "qwen3/valid/text-after-block", "result.content", 1),
        (
            planted_bugs.streams_name_in_pieces,
            "qwen3/valid/single-call-after-content",
            "calls.name-once",
            1,
        ),
        (
            planted_bugs.leaks_tag_prefix,
            "internlm/valid/open-tag-two-tokens",
            "text.no-protocol-leak",
            2,
        ),
        (
            planted_bugs.sparse_indices,
            "qwen3/valid/unknown-name-filtered",
            "calls.dense-indices",
            1,
        ),
        (
            planted_bugs.empty_string_arguments,
            "qwen3/valid/no-arguments-field",
            "calls.arguments-object",
            1,
        ),
        (
            planted_bugs.fresh_id_per_fragment,
            "qwen3/valid/single-call-after-content",
            "calls.stable-id",
            1,
        ),
        (
            planted_bugs.one_id_for_all_calls,
            "qwen25/valid/sequential-calls",
            "calls.unique-ids",
            1,
        ),
        (
            planted_bugs.reads_glimmer_as_spark,
            "muse_glimmer/valid/developer-is-a-tool-channel",
            "result.calls",
            1,
        ),
        (
            planted_bugs.reads_glimmer_as_spark,
            "muse_glimmer/valid/string-parameter-read-as-json",
            "result.calls",
            1,
        ),
        (
            planted_bugs.raises_on_one_chunking,
            "qwen3/valid/single-call-after-content",
            "run.no-error",
            2,
        ),
    ],
)
def test_planted_bug_is_caught_by_the_right_check(factory, case_id, check, max_chunks) -> None:
    case = CORPUS[case_id]
    assert not run(load_in_process("reference").factory, case).failures
    failure = failure_of(run(factory, case), check)
    assert len(failure.chunking.chunks) <= max_chunks, failure.chunking.chunks
    assert "".join(failure.chunking.chunks) == case.output


def test_content_held_back_to_the_end_is_caught_as_not_progressive() -> None:
    case = CORPUS["qwen25/valid/text-after-block"]
    assert not run(load_in_process("reference").factory, case).failures
    result = run(planted_bugs.holds_back_content, case)
    assert {failure.check for failure in result.failures} == {"stream.progressive"}
    assert "content lags the oracle" in failure_of(result, "stream.progressive").message


def test_a_missed_split_think_is_caught_at_the_token_boundary_inside_it() -> None:
    case = think_case()
    assert not run(load_in_process("reference").factory, case).failures
    result = run(planted_bugs.misses_split_think, case)
    for check in ("result.reasoning", "result.content", "text.no-protocol-leak"):
        failure = failure_of(result, check)
        first, second = failure.chunking.chunks
        assert first.endswith(("</", "</think")) and second.startswith(("think>", ">"))


def test_quadratic_reparsing_is_caught_by_the_scaling_case() -> None:
    """The reference passes and the quadratic re-parser fails. The reference is timed up to
    37 KB: in-process, on the ×8 ladder that suffices for the bug (1–9 KB), its times are
    a few milliseconds of the pytest worker's CPU, and once (the whole suite, on 2 busy cores) they
    measured super-linear; the failure message shows what was measured."""
    base = CORPUS["qwen3/pathological/long-string-argument"]

    def grown(sizes: tuple[int, int]) -> Case:
        scaling = type(base.scaling)("@@", "lorem ipsum dolor ", sizes)
        return Case(**{**base.__dict__, "scaling": scaling})

    reference = run(load_in_process("reference").factory, grown((64, 2048)))
    assert "perf.linear" not in {f.check for f in reference.failures}, [
        (f.check, f.message) for f in reference.failures
    ]
    failure = failure_of(run(planted_bugs.reparses_prefix, grown((64, 512))), "perf.linear")
    assert failure.actual["exponent"] > 1.5, failure.message


def test_a_super_linear_parser_is_stopped_at_the_large_size_not_waited_for() -> None:
    base = CORPUS["qwen3/pathological/long-string-argument"]
    # Quadratic re-parsing of ~37 KB in ~4-character chunks would need many minutes.
    scaling = type(base.scaling)("@@", "lorem ipsum dolor ", (64, 2048))
    case = Case(**{**base.__dict__, "scaling": scaling})
    result = run(planted_bugs.reparses_prefix, case)
    failure = failure_of(result, "perf.linear")
    assert "stopped before size" in failure.message
    assert failure.actual["stopped_before"] < 2048  # well before the largest size
    assert "run.no-timeout" not in {f.check for f in result.failures}


def _grown(sizes: tuple[int, int]) -> Case:
    """qwen3's long string argument case between other sizes."""
    base = CORPUS["qwen3/pathological/long-string-argument"]
    scaling_of = type(base.scaling)("@@", "lorem ipsum dolor ", sizes)
    return Case(**{**base.__dict__, "scaling": scaling_of})


def _timed_ladders(monkeypatch, factory, case: Case) -> tuple[CaseResult, list[list[int]]]:
    """The case run (its correctness on the whole response only: the ladders are what is
    looked at), and the sizes of every ladder ``scaling.measure`` timed."""
    ladders: list[list[int]] = []
    measure = scaling.measure

    def recording(sizes, seconds_at, **options):
        ladders.append(list(sizes))
        return measure(sizes, seconds_at, **options)

    monkeypatch.setattr(scaling, "measure", recording)
    return run(factory, case, families=frozenset({Family.WHOLE})), ladders


def test_a_parser_super_linear_below_the_cases_sizes_is_judged_there(monkeypatch) -> None:
    """One run of the quadratic re-parser at an eighth of the case's smallest size (62 of
    500: 1.2 KB) takes more than the noise floor and the next size four times as long, so
    it is timed at 62, 125 and 250 and fails there: none of the case's own sizes is timed
    (there one run took 3 s at 500 and 13 s at 1000, and the case a minute)."""
    case = CORPUS["qwen3/pathological/long-string-argument"]
    assert case.scaling is not None and case.scaling.sizes == (500, 4000)
    result, ladders = _timed_ladders(monkeypatch, planted_bugs.reparses_prefix, case)
    failure = failure_of(result, "perf.linear")
    assert ladders == [[62, 125, 250]], failure.message
    assert failure.actual["below_case_sizes"] is True
    assert "timed below the case's own sizes (500 to 4000)" in failure.message
    assert failure.actual["exponent"] > scaling.SUPER_LINEAR


def test_a_slow_linear_parser_is_timed_on_the_cases_sizes(monkeypatch) -> None:
    """A parser slow enough to be looked at below the case's sizes (one run over the noise
    floor at an eighth of the smallest) but linear passes on the case's own ladder."""
    case = _grown((496, 1984))
    result, ladders = _timed_ladders(monkeypatch, planted_bugs.slow_but_linear, case)
    assert result.checks["perf.linear"] == "pass", result.failures
    assert ladders[-1] == [496, 992, 1984]


def test_a_linear_verdict_below_the_cases_sizes_decides_nothing(monkeypatch) -> None:
    """The probe's two single runs looked super-linear (a load spike on the second: 30 and
    90 ms), so the small sizes were timed as a ladder is; linear there (30, 60, 120 ms), the
    case is timed on its own ladder, not passed on the probe's."""

    class Timer:  # linear times, but the first run at 124 took three times its share
        def __init__(self, executor, case, result, *, repeat=0) -> None:
            self.repeat, self.timed = 1, set()
            self.peaks = type("Peaks", (), {"readings": {}})()
            self.spiked = False

        @property
        def largest(self) -> int:
            return max(self.timed)

        def __call__(self, size: int, limit) -> float:
            self.timed.add(size)
            if size == 124 and not self.spiked:
                self.spiked = True
                return 0.09
            return size * 0.03 / 62

    monkeypatch.setattr(execution, "_Timer", Timer)
    result, ladders = _timed_ladders(monkeypatch, planted_bugs.slow_but_linear, _grown((496, 1984)))
    assert ladders == [[62, 124, 248], [496, 992, 1984]]
    assert result.checks["perf.linear"] == "pass", result.failures


def test_arguments_held_until_the_call_closes_are_not_progressive() -> None:
    value = "a long value streamed as it arrives " * 6
    text = (
        '<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "'
        + value
        + '"}}\n</tool_call>'
    )
    case = Case(
        id="qwen3/valid/long-value",
        dialect="qwen3",
        kind="valid",
        level="must",
        description="a long string argument",
        output=text,
        request={"tools": [{"type": "function", "function": {"name": "write_file"}}],
                 "thinking": False},
        expectations=(
            Expectation(
                "", None, (ExpectedCall("write_file", {"path": "a.txt", "content": value}),)
            ),
        ),
    )  # fmt: skip
    assert not run(load_in_process("reference").factory, case).failures
    failure = failure_of(
        run(planted_bugs.holds_arguments_until_the_end, case), "stream.progressive"
    )
    assert "call arguments lag the oracle" in failure.message


def test_memory_kept_across_responses_or_within_one_fails_its_own_check() -> None:
    """Each parser in a program of its own (memory is measured from outside). One that keeps
    every response leaks (``mem.no-leak``). One that keeps every buffer state of a response
    frees it when the session ends (no leak) and copying memory is fast (``perf.linear``
    mostly passes it), but it takes hundreds of megabytes at the peak of one 72 KB
    response: only ``mem.linear`` sees it. The reference passes both."""
    from toolconform.harness.adapters import load_adapter

    case = CORPUS["qwen3/pathological/long-string-argument"]
    results = {}
    for spec in ("reference", f"{BUGS}:keeps_every_chunk_forever", f"{BUGS}:keeps_every_prefix"):
        adapter = load_adapter(spec)
        try:
            results[spec.rpartition(":")[2]] = CaseExecutor(adapter, robustness=False).run(case)
        finally:
            adapter.close()
    checks = {
        name: (r.checks["mem.no-leak"], r.checks["mem.linear"]) for name, r in results.items()
    }
    assert checks == {
        "reference": ("pass", "pass"),
        "keeps_every_chunk_forever": ("fail", "pass"),
        "keeps_every_prefix": ("pass", "fail"),
    }, {name: r.failures for name, r in results.items()}
    failure = failure_of(results["keeps_every_prefix"], "mem.linear")
    peaks = failure.actual["peak_growth"]
    assert peaks[max(peaks, key=int)] > failure.expected["max_peak_growth"]
    assert "memory grows faster than the output" in failure.message


def test_a_parser_that_fails_only_on_long_outputs_fails_its_pathological_case() -> None:
    """Right at a case's smallest size, raising past 20,000 characters: the ladder breaks
    at the first size above that. The run that broke it is a failure of that size (it was
    taken for a pass with nothing timed: no failure, no ``perf.linear``)."""
    case = CORPUS["qwen3/pathological/long-string-argument"]
    assert len(case.sized(case.scaling.sizes[0])[0]) < 20_000  # its correctness size passes
    result = run(planted_bugs.fails_on_long_outputs, case)
    failure = failure_of(result, "run.no-error")
    assert "OverflowError" in failure.message
    assert sum(len(chunk) for chunk in failure.chunking.chunks) > 20_000
    assert "perf.linear" not in result.checks


def test_peak_memory_is_read_from_the_kernel_after_a_reset() -> None:
    """The peak the kernel keeps (``VmHWM``) catches a burst no reading of the current size
    sees, and a reset starts it afresh: a program that allocated 200 MiB and freed it before
    the reset shows no peak, one that allocates 64 MiB after it does."""
    import subprocess
    import sys

    from toolconform.harness.processes import reset_peak, resident_bytes

    program = (
        "import sys\n"
        "burst = bytearray(200 * 2**20); del burst\n"
        "print('freed', flush=True); sys.stdin.readline()\n"
        "burst = bytearray(64 * 2**20); del burst\n"
        "print('freed', flush=True); sys.stdin.readline()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        child.stdout.readline()
        now = resident_bytes(child.pid)
        assert now is not None and resident_bytes(child.pid, peak=True) > now + 150 * 2**20
        if not reset_peak(child.pid):
            pytest.skip("this system does not let a process's peak memory be reset")
        assert resident_bytes(child.pid, peak=True) < now + 16 * 2**20
        child.stdin.write("\n")
        child.stdin.flush()
        child.stdout.readline()
        assert resident_bytes(child.pid, peak=True) > now + 50 * 2**20
        assert resident_bytes(child.pid) < now + 16 * 2**20
        child.stdin.write("\n")
        child.stdin.flush()
    finally:
        child.wait(timeout=10)


@pytest.mark.parametrize(
    ("growth", "leaks"),
    [
        # a garbage-collected heap: grows 1 MiB per response for 12 responses, then levels off
        (lambda n: 2**20 * min(n, 12), False),
        # a leak: grows 1 MiB per response as long as it runs
        (lambda n: 2**20 * n, True),
    ],
)
def test_only_a_lasting_growth_is_a_leak(monkeypatch, growth, leaks) -> None:
    from toolconform.harness.adapters import load_adapter

    case = CORPUS["qwen3/pathological/long-string-argument"]
    adapter = load_adapter("reference")
    readings = iter(range(1000))
    monkeypatch.setattr(
        adapter.factory, "resident_bytes", lambda peak=False: 50 * 2**20 + growth(next(readings))
    )
    try:
        result = CaseExecutor(adapter, robustness=False).run(case)
    finally:
        adapter.close()
    assert result.checks["mem.no-leak"] == ("fail" if leaks else "pass"), result.failures


def test_a_hang_is_a_timeout_and_stops_the_case() -> None:
    case = CORPUS["qwen3/invalid/truncated-arguments"]
    result = run(planted_bugs.hangs, case, feed_timeout=0.2)
    failure = failure_of(result, "run.no-timeout")
    assert failure.status == "timeout" and len(failure.chunking.chunks) == 1
    assert result.runs == 1  # one timeout settles the case


def test_a_first_fragment_without_type_breaks_identity_first() -> None:
    case = Case(
        id="qwen3/valid/x",
        dialect="qwen3",
        kind="valid",
        level="must",
        description="",
        output='<tool_call>{"name": "f", "arguments": {}}</tool_call>',
        request={"thinking": False},
        expectations=(Expectation("", None, (ExpectedCall("f", {}),)),),
    )

    def no_type(dialect, request):
        session = planted_bugs._Wrapped(dialect, request)
        original = session.transform

        def strip_type(deltas):
            for delta in original(deltas):
                for call in delta.get("tool_calls") or []:
                    call.pop("type", None)
                yield delta

        session.transform = lambda deltas: list(strip_type(deltas))
        return session

    failure = failure_of(run(no_type, case), "calls.identity-first")
    assert "type 'function'" in failure.message


def test_text_that_comes_with_the_end_of_the_stream_is_not_lost() -> None:
    """A parser whose finish never reads the last chunk passes every run that ends with a
    separate step (all that certify ran before endings): only a run that gives it the last
    chunk with finish, as servers send ``finish_reason`` with the last text, shows it."""
    case = CORPUS["qwen25/valid/text-after-block"]
    assert not run(load_in_process("reference").factory, case).failures
    result = run(planted_bugs.ignores_text_with_finish, case)
    failure = failure_of(result, "result.content")
    assert failure.chunking.ending == "with-last-chunk"
    assert failure.chunking.family.startswith("with-last-chunk:")

    def step_only(dialect, request):
        return planted_bugs.ignores_text_with_finish(dialect, request)

    assert not run(step_only, case).failures  # the same parser, never given text with finish


def test_a_call_cut_at_max_tokens_is_reported_as_cut() -> None:
    """A serving layer that turns every finish after a call into ``tool_calls`` tells the
    client that a truncated call is complete; it passes every run that ends with ``stop``,
    and only the ``length`` ending (the output cut at ``max_tokens``) shows it."""
    case = CORPUS["qwen25/invalid/truncated-arguments"]
    assert not run(load_in_process("reference").factory, case).failures
    result = run(planted_bugs.cut_calls_are_complete, case)
    failure = failure_of(result, "result.finish-reason")
    assert failure.chunking.ending == "length"
    assert "'tool_calls', expected 'length'" in failure.message
    assert {f.chunking.ending for f in result.failures} == {"length"}


def test_a_finish_path_that_raises_on_a_cut_call_is_found() -> None:
    """A finish that raises only when the stream was cut inside a call: no ``stop`` run
    reaches it."""
    case = CORPUS["qwen25/invalid/truncated-arguments"]
    result = run(planted_bugs.raises_when_cut_in_a_call, case)
    failure = failure_of(result, "run.no-error")
    assert failure.chunking.ending == "length" and "IndexError" in failure.message

    def stop_only(dialect, request):
        return planted_bugs.raises_when_cut_in_a_call(dialect, request)

    stop_only.endings = ("step", "with-last-chunk")
    assert not run(stop_only, case).failures


def test_a_super_linear_program_is_stopped_when_a_measurements_runs_go_in_one_request() -> None:
    """Through an adapter program that offers ``run`` (here the host), a measurement of
    many short runs is one request (``repeat``), bounded by one budget: the quadratic
    re-parser is still stopped before the largest size, and the reference still passes."""
    from toolconform.harness.adapters import load_adapter

    base = CORPUS["qwen3/pathological/long-string-argument"]
    results, requests = {}, {}
    # From 4 repetitions, where one run of either parser is far below the noise floor.
    for spec, sizes in ((f"{BUGS}:reparses_prefix", (4, 256)), ("reference", (4, 512))):
        scaling = type(base.scaling)("@@", "lorem ipsum dolor ", sizes)
        adapter = load_adapter(spec)
        sent = requests[spec] = []
        run_batch = adapter.factory.run_batch

        def recording(*args, repeat: int = 1, _run=run_batch, _sent=sent, **options):
            _sent.append(repeat)
            return _run(*args, repeat=repeat, **options)

        adapter.factory.run_batch = recording
        try:
            results[spec] = CaseExecutor(adapter, robustness=False).run(
                Case(**{**base.__dict__, "scaling": scaling})
            )
        finally:
            adapter.close()
    failure = failure_of(results[f"{BUGS}:reparses_prefix"], "perf.linear")
    assert failure.actual["runs_per_measurement"] > 1, failure.message
    for spec, repeats in requests.items():  # a measurement's runs went in one request
        assert max(repeats) > 1, (spec, repeats)
    assert failure.actual["stopped_before"] <= 256, failure.message
    assert results["reference"].checks["perf.linear"] == "pass", results["reference"].failures
    assert results["reference"].runs > 100  # its measurements were of many runs each


def test_the_feed_limit_counts_the_feeds_cpu_not_the_machines_load() -> None:
    """A feed kept off the CPU (here: sleeping, as a busy machine deschedules it) is not a
    timeout until it has waited three times the limit; one that spends the limit on the CPU
    is, however briefly the machine made it wait. With a wall-clock limit the first was a
    must-level timeout that the machine's load decided."""
    case = CORPUS["qwen3/invalid/truncated-arguments"]
    waits = run(planted_bugs.waits_in_one_feed, case, feed_timeout=0.3)
    assert "run.no-timeout" not in {f.check for f in waits.failures}, waits.failures
    spins = failure_of(run(planted_bugs.spins, case, feed_timeout=0.3), "run.no-timeout")
    assert "used more than 0.3 s of CPU" in spins.message
    blocked = failure_of(run(planted_bugs.hangs, case, feed_timeout=0.2), "run.no-timeout")
    assert "waited" in blocked.message and "on the CPU" in blocked.message
