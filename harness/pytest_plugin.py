"""The pytest plugin: a parser's own repository runs the suite as its CI gate.

    pytest --pyargs toolconform.conformance --toolconform-adapter=mypkg.parsers:factory

generates one test per corpus case × chunking family (``whole``, ``with-last-chunk`` —
skipped for an adapter that takes no text with finish —, ``length`` — skipped for one that
reports no finish reason —, ``two-way``, ``pieces``, ``groups``, ``search``; ``chars`` for
the robustness tier with ``--toolconform-robustness``),
so a failure names the case and the kind of chunking at once, and ``pytest -n auto`` spreads
them over cores. Known failures come from the implementation's expectations file: a test
whose failures are all listed is an expected failure; a listed failure that no longer
happens fails the test when the entry names this chunking family (``chunking = "two-way"``)
and, for entries without one, fails ``toolconform certify --expectations`` (not when the
test's run hung, crashed or broke before the check was judged: that did not pass). A
listed failure of another kind than its entry's fingerprint records fails as *changed*; a
case the adapter refuses in a dialect it supports fails unless
``--toolconform-allow-skips``.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolconform", "toolconform conformance suite")
    group.addoption(
        "--toolconform-adapter",
        default="reference",
        metavar="SPEC",
        help="parser under test: 'reference', module:callable, or cmd:COMMAND",
    )
    group.addoption(
        "--toolconform-dialect",
        action="append",
        default=None,
        metavar="NAME",
        help="only these dialects (repeatable; default: all the adapter supports)",
    )
    group.addoption(
        "--toolconform-case",
        action="append",
        default=None,
        metavar="GLOB",
        help="only matching case ids",
    )
    group.addoption("--toolconform-mode", choices=("quick", "full"), default="quick")
    group.addoption(
        "--toolconform-expectations", type=Path, metavar="FILE", help="known failures (TOML)"
    )
    group.addoption(
        "--toolconform-corpus", type=Path, metavar="FILE", help="compiled corpus (cases.jsonl)"
    )
    group.addoption(
        "--toolconform-feed-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="CPU seconds one feed may take (or three times that waiting)",
    )
    group.addoption(
        "--toolconform-allow-skips",
        action="store_true",
        help="a case the adapter refuses in a dialect it supports is a skip, not a failure",
    )
    group.addoption(
        "--toolconform-robustness",
        action="store_true",
        help="also run the arbitrary-character-split tier (informative, level 'may')",
    )


def _config(config: pytest.Config, name: str) -> Any:
    return config.getoption(f"--toolconform-{name}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "toolconform_case" not in metafunc.fixturenames:
        return
    from .cases import builtin_corpus
    from .chunkings import TOKEN_FAMILIES, Family
    from .suite import Selection, check_dialects, load_corpus

    config = metafunc.config
    cases = load_corpus(_config(config, "corpus") or builtin_corpus())
    # ``append`` options default to None: a shared default list would grow from run to run.
    selection = Selection(
        dialects=tuple(_config(config, "dialect") or ()), cases=tuple(_config(config, "case") or ())
    )
    check_dialects(selection.dialects)
    selected = [case for case in cases if selection.matches(case)]
    families = [*TOKEN_FAMILIES, *([Family.CHARS] if _config(config, "robustness") else [])]
    params = []
    for case in selected:
        for family in [Family.WHOLE] if case.scaling else families:
            # Under pytest-xdist's --dist loadgroup a case's chunking families stay on one
            # worker: its tokenizer and its oracle are loaded once.
            params.append(
                pytest.param(
                    case, family, id=f"{case.id}[{family}]", marks=pytest.mark.xdist_group(case.id)
                )
            )
    metafunc.parametrize(("toolconform_case", "toolconform_family"), params)


@pytest.fixture(scope="session")
def toolconform_adapter(request: pytest.FixtureRequest):
    from .adapters import AdapterError, load_adapter

    try:
        adapter = load_adapter(_config(request.config, "adapter"))
    except AdapterError as error:
        pytest.exit(f"toolconform: {error}", returncode=2)
    yield adapter
    adapter.close()


@pytest.fixture(scope="session")
def toolconform_expectations(request: pytest.FixtureRequest):
    from .cases import builtin_corpus, load_cases
    from .errors import UsageError
    from .expectations import Expectations

    path = _config(request.config, "expectations")
    if path is None:
        return Expectations()
    cases = load_cases(_config(request.config, "corpus") or builtin_corpus())
    try:
        return Expectations.load(path, (case.id for case in cases))
    except UsageError as error:
        pytest.exit(f"toolconform: {error}", returncode=2)


def check_case(
    case, family: str, adapter, expectations, config: pytest.Config, node: pytest.Item
) -> None:
    """Run one case under one chunking family and turn the outcome into a test outcome."""
    node.user_properties.append((_DIALECT, case.dialect))
    from .chunkings import Family
    from .execution import ADAPTER, CaseExecutor
    from .expectations import fingerprint, fingerprint_kind
    from .suite import declared_skip

    if not adapter.supports(case.dialect):
        pytest.skip(f"the adapter does not support dialect {case.dialect!r}")
    if family == Family.WITH_LAST_CHUNK and Family.WITH_LAST_CHUNK not in adapter.endings:
        # Run, it would pass having fed nothing: the family has no chunking for this adapter.
        pytest.skip(
            "the adapter takes no text with finish (declare factory.endings with "
            "'with-last-chunk' to be run with the last chunk given to finish)"
        )
    if family == Family.LENGTH and Family.LENGTH not in adapter.endings:
        pytest.skip(
            "the adapter reports no finish reason (declare factory.endings with 'length' "
            "to be run cut at max_tokens, its reported finish_reason checked)"
        )
    declared = declared_skip(case, expectations)
    if declared:
        pytest.skip(declared)
    executor = CaseExecutor(
        adapter,
        mode=_config(config, "mode"),
        feed_timeout=_config(config, "feed-timeout"),
        families=frozenset({Family(family)}),
    )
    result = executor.run(case)
    if result.skipped:
        if result.skip_kind == ADAPTER and not _config(config, "allow-skips"):
            pytest.fail(
                f"the adapter refused a case of dialect {case.dialect!r}, which it declares it "
                f"supports: {result.skipped} (declare it in the expectations file, or pass "
                "--toolconform-allow-skips)",
                pytrace=False,
            )
        pytest.skip(result.skipped)
    gating = [f for f in result.failures if f.level != "may" or family == Family.CHARS]
    known, unexpected = [], []
    for failure in gating:
        entry = expectations.lookup(failure.case, failure.check)
        failure.fingerprint = fingerprint(failure)
        if entry is None:
            unexpected.append(failure)
        elif entry.fingerprint and fingerprint_kind(entry.fingerprint) != fingerprint_kind(
            failure.fingerprint
        ):
            # The plugin's chunkings are one family's, not certify's minimal one: it compares
            # the kind of failure, not the digest of the actual outcome.
            failure.changed_from = entry.fingerprint
            unexpected.append(failure)
        else:
            known.append(failure)
    if unexpected:
        pytest.fail("\n\n".join(_describe(f) for f in unexpected), pytrace=False)
    stale = [
        entry
        for entry in expectations.known
        if entry.chunking not in ("", "*")
        and not entry.intermittent
        and fnmatch.fnmatchcase(family, entry.chunking)
        and fnmatch.fnmatchcase(case.id, entry.case)
        and not any(entry.matches(f.case, f.check) for f in known)
        # A check the case never judged, a run having hung, crashed or broken first, did not
        # pass (certify's gate lists such an entry as not judged).
        and not result.never_judged(entry.check)
    ]
    if stale:
        pytest.fail(
            "listed as failing under this chunking family, but passed (remove the entry): "
            + "; ".join(f"{e.case} / {e.check}" for e in stale),
            pytrace=False,
        )
    if known:
        pytest.xfail("; ".join(f"{f.check}: {f.message[:120]}" for f in known))


#: Conformance tests that ran (were not skipped) per dialect, counted from the test reports
#: (so under pytest-xdist too, where they reach the controller), for the coverage verdict.
_RAN: dict[str, int] = {}
#: Conformance tests reported at all (skipped ones included).
_SEEN: list[str] = []
_DIALECT = "toolconform_dialect"


def pytest_sessionstart(session: pytest.Session) -> None:
    _RAN.clear()
    _SEEN.clear()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    dialect = dict(report.user_properties).get(_DIALECT)
    if dialect is None or report.when != "call":
        return
    _SEEN.append(dialect)
    if report.outcome != "skipped" or hasattr(report, "wasxfail"):
        _RAN[dialect] = _RAN.get(dialect, 0) + 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """No pass without coverage: a gate whose conformance tests all skipped, or whose
    selected dialect ran nothing, fails — as ``certify`` does."""
    config = session.config
    if hasattr(config, "workerinput"):  # an xdist worker: the controller decides
        return
    if not _SEEN or exitstatus != 0:
        return
    selected = _config(config, "dialect") or ()
    reasons = [
        f"dialect {name} was selected but ran no case" for name in selected if not _RAN.get(name)
    ]
    if not _RAN:
        reasons.insert(0, "no conformance case ran: nothing was certified")
    if reasons:
        session.exitstatus = 1
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        for reason in reasons:
            if reporter is not None:
                reporter.write_line(f"toolconform: {reason}", red=True)


def _describe(failure) -> str:
    import json

    changed = (
        f" — changed: the expectations file recorded {failure.changed_from}, "
        f"this run failed as {failure.fingerprint}"
        if failure.changed_from
        else ""
    )
    return (
        f"{failure.check} ({failure.level}, {failure.status}){changed}: {failure.message}\n"
        f"  minimal chunking ({failure.chunking.family}): "
        f"{json.dumps(list(failure.chunking.chunks), ensure_ascii=False)}\n"
        f"  expected: {json.dumps(failure.expected, ensure_ascii=False)}\n"
        f"  actual:   {json.dumps(failure.actual, ensure_ascii=False)}"
    )
