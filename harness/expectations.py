"""Expectations: the known failures an implementation declares in its own repository.

A TOML file, kept beside the parser's code, turns known failures into strict expected
failures (like wptrunner metadata or vLLM's strict xfail lists): a listed failure does not
fail the run, but a listed failure that no longer happens does — so a fixed bug must have
its entry removed, and coverage never silently drops. And a listed failure that now fails
*differently* fails too: each entry records a fingerprint of the failure it was written for
(the check, the kind of difference, the normalized actual outcome on the minimal chunking),
so a new bug hiding behind a known (case, check) pair is reported as *changed*.

    [meta]
    implementation = "lmdeploy"          # who the file was made for: applying it to
    version = "0.18.0"                   # another implementation or version warns
    unsupported_dialects = ["gpt_oss"]
    unsupported_features = ["char-splits"]
    notes = ["Tags are assumed to arrive whole: the character-split tier is informative."]

    [[known_failure]]
    case = "qwen3/valid/tool-in-reasoning"   # a case id, or a glob such as "glm47/*"
    check = "result.content"                 # a check id, or a glob
    fingerprint = "fail[content]:3fa2b1c0d9e8"   # written by --update-expectations
    chunking = "two-way"                     # optional: the chunking family (pytest plugin)
    reason = "newline after </tool_call> is dropped"
    issue = "https://github.com/…/issues/123"

    [[known_failure]]
    case = "glm47/pathological/long-string-value"
    check = "perf.linear"                    # a measurement near its bound: it may pass
    fingerprint = "fail"
    intermittent = true                      # a run that passes it leaves it standing

An exact entry is strict per case; a glob entry is a blanket that must match at least one
failure and has no fingerprint. ``--update-expectations`` merges a run into the file: the
entries of cases the run covered are replaced by its failures (reasons and issues kept), the
entries of every other case stay as they were.

An *intermittent* entry (wptrunner's ``expected: [PASS, FAIL]``) is for a measurement that
passes or fails by the run on one machine (``perf.linear`` near its bound, ``run.no-timeout``
near its limit, ``mem.no-leak`` and ``mem.linear`` near their allowance): its failure is
known, and a run that passes it does not call it stale (the report lists it as passed this
run instead). Only a measured check may be intermittent: an outcome that differs from run to
run is a failure of its own (``result.seed-invariant``), not a known one.
``--update-expectations`` keeps an intermittent entry whether or not the run failed it: the
mark is a person's, from several runs.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

from . import json_values
from .checks import BY_ID, FINISH_REASON
from .errors import UsageError

#: Checks whose failure is a measurement against a bound, not an outcome: their fingerprint is
#: the kind only (what they record, timings and memory readings, differs from run to run),
#: and only their exact entries may be intermittent.
_MEASURED = frozenset({"perf.linear", "run.no-timeout", "mem.no-leak", "mem.linear"})
#: Generated case ids name content drawn by the strategies; a run may not draw them all.
GENERATED_PREFIX = "generated/"


class FailureLike(Protocol):
    """What a fingerprint is computed from (``execution.Failure``)."""

    check: str
    status: str
    message: str
    expected: Any
    actual: Any


def fingerprint(failure: FailureLike) -> str:
    """``KIND`` or ``KIND:DIGEST`` — what the failure is, stable across runs of one parser.

    ``KIND`` is the outcome (``fail``, ``error[KeyError]``, ``timeout``, ``crash``) and, for a
    wrong result, which fields differ (``fail[content,tool_calls]``); ``DIGEST`` hashes the
    actual result with what varies from run to run left out (call ids, argument spacing).
    """
    kind = _kind(failure)
    if failure.status != "fail" or failure.check in _MEASURED or failure.actual is None:
        return kind
    normalized = _normalized(failure.actual)
    if failure.check == FINISH_REASON and isinstance(failure.actual, Mapping):
        normalized["finish_reason"] = failure.actual.get("finish_reason")
    # A parser may produce a lone surrogate (JSON's "\ud83d" escape decodes to one): hashed
    # as it is, not refused, or one such output would end the whole run.
    digest = hashlib.sha256(
        json.dumps(normalized, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
    ).hexdigest()[:12]
    return f"{kind}:{digest}"


def fingerprint_kind(value: str) -> str:
    """The kind part of a fingerprint (what the pytest plugin, whose per-family chunkings
    differ from certify's minimal one, compares)."""
    return value.split(":", 1)[0]


def _kind(failure: FailureLike) -> str:
    if failure.status == "error":
        match = re.match(r"([A-Za-z_][\w.]*)(?::|\s|$)", failure.message)
        return f"error[{match.group(1)}]" if match else "error"
    if failure.status != "fail":
        return failure.status
    fields = _differing_fields(failure.expected, failure.actual)
    return f"fail[{','.join(fields)}]" if fields else "fail"


def _differing_fields(expected: Any, actual: Any) -> list[str]:
    if not isinstance(actual, Mapping) or expected is None:
        return []
    candidates = expected if isinstance(expected, list) else [expected]
    best: list[str] | None = None
    for candidate in candidates:
        if not isinstance(candidate, Mapping):
            continue
        fields = [
            name
            for name in ("content", "reasoning", "tool_calls")
            if _field(name, candidate) != _field(name, actual)
        ]
        if best is None or len(fields) < len(best):
            best = fields
    return best or []


def _field(name: str, result: Mapping[str, Any]) -> Any:
    value = result.get(name)
    if name == "reasoning":
        return value or ""
    if name == "tool_calls":
        return [_call(call) for call in value or ()]
    return value


def _call(call: Mapping[str, Any]) -> Any:
    arguments = call.get("arguments")
    if isinstance(arguments, str):
        arguments = json_values.parse(arguments)
        arguments = arguments.raw if isinstance(arguments, json_values.NotJson) else arguments
    return [call.get("name"), _plain(arguments)]


def _plain(value: Any) -> Any:
    """A comparable JSON value made JSON-serializable again (exact decimals as strings)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, Decimal):
        return str(value.normalize())
    if isinstance(value, bool) or value is None or isinstance(value, str | int | float):
        return value
    return repr(value)


def _normalized(actual: Any) -> Any:
    if not isinstance(actual, Mapping):
        return actual
    return {
        "content": actual.get("content"),
        "reasoning": actual.get("reasoning"),
        "tool_calls": [_call(call) for call in actual.get("tool_calls") or ()],
    }


@dataclass
class KnownFailure:
    case: str
    check: str
    reason: str = ""
    issue: str = ""
    #: For the pytest plugin: the chunking family it fails under (``two-way``); empty = any.
    chunking: str = ""
    #: The failure the entry was written for; empty (hand-written) matches any failure.
    fingerprint: str = ""
    #: A measurement that passes or fails by the run: passing, it is not stale.
    intermittent: bool = False
    used: bool = False

    @property
    def is_glob(self) -> bool:
        return any(c in self.case + self.check for c in "*?[")

    def matches(self, case: str, check: str) -> bool:
        return fnmatch.fnmatchcase(case, self.case) and fnmatch.fnmatchcase(check, self.check)

    def covers(self, case_ids: set[str]) -> bool:
        """Whether any of these cases is one the entry speaks about."""
        if not self.is_glob:
            return self.case in case_ids
        return any(fnmatch.fnmatchcase(case, self.case) for case in case_ids)


_ENTRY_FIELDS = ("case", "check", "reason", "issue", "chunking", "fingerprint", "intermittent")
_META_LISTS = ("unsupported_dialects", "unsupported_features", "notes")


@dataclass
class Expectations:
    path: Path | None = None
    meta: dict[str, object] = field(default_factory=dict)
    known: list[KnownFailure] = field(default_factory=list)

    @property
    def unsupported_dialects(self) -> frozenset[str]:
        return frozenset(self.meta.get("unsupported_dialects", ()))  # type: ignore[arg-type]

    @property
    def unsupported_features(self) -> frozenset[str]:
        return frozenset(self.meta.get("unsupported_features", ()))  # type: ignore[arg-type]

    @property
    def notes(self) -> list[str]:
        """Sentences the report shows first: differences by design, how dialects are mapped."""
        notes = self.meta.get("notes", [])
        if isinstance(notes, str):
            return [notes]
        return [str(note) for note in notes] if isinstance(notes, list) else []

    @classmethod
    def load(cls, path: Path, case_ids: Iterable[str]) -> Expectations:
        """Read and validate an expectations file against the corpus and the checks."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise UsageError(f"cannot read expectations file {path}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise UsageError(f"expectations file {path} is not UTF-8 text") from None
        except tomllib.TOMLDecodeError as error:
            raise UsageError(f"expectations file {path} is not valid TOML: {error}") from None
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise UsageError(f"expectations file {path}: [meta] must be a table")
        for key in _META_LISTS:
            value = meta.get(key, [])
            if key == "notes" and isinstance(value, str):
                continue
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise UsageError(f"expectations file {path}: meta.{key} must be a list of strings")
        known_ids = set(case_ids)
        entries = []
        raw_entries = data.get("known_failure", [])
        if not isinstance(raw_entries, list):
            raise UsageError(f"expectations file {path}: known_failure must be an array of tables")
        for position, entry in enumerate(raw_entries):
            where = f"expectations file {path}, known_failure #{position + 1}"
            if not isinstance(entry, dict) or not isinstance(entry.get("case"), str):
                raise UsageError(f"{where}: needs a 'case' (a case id or a glob)")
            for key in _ENTRY_FIELDS:
                kind = bool if key == "intermittent" else str
                if key in entry and not isinstance(entry[key], kind):
                    raise UsageError(f"{where}: '{key}' must be a {kind.__name__}")
            unknown = set(entry) - set(_ENTRY_FIELDS)
            if unknown:
                raise UsageError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
            failure = KnownFailure(
                entry["case"],
                entry.get("check", "*"),
                entry.get("reason", ""),
                entry.get("issue", ""),
                entry.get("chunking", ""),
                entry.get("fingerprint", ""),
                entry.get("intermittent", False),
            )
            if failure.intermittent and (failure.is_glob or failure.check not in _MEASURED):
                raise UsageError(
                    f"{where}: only an exact entry of a measured check "
                    f"({', '.join(sorted(_MEASURED))}) may be intermittent: an outcome that "
                    "differs from run to run is a failure of its own"
                )
            if not failure.is_glob:
                generated = failure.case.startswith(GENERATED_PREFIX)
                if failure.case not in known_ids and not generated:
                    raise UsageError(
                        f"{where}: unknown case {failure.case!r} (renamed or removed?)"
                    )
                if failure.check not in BY_ID:
                    raise UsageError(f"{where}: unknown check {failure.check!r}")
            elif failure.fingerprint:
                raise UsageError(f"{where}: a glob entry cannot carry a fingerprint")
            entries.append(failure)
        return cls(path, dict(meta), entries)

    def made_for(self) -> str | None:
        """``name version`` of the implementation the file was made for, if it says."""
        name = self.meta.get("implementation")
        if not name:
            return None
        version = self.meta.get("version")
        return f"{name} {version}" if version else str(name)

    def mismatch(self, implementation: Mapping[str, Any]) -> str | None:
        """A warning when the file was made for another implementation or version."""
        name, version = self.meta.get("implementation"), self.meta.get("version")
        if name and name != implementation.get("name"):
            return (
                f"the expectations file {self.path} was made for {self.made_for()}, "
                f"not for {implementation.get('name')}: its known failures may not apply"
            )
        if name and version and str(version) != str(implementation.get("version")):
            return (
                f"the expectations file {self.path} was made for {self.made_for()}; this is "
                f"version {implementation.get('version')}: regenerate it with "
                "--update-expectations once the differences are understood"
            )
        return None

    def lookup(self, case: str, check: str) -> KnownFailure | None:
        """The entry declaring this (case, check) as known, marking it used."""
        for entry in self.known:
            if entry.matches(case, check):
                entry.used = True
                return entry
        return None

    def entries_passing(self, failed: set[tuple[str, str]], ran: set[str]) -> list[KnownFailure]:
        """Entries that did not fail (XPASS): exact ones whose case ran and did not fail the
        check, glob ones that matched no failure among the cases that ran. Stale, unless
        intermittent or never judged (``Report.classify`` sets those apart)."""
        passing = []
        for entry in self.known:
            if entry.is_glob:
                if not entry.used and entry.covers(ran):
                    passing.append(entry)
            elif entry.case in ran and (entry.case, entry.check) not in failed:
                passing.append(entry)
        return passing


class RecordedFailure(Protocol):
    case: str
    check: str
    message: str
    fingerprint: str


def write_expectations(
    path: Path,
    meta: Mapping[str, object],
    failures: Sequence[RecordedFailure],
    previous: Expectations,
    covered: set[str],
    unjudged: Iterable[KnownFailure] = (),
) -> None:
    """Merge a run into the file.

    Entries about cases outside ``covered`` (the cases the run selected) stay as written;
    for the covered cases one exact entry per failing (case, check) with its fingerprint,
    keeping the reason, issue and intermittent mark already written for that pair, the
    intermittent entries the run passed, and the ``unjudged`` entries (checks a case ended
    before: not passed, so not dropped).
    """
    lines = ["[meta]"]
    for key, value in meta.items():
        lines.append(f"{key} = {_toml_value(value)}")
    failing = {(failure.case, failure.check) for failure in failures}
    not_judged = {(entry.case, entry.check) for entry in unjudged}
    kept = [
        entry
        for entry in previous.known
        if not entry.covers(covered)
        or (entry.intermittent and (entry.case, entry.check) not in failing)
        or (entry.case, entry.check) in not_judged
    ]
    written: dict[tuple[str, str], KnownFailure] = {}
    for failure in failures:
        key = (failure.case, failure.check)
        if key in written:
            continue
        old = next((e for e in previous.known if (e.case, e.check) == key), None)
        written[key] = KnownFailure(
            failure.case,
            failure.check,
            old.reason if old and old.reason else failure.message[:200],
            old.issue if old else "",
            old.chunking if old else "",
            failure.fingerprint,
            old.intermittent if old else False,
        )
    for entry in sorted([*kept, *written.values()], key=lambda e: (e.case, e.check)):
        lines += ["", "[[known_failure]]"]
        for key in _ENTRY_FIELDS:
            value = getattr(entry, key)
            if value or key in ("case", "check"):
                lines.append(f"{key} = {_toml_value(value)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _toml_value(value: object) -> str:
    """``value`` as a TOML value (JSON's string and number syntax is TOML's). A lone
    surrogate, which a reason quoting a parser's output may hold and neither UTF-8 nor a
    TOML escape can carry, is written as the text of its escape."""
    if isinstance(value, str):
        value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return json.dumps(value, ensure_ascii=False)
