"""Expectations: the known failures an implementation declares in its own repository.

A TOML file, kept beside the parser's code, turns known failures into strict expected
failures (like wptrunner metadata or vLLM's strict xfail lists): a listed failure does not
fail the run, but a listed failure that no longer happens does — so a fixed bug must have
its entry removed, and coverage never silently drops.

    [meta]
    implementation = "lmdeploy 0.18.0"
    unsupported_dialects = ["gpt_oss"]
    unsupported_features = ["char-splits"]
    notes = ["Tags are assumed to arrive whole: the character-split tier is informative."]

    [[known_failure]]
    case = "qwen3/valid/tool-in-reasoning"   # a case id, or a glob such as "glm47/*"
    check = "result.content"                 # a check id, or a glob
    chunking = "two-way"                     # optional: the chunking family (pytest plugin)
    reason = "newline after </tool_call> is dropped"
    issue = "https://github.com/…/issues/123"

An exact entry is strict per case; a glob entry is a blanket that must match at least one
failure. ``--update-expectations`` rewrites the file from a run.
"""

from __future__ import annotations

import fnmatch
import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .checks import BY_ID
from .errors import UsageError


@dataclass
class KnownFailure:
    case: str
    check: str
    reason: str = ""
    issue: str = ""
    #: For the pytest plugin: the chunking family it fails under (``two-way``); empty = any.
    chunking: str = ""
    used: bool = False

    @property
    def is_glob(self) -> bool:
        return any(c in self.case + self.check for c in "*?[")

    def matches(self, case: str, check: str) -> bool:
        return fnmatch.fnmatchcase(case, self.case) and fnmatch.fnmatchcase(check, self.check)


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
        except tomllib.TOMLDecodeError as error:
            raise UsageError(f"expectations file {path} is not valid TOML: {error}") from None
        known_ids = set(case_ids)
        entries = []
        for position, entry in enumerate(data.get("known_failure", [])):
            where = f"expectations file {path}, known_failure #{position + 1}"
            if not isinstance(entry, dict) or not isinstance(entry.get("case"), str):
                raise UsageError(f"{where}: needs a 'case' (a case id or a glob)")
            failure = KnownFailure(
                entry["case"],
                entry.get("check", "*"),
                entry.get("reason", ""),
                entry.get("issue", ""),
                entry.get("chunking", ""),
            )
            if not failure.is_glob:
                if failure.case not in known_ids:
                    raise UsageError(
                        f"{where}: unknown case {failure.case!r} (renamed or removed?)"
                    )
                if failure.check not in BY_ID:
                    raise UsageError(f"{where}: unknown check {failure.check!r}")
            entries.append(failure)
        return cls(path, dict(data.get("meta", {})), entries)

    def lookup(self, case: str, check: str) -> KnownFailure | None:
        """The entry declaring this failure as known, marking it used."""
        for entry in self.known:
            if entry.matches(case, check):
                entry.used = True
                return entry
        return None

    def strict_entries_passing(
        self, failed: set[tuple[str, str]], ran: set[str]
    ) -> list[KnownFailure]:
        """Entries that no longer fail (XPASS): exact ones whose case ran and passed the
        check, glob ones that matched no failure among the cases that ran."""
        stale = []
        for entry in self.known:
            if entry.is_glob:
                if not entry.used and any(fnmatch.fnmatchcase(case, entry.case) for case in ran):
                    stale.append(entry)
            elif entry.case in ran and (entry.case, entry.check) not in failed:
                stale.append(entry)
        return stale


def write_expectations(
    path: Path,
    meta: dict[str, object],
    failures: Iterable[tuple[str, str, str]],
    previous: Expectations,
) -> None:
    """Rewrite the file: one exact entry per failure (keeping reasons already written)."""
    lines = ["[meta]"]
    for key, value in meta.items():
        lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    seen: set[tuple[str, str]] = set()
    for case, check, message in sorted(failures):
        if (case, check) in seen:
            continue
        seen.add((case, check))
        old = next((e for e in previous.known if e.case == case and e.check == check), None)
        lines += [
            "",
            "[[known_failure]]",
            f"case = {json.dumps(case, ensure_ascii=False)}",
            f"check = {json.dumps(check)}",
            "reason = "
            + json.dumps(old.reason if old and old.reason else message, ensure_ascii=False),
        ]
        if old and old.issue:
            lines.append(f"issue = {json.dumps(old.issue)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
