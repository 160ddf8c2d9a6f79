"""One finding per distinct failure: a run's failing inputs, deduplicated.

A buggy parser fails on most inputs a fuzzer tries, so a run left alone lists the same bug
hundreds of times (1,839 lines in 20 s for one planted bug). Each new failing input is
replayed to learn which oracle fails, then shrunk for a few seconds with triage's minimiser;
two inputs are the same failure when they fail the same check and shrink to the same minimal
input (dialect and chunks; the request is not shrunk, so it is left out). The first of each
is kept; the files of the others move to ``duplicates/`` beside it, so nothing is lost and
the run reports each failure once.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .decoding import FuzzInput
from .target import Target
from .triage import failure_of, minimise, replay

#: How long one failing input is shrunk to compare it with the others (triage shrinks longer).
MINIMISE_SECONDS = 5.0
DUPLICATES = "duplicates"


@dataclass(frozen=True)
class Distinct:
    """A failure first seen in ``path``: its check, message and minimal input."""

    path: Path
    check: str
    message: str
    minimal: FuzzInput | None


class Findings:
    """The distinct failures of one run, in the order they were found."""

    def __init__(self, target: Target, *, seconds: float = MINIMISE_SECONDS) -> None:
        self.target = target
        self.seconds = seconds
        self.distinct: list[Distinct] = []
        self.duplicates = 0
        self._keys: set[tuple[str, ...]] = set()

    def add(self, path: Path) -> Distinct | None:
        """Judge the finding in ``path``: the new ``Distinct``, or ``None`` for a duplicate
        (its file moved to ``duplicates/``)."""
        data = path.read_bytes()
        finding = replay(self.target, data)
        if finding is None:  # libFuzzer's timeout-/oom- artifacts may not fail on replay
            key: tuple[str, ...] = (path.name.split("-")[0], data.hex())
            distinct = Distinct(path, key[0], "does not fail when replayed", None)
        else:
            minimal = minimise(
                self.target, self.target.decode(data), finding.check, seconds=self.seconds
            )
            key = (finding.check, minimal.dialect, json.dumps(list(minimal.chunks)))
            linear = finding.check == "perf.linear"
            again = failure_of(self.target, minimal, linear=linear, thorough=False)
            same = again is not None and again.check == finding.check
            distinct = Distinct(path, finding.check, (again if same else finding).message, minimal)
        if key in self._keys:
            self.duplicates += 1
            folder = path.parent / DUPLICATES
            folder.mkdir(exist_ok=True)
            os.replace(path, folder / path.name)
            return None
        self._keys.add(key)
        self.distinct.append(distinct)
        return distinct
