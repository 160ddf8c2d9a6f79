"""``toolconform certify``: isolation, exit statuses, expectations, reports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from toolconform.harness.adapters.subprocess import Launch
from toolconform.harness.cases import Case, load_cases
from toolconform.harness.cli import main
from toolconform.harness.execution import CaseResult
from toolconform.harness.pool import PoolConfig, run_cases
from toolconform.harness.report import write_report

CASES = {case.id: case for case in load_cases()}
REPORT_SCHEMA = json.loads(
    (Path(__file__).parents[2] / "harness" / "report.schema.json").read_text()
)
BUG = "tests.planted_bugs"


def run_to_case_limit(case: Case, spec: str, case_timeout: float) -> CaseResult:
    """One case in one worker, with a feed limit so far off that only the case limit can end
    what the parser does."""
    config = PoolConfig(
        adapter_spec=spec,
        jobs=1,
        case_timeout=case_timeout,
        feed_timeout=600,
        robustness=False,
    )
    got: list[CaseResult] = []
    run_cases([case], config, got.append)
    (result,) = got
    return result


def certify(capsys, *args: str) -> tuple[int, str]:
    """Exit status and everything printed (the summary on stdout, notes on stderr)."""
    status = main(["certify", "--jobs", "2", *args])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_a_parser_that_allocates_without_bound_is_recorded_and_the_run_goes_on() -> None:
    hoarding = CASES["qwen3/invalid/truncated-arguments"]  # contains "Bei"
    healthy = CASES["qwen3/valid/stray-think-close-in-content"]
    config = PoolConfig(
        adapter_spec=f"{BUG}:allocates_without_bound",
        jobs=1,
        robustness=False,
        launch=Launch(memory_limit=2 * 2**30),
    )
    got = []
    run_cases([hoarding, healthy], config, got.append)
    by_case = {result.case: result for result in got}
    # Under the address-space limit the parser gets a MemoryError or its worker dies (or, on
    # a loaded machine, filling memory outlasts the per-feed limit): each is recorded.
    outcomes = {(f.check, f.status) for f in by_case[hoarding.id].failures}
    recorded = {("run.no-error", "error"), ("run.no-crash", "crash"), ("run.no-timeout", "timeout")}
    assert outcomes & recorded, outcomes
    assert not by_case[healthy.id].failures


def test_a_worker_that_hangs_or_dies_is_recorded_and_the_run_goes_on() -> None:
    hanging = CASES["qwen3/invalid/truncated-arguments"]  # contains "Bei"
    healthy = CASES["qwen3/valid/stray-think-close-in-content"]
    results = []
    # The parser that dies gets a longer case limit: on a loaded machine, starting the
    # worker and its adapter program alone once took longer than 8 s (a timeout, not the
    # crash this test is about).
    for spec, status, limit in (
        (f"{BUG}:hangs_uninterruptibly", "timeout", 8),
        (f"{BUG}:dies", "crash", 60),
    ):
        config = PoolConfig(adapter_spec=spec, jobs=1, case_timeout=limit, robustness=False)
        got = []
        run_cases([hanging, healthy], config, got.append)
        by_case = {result.case: result for result in got}
        (failure,) = by_case[hanging.id].failures
        assert failure.status == status
        assert not by_case[healthy.id].failures  # the replacement worker ran it
        results += got
    assert len(results) == 4


def test_a_case_killed_at_its_limit_keeps_the_failures_found_before() -> None:
    """The worker reports its result after each stage of a case, so the parent that kills it
    at the case's wall-clock limit records what the finished stages found, not the timeout
    alone (before: a pathological case past its limit lost its wrong results; vLLM's
    published report had four such cases)."""
    case = CASES["qwen3/pathological/content-full-of-angle-brackets"]  # 6.5 KB to 52 KB
    result = run_to_case_limit(case, f"{BUG}:loses_content_then_hangs_on_long_outputs", 30)
    failed = {(f.check, f.status) for f in result.failures}
    assert ("run.no-timeout", "timeout") in failed
    assert ("result.content", "fail") in failed, failed
    assert result.checks["result.content"] == "fail" and result.runs > 0


def test_a_case_past_its_limit_is_stopped_though_it_would_end_within_the_second() -> None:
    """The pool woke once a second or at a worker's message, so a case that ended within
    the second was never seen past a shorter limit: a 0.25 s limit let a case of three
    0.1 s sleeps and its runs (about 0.5 s) pass. It now wakes at the first limit to pass."""
    case = CASES["step3/valid/markup-in-value"]  # tag-aligned: no tokenizer to load
    (failure,) = run_to_case_limit(case, f"{BUG}:sleeps_once", 0.25).failures
    assert (failure.check, failure.status) == ("run.no-timeout", "timeout")
    assert "the case took longer than 0.25 s" in failure.message


def test_the_reference_certifies_clean(capsys, tmp_path: Path) -> None:
    status, err = certify(capsys, "--dialect", "qwen25", "--report", str(tmp_path / "report"))
    assert status == 0, err
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    jsonschema.validate(report, REPORT_SCHEMA)
    assert report["verdict"] == "pass" and report["totals"]["unexpected_failures"] == 0
    assert report["implementation"]["name"] == "toolconform-reference"
    assert {p.name for p in (tmp_path / "report").iterdir()} == {
        "report.json",
        "report.md",
        "report.html",
        "badge.svg",
    }


def test_a_buggy_parser_fails_with_a_report_of_minimal_chunkings(capsys, tmp_path: Path) -> None:
    report_dir = tmp_path / "report"
    status, _ = certify(
        capsys,
        "--adapter",
        f"{BUG}:drops_text_after_block",
        "--dialect",
        "qwen3",
        "--no-robustness",
        "--report",
        str(report_dir),
    )
    assert status == 1
    report = json.loads((report_dir / "report.json").read_text())
    jsonschema.validate(report, REPORT_SCHEMA)
    failures = [f for f in report["failures"] if f["check"] == "result.content"]
    assert failures and all(len(f["chunking"]["chunks"]) == 1 for f in failures)
    assert "text-after-block" in {f["case"].split("/")[-1] for f in failures}
    markdown = (report_dir / "report.md").read_text()
    assert "Unexpected failures" in markdown and "Minimal chunking" in markdown
    assert "result.content" in (report_dir / "report.html").read_text()


def test_expectations_turn_known_failures_into_strict_expected_failures(
    capsys, tmp_path: Path
) -> None:
    expectations = tmp_path / "expectations.toml"
    args = [
        "--adapter",
        f"{BUG}:drops_text_after_block",
        "--dialect",
        "qwen3",
        "--no-robustness",
        "--expectations",
        str(expectations),
    ]
    assert certify(capsys, *args, "--update-expectations")[0] == 0
    text = expectations.read_text()
    assert "[[known_failure]]" in text and 'check = "result.content"' in text
    assert certify(capsys, *args)[0] == 0
    # The reference does not have the bug: every entry is now stale, which fails the run.
    status, err = certify(
        capsys, "--dialect", "qwen3", "--no-robustness", "--expectations", str(expectations)
    )
    assert status == 1 and "stale expectation" in err


def test_known_failures_carry_their_reason_and_the_notes_into_the_report(
    capsys, tmp_path: Path
) -> None:
    expectations = tmp_path / "expectations.toml"
    args = [
        "--adapter",
        f"{BUG}:drops_text_after_block_by_design",
        "--dialect",
        "qwen3",
        "--no-robustness",
        "--expectations",
        str(expectations),
    ]
    first = tmp_path / "first"
    assert certify(capsys, *args, "--update-expectations", "--report", str(first))[0] == 0
    # The report of the run that wrote the file is classified against it.
    report = json.loads((first / "report.json").read_text())
    assert report["verdict"] == "pass" and report["totals"]["unexpected_failures"] == 0
    assert report["totals"]["expected_failures"] > 0
    # A maintainer explains the generated entries by hand.
    reason = "Text after a tool block is dropped: the block ends the message by design."
    issue = "https://github.com/example/parser/issues/7"
    note = "This parser serves tool-only turns."
    text = expectations.read_text().replace("[meta]", f'[meta]\nnotes = ["{note}"]', 1)
    text = re.sub(r"^reason = .*$", f'reason = "{reason}"\nissue = "{issue}"', text, flags=re.M)
    expectations.write_text(text)
    report_dir = tmp_path / "report"
    assert certify(capsys, *args, "--report", str(report_dir))[0] == 0
    report = json.loads((report_dir / "report.json").read_text())
    jsonschema.validate(report, REPORT_SCHEMA)
    known = [f for f in report["failures"] if f["expected_failure"]]
    assert known and {(f["reason"], f["issue"]) for f in known} == {(reason, issue)}
    assert report["notes"] == [note]
    markdown = (report_dir / "report.md").read_text()
    assert f"Known failure: {reason} ({issue})" in markdown
    page = (report_dir / "report.html").read_text()
    assert f"<strong>Known failure:</strong> {reason} ({issue})" in page
    for rendered in (markdown, page):
        assert note in rendered and "hermes tool parser, blocks end messages" in rendered


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--adapter", "nope"], "unknown adapter 'nope'"),
        (["--adapter", "no_such_module:factory"], "cannot import adapter module 'no_such_module'"),
        (["--adapter", "json:nope"], "module 'json' has no attribute 'nope'"),
        (["--dialect", "klingon"], "unknown dialect 'klingon'"),
        (["--update-expectations"], "--update-expectations needs --expectations FILE"),
        (["--expectations", "missing.toml"], "cannot read expectations file missing.toml"),
    ],
)
def test_usage_errors_are_one_line_and_status_2(
    capsys, monkeypatch, tmp_path, args, message
) -> None:
    monkeypatch.chdir(tmp_path)
    status, err = certify(capsys, *args)
    assert status == 2 and message in err and "Traceback" not in err


def test_an_expectations_entry_for_an_unknown_case_is_a_usage_error(capsys, tmp_path: Path) -> None:
    path = tmp_path / "e.toml"
    path.write_text('[[known_failure]]\ncase = "qwen3/valid/renamed"\ncheck = "result.content"\n')
    status, err = certify(capsys, "--expectations", str(path))
    assert status == 2 and "unknown case 'qwen3/valid/renamed'" in err


def test_a_lone_surrogate_a_parser_produced_is_written_as_its_escape(tmp_path: Path) -> None:
    """JSON's ``"\\ud83d"`` decodes to a lone surrogate, which UTF-8 cannot carry: the report
    is still written, and its JSON reads back the same value."""
    text = json.dumps({"name": "\ud83d"}, ensure_ascii=False)
    write_report(tmp_path / "report", [("report.json", text), ("report.md", "name `\ud83d`")])
    assert json.loads((tmp_path / "report" / "report.json").read_text()) == {"name": "\ud83d"}
    assert (tmp_path / "report" / "report.md").read_text() == "name `\\ud83d`"


def test_kind_selects_cases_of_those_kinds_only(capsys, tmp_path: Path) -> None:
    selection = ["--dialect", "qwen25", "--kind", "impl", "--kind", "invalid"]
    status = main(
        ["certify", *selection, "--jobs", "1", "--no-robustness", "--report", str(tmp_path)]
    )
    capsys.readouterr()
    assert status == 0
    report = json.loads((tmp_path / "report.json").read_text())
    kinds = {case["kind"] for case in report["cases"]}
    assert kinds == {"impl", "invalid"}  # and no generated case, which would be valid


def test_a_report_directory_keeps_the_files_that_are_not_the_report(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("how these were made")
    (tmp_path / "full").mkdir()
    write_report(tmp_path, [("report.md", "old")])
    write_report(tmp_path, [("report.md", "new")])
    assert (tmp_path / "report.md").read_text() == "new"
    assert (tmp_path / "README.md").read_text() == "how these were made"
    assert (tmp_path / "full").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "full", "report.md"]


def test_each_worker_keeps_to_its_own_tokenizers_while_others_are_left() -> None:
    """Loading a dialect's tokenizer costs a worker one to two seconds, once: cases given
    in corpus order made every worker load every tokenizer (68 invalid cases of six
    dialects: 18.8 s with two workers; 13.1 s kept apart)."""
    from toolconform.harness.pool import _Queue

    cases = [
        CASES[case_id]
        for case_id in sorted(CASES)
        if case_id.split("/")[0] in ("glm47", "qwen3", "hermes")
    ]
    family = {"glm47": "glm", "qwen3": "qwen", "hermes": "qwen"}
    queue = _Queue(cases, lambda case: family[case.dialect])
    workers: dict[str, str | None] = {"first": None, "second": None}
    given: dict[str, list[str]] = {"first": [], "second": []}
    while queue:
        for name in workers:
            if queue:
                busy = [group for other, group in workers.items() if other != name]
                workers[name], case = queue.pop(workers[name], busy)
                given[name].append(family[case.dialect])
    assert sorted(given["first"] + given["second"]) == sorted(family[c.dialect] for c in cases)
    # Given in corpus order, both workers loaded both groups' tokenizers (four loads); now
    # each keeps to its own until it runs out, then helps with the group left (three).
    loads = {(name, group) for name, groups in given.items() for group in groups}
    assert given["first"][0] != given["second"][0] and len(loads) == 3
