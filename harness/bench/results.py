"""Throughput results: the measurements of a run, the figures derived from them, comparisons.

A results file (``bench.json``, versioned) is the data; tables and plots are renderings of
it. Several runs (one per virtualenv: each engine installs in its own) merge into one
report, and two reports compare for regressions.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import __version__
from ..chunkings import Family, labelled
from ..report import machine_info
from ..scaling import fit_exponent

#: 2: chunkings spelt as certify spells them (``aligned:4``, ``pieces:qwen3``,
#: ``pieces×4:qwen3``); schema 1 said ``chars:4``, ``tokens:qwen3``, ``tokens×4:qwen3``.
SCHEMA_VERSION = 2
FLOOR = "noop"


def headline_chunking(names: Iterable[str]) -> str:
    """Of a dialect's chunkings, one real token per chunk where the dialect has a faithful
    tokenizer, else about 4 characters."""
    prefix = f"{Family.PIECES}:"
    return next((c for c in sorted(names) if c.startswith(prefix)), labelled(Family.ALIGNED, 4))


def _respelt(chunking: str) -> str:
    """A schema-1 chunking name as schema 2 spells it (a baseline of an earlier version
    still compares)."""
    family, colon, rest = chunking.partition(":")
    if family == "chars":
        return labelled(Family.ALIGNED, rest)
    if family.startswith("tokens"):
        return f"{Family.PIECES}{family.removeprefix('tokens')}{colon}{rest}"
    return chunking


@dataclass
class BenchRun:
    """The measurements of one or more ``toolconform bench`` invocations."""

    mode: str
    measurements: list[dict[str, Any]] = field(default_factory=list)
    implementations: dict[str, dict[str, Any]] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=machine_info)
    started_at: str = field(
        default_factory=lambda: _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "suite": {"name": "toolconform", "version": __version__},
            "mode": self.mode,
            "started_at": self.started_at,
            "machine": self.machine,
            "implementations": self.implementations,
            "measurements": self.measurements,
            "floors": floor_multiples(self.measurements),
            "scaling": scaling_exponents(self.measurements),
        }

    @classmethod
    def load(cls, path: Path) -> BenchRun:
        data = json.loads(path.read_text(encoding="utf-8"))
        version = data.get("schema_version")
        if version not in (1, SCHEMA_VERSION):
            raise ValueError(
                f"{path}: not a toolconform bench results file (schema {SCHEMA_VERSION})"
            )
        if version == 1:
            for m in data["measurements"]:
                m["chunking"] = _respelt(m["chunking"])
        return cls(
            data["mode"],
            data["measurements"],
            data["implementations"],
            data["machine"],
            data["started_at"],
        )

    @classmethod
    def merge(cls, runs: Iterable[BenchRun]) -> BenchRun:
        """One run of many (each adapter's measurements kept once: the last run wins)."""
        runs = list(runs)
        merged = cls(runs[0].mode, machine=runs[0].machine, started_at=runs[0].started_at)
        seen: dict[tuple, dict[str, Any]] = {}
        for run in runs:
            merged.implementations.update(run.implementations)
            for m in run.measurements:
                seen[_key(m)] = m
        merged.measurements = list(seen.values())
        return merged


def _key(m: dict[str, Any]) -> tuple:
    return (m["adapter"], m["dialect"], m["shape"], m["size"], m["chunking"])


def floor_multiples(measurements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each timed measurement as a multiple of the no-op adapter on the same chunks."""
    floors = {
        (m["dialect"], m["shape"], m["size"], m["chunking"]): m["seconds"]
        for m in measurements
        if m["adapter"] == FLOOR and m["seconds"]
    }
    out = []
    for m in measurements:
        floor = floors.get((m["dialect"], m["shape"], m["size"], m["chunking"]))
        if m["adapter"] != FLOOR and m["seconds"] and floor:
            out.append(
                {
                    **{k: m[k] for k in ("adapter", "dialect", "shape", "size", "chunking")},
                    "multiple": m["seconds"] / floor,
                }
            )
    return out


def scaling_exponents(measurements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per adapter × dialect × chunking: the exponent over the long-string size ladder."""
    ladders: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    for m in measurements:
        if m["shape"] == "long-string" and m["seconds"] and m["status"] in ("ok", "over-budget"):
            ladders[(m["adapter"], m["dialect"], m["chunking"])].append((m["chars"], m["seconds"]))
    out = []
    for (adapter, dialect, chunking), points in sorted(ladders.items()):
        exponent = fit_exponent(sorted(points))
        if exponent is not None:
            out.append(
                {
                    "adapter": adapter,
                    "dialect": dialect,
                    "chunking": chunking,
                    "exponent": round(exponent, 3),
                    "sizes": [int(size) for size, _ in sorted(points)],
                }
            )
    return out


def compare(old: BenchRun, new: BenchRun, *, tolerance: float = 0.10) -> list[dict[str, Any]]:
    """Measurements of both runs side by side; ``regression`` where new is slower by more
    than ``tolerance`` (a fraction), or newly a mismatch."""
    before = {_key(m): m for m in old.measurements}
    rows = []
    for m in new.measurements:
        previous = before.get(_key(m))
        if previous is None:
            continue
        row = {k: m[k] for k in ("adapter", "dialect", "shape", "size", "chunking")}
        row["old_us_per_chunk"] = previous.get("us_per_chunk")
        row["new_us_per_chunk"] = m.get("us_per_chunk")
        if previous["status"] == "ok" and m["status"] == "mismatch":
            row["verdict"] = "regression"
            row["note"] = "now a mismatch: " + (m.get("message") or "")
        elif row["old_us_per_chunk"] and row["new_us_per_chunk"]:
            ratio = row["new_us_per_chunk"] / row["old_us_per_chunk"]
            row["ratio"] = ratio
            row["verdict"] = (
                "regression"
                if ratio > 1 + tolerance
                else "improvement"
                if ratio < 1 - tolerance
                else "same"
            )
        else:
            row["verdict"] = "n/a"
        rows.append(row)
    return rows
