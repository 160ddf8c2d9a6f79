"""The suite: which cases a run covers, which it skips and why — one service for certify and
the pytest plugin, so that selection and skip reasons are decided in one place.

A run *selects* cases (dialects, case-id globs, kinds; generated cases drawn for the dialects
that run), then each selected case either runs or is skipped for a reason recorded in every
report: the expectations file declares its dialect or one of its features unsupported
(``declared``). Cases of dialects the adapter does not declare are not run and not counted;
the run lists those dialects. A case the adapter refuses when its session opens is skipped
by the adapter (``adapter``) — decided while running, and a gate failure unless allowed.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..reference import dialect_names
from .cases import Case, load_cases
from .corpus_build import corpus_root
from .errors import UsageError
from .execution import DECLARED, CaseResult
from .expectations import GENERATED_PREFIX, Expectations
from .generated import generated_cases, recorded


@dataclass(frozen=True)
class Selection:
    """What a run is asked to cover."""

    dialects: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    #: Generated cases per dialect (0: the corpus only).
    generated: int = 0

    def matches(self, case: Case) -> bool:
        if self.dialects and case.dialect not in self.dialects:
            return False
        if self.cases and not any(fnmatch.fnmatchcase(case.id, glob) for glob in self.cases):
            return False
        return not (self.kinds and case.kind not in self.kinds)

    def draws_generated(self) -> bool:
        """Generated cases are valid ones; with case globs, only when a glob can name one."""
        if not self.generated or (self.kinds and "valid" not in self.kinds):
            return False
        if self.cases:
            prefix = GENERATED_PREFIX.rstrip("/")
            return any(
                fnmatch.fnmatchcase(prefix, glob.split("/")[0]) or glob.startswith(prefix)
                for glob in self.cases
            )
        return True


@dataclass
class Plan:
    """The cases a run runs, the skipped ones with their reasons, what it leaves out."""

    cases: list[Case] = field(default_factory=list)
    skipped: list[CaseResult] = field(default_factory=list)
    #: Dialects with selected cases (or selected by name) that the adapter does not declare.
    unsupported: set[str] = field(default_factory=set)
    #: The dialects generated cases were run for, and every id recorded for them (run or
    #: not): a generated id of such a dialect that is not recorded no longer exists (the
    #: record was redrawn), so its known failures go when the expectations are updated; a
    #: recorded one that this run left out (``--generated`` below its place) keeps them.
    generated_dialects: set[str] = field(default_factory=set)
    recorded: set[str] = field(default_factory=set)

    def vanished(self, case_ids: Iterable[str]) -> set[str]:
        """The generated ids among ``case_ids`` that the record no longer holds."""
        return {
            case
            for case in case_ids
            if case.startswith(GENERATED_PREFIX)
            and case.count("/") == 2
            and case.split("/")[1] in self.generated_dialects
            and case not in self.recorded
        }


def load_corpus(path: Path) -> list[Case]:
    """The cases of a compiled corpus file; a missing or broken file is a usage error."""
    if not path.exists():
        raise UsageError(f"corpus file {path} does not exist (build it: toolconform corpus build)")
    try:
        return load_cases(path)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise UsageError(
            f"corpus file {path} is not a compiled corpus (cases.jsonl): "
            f"{type(error).__name__}: {error}"
        ) from None


def check_dialects(names: Iterable[str]) -> None:
    known = set(dialect_names())
    for name in names:
        if name not in known:
            raise UsageError(
                f"unknown dialect {name!r}; known dialects: {', '.join(sorted(known))}"
            )


def declared_skip(case: Case, expectations: Expectations) -> str | None:
    """Why the expectations file excludes ``case``, if it does."""
    if case.dialect in expectations.unsupported_dialects:
        return f"dialect {case.dialect!r} is declared unsupported"
    features = expectations.unsupported_features & set(case.features)
    if features:
        return "features declared unsupported: " + ", ".join(sorted(features))
    return None


def plan(
    corpus: Iterable[Case],
    selection: Selection,
    supports: Callable[[str], bool],
    expectations: Expectations,
    *,
    draw: Callable[[str, int], list[Case]] = generated_cases,
) -> Plan:
    """The plan of a run: selected corpus cases, then generated ones, each run or skipped."""
    check_dialects(selection.dialects)
    result = Plan()
    result.unsupported |= {name for name in selection.dialects if not supports(name)}

    def place(case: Case) -> None:
        if not supports(case.dialect):
            result.unsupported.add(case.dialect)
            return
        reason = declared_skip(case, expectations)
        if reason:
            result.skipped.append(
                CaseResult(
                    case.id, case.dialect, case.kind, case.level, skipped=reason, skip_kind=DECLARED
                )
            )
        else:
            result.cases.append(case)

    for case in corpus:
        if selection.matches(case):
            place(case)
    if selection.draws_generated():
        for dialect in _generated_dialects(selection, result.cases, supports, expectations):
            result.generated_dialects.add(dialect)
            result.recorded |= {entry["id"] for entry in recorded(corpus_root()).get(dialect, [])}
            for case in draw(dialect, selection.generated):
                if selection.matches(case):
                    place(case)
    return result


def _generated_dialects(
    selection: Selection, cases: list[Case], supports: Callable[[str], bool], expectations
) -> list[str]:
    """The dialects to draw generated cases for: those selected, or named by a
    ``generated/DIALECT/…`` glob, or else those of the corpus cases that run."""
    if selection.dialects:
        wanted = set(selection.dialects)
    elif selection.cases:
        named = [glob.split("/") for glob in selection.cases if glob.startswith(GENERATED_PREFIX)]
        wanted = {parts[1] for parts in named if len(parts) > 1 and not _is_glob(parts[1])}
        if not named or any(len(parts) < 2 or _is_glob(parts[1]) for parts in named):
            wanted |= set(dialect_names())
    else:
        wanted = {case.dialect for case in cases}
    return sorted(
        name
        for name in wanted & set(dialect_names())
        if supports(name) and name not in expectations.unsupported_dialects
    )


def _is_glob(text: str) -> bool:
    return any(character in text for character in "*?[")
