"""A certificate no adapter can forge or break: hostile adapters of our own, each run through
``toolconform certify``. Every run completes, records the right outcome, leaves no process
behind and writes a complete report; no cheat passes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from multiprocessing import resource_tracker
from pathlib import Path

import pytest

from toolconform.harness.adapters import subprocess as programs
from toolconform.harness.cli import main
from toolconform.harness.processes import descendants

HOSTILE = "tests.hostile_adapters"
PROGRAM = f"{sys.executable} {Path(__file__).parents[1] / 'protocol_program.py'}"
# A must-level case whose output contains "Bei" (hostile adapters act on it) and a plain one.
BEI = "qwen3/invalid/truncated-arguments"
PLAIN = "qwen3/valid/text-after-block"
SMALL = ["--case", BEI, "--case", PLAIN, "--generated", "0", "--no-robustness", "--jobs", "1"]


def certify(capsys, directory: Path, *args: str) -> tuple[int, dict, str]:
    status = main(["certify", *SMALL, "--report", str(directory), *args])
    captured = capsys.readouterr()
    path = directory / "report.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    return status, data, captured.out + captured.err


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rfind(")") + 2] != "Z"


def no_process_left_behind(before: set[int]) -> list[int]:
    """Processes below this one that were not there before, but for multiprocessing's
    resource tracker: certify's worker pool starts it once per process, and it stays on
    purpose (whether it is new depends on which tests ran before in this process)."""
    tracker = resource_tracker._resource_tracker._pid  # type: ignore[attr-defined]
    return [
        pid
        for pid in descendants(os.getpid())
        if pid not in before and pid != tracker and alive(pid)
    ]


@pytest.fixture
def marks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "marks"
    directory.mkdir()
    monkeypatch.setenv("TOOLCONFORM_TEST_MARKS", str(directory))
    return directory


@pytest.mark.parametrize(
    "factory", ["forges_verdicts", "rewrites_the_report", "replays_expected_answers"]
)
def test_a_parser_cannot_forge_its_verdict(capsys, tmp_path: Path, factory: str) -> None:
    status, data, _ = certify(capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:{factory}")
    assert status == 1
    assert data["verdict"] == "fail" and data["gate"]["reasons"]
    assert data["conformance"]["must"]["passed"] == 0
    assert data["isolation"] == "self-attested"


def test_exit_at_import_is_not_a_pass(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TOOLCONFORM_TEST_EXIT_IMPORT", "1")
    status, data, out = certify(capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:reference")
    assert status == 2 and not data
    assert "could not start" in out or "failed the handshake" in out


def test_a_hang_in_import_is_a_usage_error_in_bounded_time(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TOOLCONFORM_TEST_HANG_IMPORT", "1")
    monkeypatch.setattr(programs, "HELLO_TIMEOUT", 3.0)
    before = set(descendants(os.getpid()))
    status, _, out = certify(capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:reference")
    assert status == 2 and "failed the handshake: no reply within 3 s" in out
    assert not no_process_left_behind(before)


def test_a_detached_process_cannot_rewrite_the_report(capsys, tmp_path, marks, monkeypatch):
    report = tmp_path / "r"
    monkeypatch.setenv("TOOLCONFORM_TEST_REPORT", str(report))
    status, _, _ = certify(capsys, report, "--adapter", f"cmd:{PROGRAM} detach")
    assert status == 0
    pids = [int(line) for line in (marks / "pids").read_text().split()]
    assert pids and not any(alive(pid) for pid in pids)
    before = (report / "report.json").read_text()
    time.sleep(4)  # the detached process would have written by now
    assert (report / "report.json").read_text() == before
    assert json.loads(before)["adapter"] == f"cmd:{PROGRAM} detach"


def test_helpers_a_wrapped_program_starts_do_not_outlive_the_run(capsys, tmp_path, marks):
    before = set(descendants(os.getpid()))
    status, _, _ = certify(capsys, tmp_path / "r", "--adapter", f"cmd:sh -c '{PROGRAM} spawn'")
    assert status == 0
    pids = [int(line) for line in (marks / "pids").read_text().split()]
    assert pids and not any(alive(pid) for pid in pids)
    assert not no_process_left_behind(before)


def test_a_worker_that_cannot_restart_loses_its_case_not_the_run(
    capsys, tmp_path, marks, monkeypatch
) -> None:
    # Imports: certify's handshake, the first worker; the replacement after the crash fails.
    monkeypatch.setenv("TOOLCONFORM_TEST_FAIL_AGAIN", "1")
    status, data, _ = certify(
        capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:dies_then_cannot_restart",
        "--case", "qwen3/valid/single-call-after-content",
    )  # fmt: skip
    assert status == 1
    by_case = {case["id"]: case for case in data["cases"]}
    assert len(by_case) == 3  # every case has a result
    messages = [f["message"] for f in data["failures"]]
    assert any("killed by" in m or "exited with status 9" in m for m in messages), messages
    assert any("could not start the adapter" in m and "import number" in m for m in messages)


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ("list-name", "name must be a string, got ['x']"),
        ("dict-id", "id must be a string, got {'x': 1}"),
        ("bool-index", "non-negative integer index, got True"),
        ("none", "must return a list of deltas, got None"),
        ("number-content", "content must be a string, got 7"),
        ("parse-only", "the non-streaming result: tool_calls must be a list, got 'nope'"),
    ],
)
def test_garbage_is_a_contract_failure_never_a_harness_crash(
    capsys, tmp_path, monkeypatch, shape, message
) -> None:
    monkeypatch.setenv("TOOLCONFORM_TEST_SHAPE", shape)
    status, data, _ = certify(capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:returns_garbage")
    assert status == 1
    contract = [f for f in data["failures"] if f["check"] == "run.contract"]
    assert contract and all(f["status"] == "contract" for f in contract)
    assert any(message in f["message"] for f in contract), [f["message"] for f in contract]
    assert not any("worker process" in f["message"] for f in data["failures"])


def test_a_huge_output_fails_its_case_and_the_run_goes_on(capsys, tmp_path: Path) -> None:
    status, data, _ = certify(
        capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:floods_its_output", "--output-limit", "4"
    )
    assert status == 1
    by_case = {}
    for failure in data["failures"]:
        by_case.setdefault(failure["case"], set()).add(failure["check"])
    assert "run.output-limit" in by_case[BEI]
    assert PLAIN not in by_case  # the other case ran, and passed


def test_a_long_request_allows_a_proportionally_long_reply(capsys, tmp_path: Path) -> None:
    """A reply may be longer than the output limit when its request is: a megabyte's chunks
    give a megabyte's deltas back (full mode's timed runs are 13 MiB for the reference). The
    timed runs of a long string argument reply more than 50 KiB, never 32 times their
    request."""
    status, data, _ = certify(
        capsys, tmp_path / "r", "--adapter", "reference", "--output-limit", "0.05",
        "--case", "qwen3/pathological/long-string-argument",
    )  # fmt: skip
    assert status == 0, [f["message"] for f in data["failures"]]
    assert data["totals"]["cases"] == 3 and not data["failures"]


def test_fake_log_lines_do_not_reach_the_harness_output(capsys, tmp_path: Path) -> None:
    status, _, out = certify(
        capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:prints_fake_log_lines"
    )
    assert status == 0
    assert "9999" not in out and "FAKE" not in out and "\x1b[2J" not in out


def test_an_adapter_cannot_touch_the_users_directory(capsys, tmp_path, monkeypatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "precious.txt").write_text("keep me")
    monkeypatch.chdir(home)
    monkeypatch.syspath_prepend(str(Path(__file__).parents[2]))
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parents[2]))
    status = main(
        ["certify", *SMALL, "--adapter", f"{HOSTILE}:moves_and_deletes", "--report", "out"]
    )
    capsys.readouterr()
    assert status == 0
    assert (home / "precious.txt").read_text() == "keep me"
    assert (home / "out" / "report.json").exists()


@pytest.mark.skipif(programs.sandbox_available() is not None, reason="no bubblewrap here")
def test_only_a_sandbox_keeps_a_parser_from_reading_the_expected_answers(capsys, tmp_path) -> None:
    # Self-attested: the adapter runs as the user, so it can read the corpus from disk and
    # replay the answers. The report says so ('self-attested'); this is what it cannot prove.
    status, data, _ = certify(
        capsys, tmp_path / "r", "--adapter", f"{HOSTILE}:reads_the_corpus", "--case", BEI
    )
    assert data["isolation"] == "self-attested"
    assert data["conformance"]["must"]["passed"] >= 1  # the cheat works here
    # Sandboxed: the corpus is hidden; the cheat parses nothing and fails.
    status, data, _ = certify(
        capsys, tmp_path / "s", "--adapter", f"{HOSTILE}:reads_the_corpus", "--sandbox"
    )
    assert status == 1
    assert data["isolation"] == "sandboxed"
    assert data["conformance"]["must"]["passed"] == 0


def test_sigterm_stops_every_process_and_keeps_the_previous_report(tmp_path: Path) -> None:
    report = tmp_path / "r"
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    command = [sys.executable, "-m", "toolconform.harness.cli", "certify", *SMALL]
    first = subprocess.run(
        [*command, "--report", str(report)], env=environment, capture_output=True, check=False
    )
    assert first.returncode == 0, first.stderr
    previous = (report / "report.json").read_text()
    hanging = subprocess.Popen(
        [*command, "--adapter", f"cmd:{PROGRAM} hang", "--report", str(report)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(descendants(hanging.pid)) < 2:
        time.sleep(0.2)  # wait until its workers and the program are running
    time.sleep(1)
    tree = descendants(hanging.pid)
    assert tree
    hanging.send_signal(signal.SIGTERM)
    assert hanging.wait(timeout=30) == 130
    time.sleep(0.5)
    assert not [pid for pid in tree if alive(pid)]
    assert (report / "report.json").read_text() == previous


def test_verify_report_finds_edits_other_adapters_and_forged_verdicts(
    capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "mine.py"
    module.write_text(
        "from tests.planted_bugs import drops_text_after_block as factory\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(tmp_path), str(Path(__file__).parents[2])])
    )
    report = tmp_path / "r"
    status, data, _ = certify(capsys, report, "--adapter", "mine:factory")
    assert status == 1 and data["adapter_identity"]["files"][0]["path"] == str(module)

    def verify(*extra: str) -> tuple[int, str]:
        code = main(["verify-report", str(report), *extra])
        return code, capsys.readouterr().out

    code, out = verify("--rerun", "2")
    assert code == 0, out
    assert "re-run case(s) give the report's verdicts" in out
    # A report edited to say PASS: its Markdown no longer derives from its JSON...
    markdown = report / "report.md"
    markdown.write_text(markdown.read_text().replace("Gate FAIL", "Gate PASS"))
    code, out = verify()
    assert code == 1 and "report.md: does not derive from report.json" in out
    # ...and one forged consistently (JSON and files) is caught by re-running its cases.
    forged = json.loads((report / "report.json").read_text())
    forged["failures"] = []
    for case in forged["cases"]:
        case["status"] = "pass"
    from toolconform.harness.report_markdown import report_files

    text = json.dumps(forged, ensure_ascii=False, indent=2) + "\n"
    for name, content in report_files(text):
        (report / name).write_text(content, encoding="utf-8")
    code, out = verify("--rerun", "3")
    assert code == 1 and "the report says pass [], here fail" in out
    # The adapter changed since the report was made: its digest says so.
    module.write_text(module.read_text() + "# changed\n", encoding="utf-8")
    code, out = verify()
    assert code == 1 and "its digest differs from the report's" in out


def test_a_report_holding_a_carriage_return_or_a_lone_surrogate_derives_from_its_json(
    capsys, tmp_path: Path
) -> None:
    """Parsers' outputs put both in reports (SGLang's and vLLM's published ones hold them):
    ``write_report`` writes a lone surrogate as its escape and a carriage return as it is.
    verify-report once read the files as text, where the escape and the newline it makes of
    ``\r`` differ from the rendering, and called genuine reports edited."""
    from toolconform.harness.report import write_report
    from toolconform.harness.report_markdown import report_files

    report = tmp_path / "r"
    status, data, _ = certify(capsys, report)
    assert status == 0
    data["notes"] = ["a carriage return\r here, and a lone surrogate \ud83d there"]
    write_report(report, report_files(json.dumps(data, ensure_ascii=False, indent=2) + "\n"))
    code = main(["verify-report", str(report)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "report.md derives from report.json" in out
    assert "report.html derives from report.json" in out


def test_the_process_tree_is_the_same_walked_by_children_or_by_scan(monkeypatch) -> None:
    """A program's tree (its children and theirs) is what CPU time, memory and kill are
    counted over: the fast walk over the kernel's children lists finds what a scan of every
    process finds."""
    from toolconform.harness import processes

    if not processes._CHILDREN_FILES:
        pytest.skip("this kernel does not list a thread's children in /proc")
    tree = subprocess.Popen(
        ["sh", "-c", "sleep 30 & sh -c 'sleep 30 & wait' & wait"], start_new_session=True
    )
    try:
        deadline = time.monotonic() + 10
        while len(walked := descendants(tree.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(walked) == 3
        monkeypatch.setattr(processes, "_CHILDREN_FILES", False)
        assert sorted(descendants(tree.pid)) == sorted(walked)
    finally:
        processes.kill_tree(tree.pid)
        tree.wait(timeout=10)


def test_a_killed_tree_is_dead_when_kill_tree_returns() -> None:
    """SIGKILL takes effect when the process is next scheduled: on a loaded machine that is
    after ``kill`` returns, and a run that ended then left its adapter's helpers running
    for a moment (seen once in CI's trust-boundary test)."""
    import subprocess

    from toolconform.harness.processes import kill_tree

    for _ in range(20):
        child = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"])
        while len(descendants(child.pid)) < 2:
            time.sleep(0.01)
        tree = [child.pid, *descendants(child.pid)]
        kill_tree(child.pid)
        assert not [pid for pid in tree if alive(pid)]
        child.wait()
