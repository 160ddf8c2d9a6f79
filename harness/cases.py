"""Cases: a model output, the request it answers, and the result it must parse to.

Cases come from the corpus (human-authored YAML files under ``corpus/<dialect>/<kind>/``,
compiled to one JSON Lines file that any language can read) or are generated from the
strategies with the reference parser as the oracle. A case's id is its path without the
extension and never changes.

Kinds (after JSONTestSuite's y_/n_/i_): ``valid`` must parse to the golden result;
``invalid`` is malformed and must degrade in the declared way; ``impl`` lists the outcomes
an implementation may choose among; ``pathological`` is about time, with a size parameter
and the allowed growth ratio.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..reference.types import FinalResult, ToolCall
from . import json_values
from .json_values import NotJson, arguments_value

KINDS = ("valid", "invalid", "impl", "pathological")
LEVELS = ("must", "should", "may")


@dataclass(frozen=True)
class ExpectedCall:
    """An expected call. ``arguments`` is compared as a JSON value; when ``arguments_raw``
    is given it is authoritative instead: key order and duplicate keys count (JSON compared
    with objects as ordered pair lists, so spacing does not), and text that is not JSON at
    all (a truncated call) must match exactly."""

    name: str
    arguments: Any = None
    arguments_raw: str | None = None


@dataclass(frozen=True)
class Expectation:
    """One acceptable final result."""

    content: str = ""
    reasoning: str | None = None
    calls: tuple[ExpectedCall, ...] = ()
    finish_reason: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Expectation:
        calls = tuple(
            ExpectedCall(call["name"], call.get("arguments"), call.get("arguments_raw"))
            for call in data.get("tool_calls") or ()
        )
        return cls(
            content=data.get("content") or "",
            reasoning=data.get("reasoning"),
            calls=calls,
            finish_reason=data.get("finish_reason"),
        )

    @classmethod
    def from_result(cls, result: FinalResult, *, raw: bool = True) -> Expectation:
        """A result as an expectation: what the reference parsed (generated cases, ``corpus
        new``), or a run that another must equal (``checks.same_result``)."""
        calls = []
        for call in result.calls:
            value = arguments_value(call.arguments)
            if isinstance(value, NotJson):  # not JSON: only the exact text can be expected
                calls.append(ExpectedCall(call.name or "", None, call.arguments))
            else:
                calls.append(ExpectedCall(call.name or "", value, call.arguments if raw else None))
        return cls(
            content=result.content,
            reasoning=result.reasoning,
            calls=tuple(calls),
            finish_reason="tool_calls" if calls else "stop",
        )

    def to_json(self) -> dict[str, Any]:
        calls = []
        for call in self.calls:
            item: dict[str, Any] = {"name": call.name}
            if call.arguments_raw is None or call.arguments is not None:
                item["arguments"] = call.arguments
            if call.arguments_raw is not None:
                item["arguments_raw"] = call.arguments_raw
            calls.append(item)
        return {
            "content": self.content,
            "reasoning": self.reasoning,
            "tool_calls": calls,
            "finish_reason": self.finish_reason,
        }


@dataclass(frozen=True)
class Scaling:
    """A pathological case: ``placeholder`` in the output is filled with ``unit`` × size, for
    sizes from the first to the second (the scaling ladder between them)."""

    placeholder: str
    unit: str
    sizes: tuple[int, int]


@dataclass(frozen=True)
class Case:
    id: str
    dialect: str
    kind: str
    level: str
    description: str
    output: str
    request: dict[str, Any] = field(default_factory=dict)
    expectations: tuple[Expectation, ...] = ()
    features: tuple[str, ...] = ()
    source: str = ""
    provenance: dict[str, Any] = field(default_factory=dict)
    scaling: Scaling | None = None
    origin: str = "corpus"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Case:
        scaling = data.get("scaling")
        return cls(
            id=data["id"],
            dialect=data["dialect"],
            kind=data["kind"],
            level=data["level"],
            description=data["description"],
            output=data["output"],
            request=dict(data.get("request") or {}),
            expectations=tuple(Expectation.from_json(e) for e in data.get("expect") or ()),
            features=tuple(data.get("features") or ()),
            source=data.get("source", ""),
            provenance=dict(data.get("provenance") or {}),
            scaling=Scaling(
                scaling["placeholder"],
                scaling["unit"],
                tuple(scaling["sizes"]),  # type: ignore[arg-type]
            )
            if scaling
            else None,
            origin=data.get("origin", "corpus"),
        )

    def characters_at(self, size: int) -> int:
        """The length of a pathological case's output at one size (without building it)."""
        assert self.scaling is not None
        growth = len(self.scaling.unit) * size - len(self.scaling.placeholder)
        return len(self.output) + growth * self.output.count(self.scaling.placeholder)

    def sized(self, size: int) -> tuple[str, tuple[Expectation, ...]]:
        """A pathological case's output and expectations at one size."""
        assert self.scaling is not None
        filler = self.scaling.unit * size
        placeholder = self.scaling.placeholder

        def fill(value: Any) -> Any:
            if isinstance(value, str):
                return value.replace(placeholder, filler)
            if isinstance(value, list):
                return [fill(v) for v in value]
            if isinstance(value, dict):
                return {k: fill(v) for k, v in value.items()}
            return value

        expectations = tuple(
            Expectation.from_json(fill(expectation.to_json())) for expectation in self.expectations
        )
        return self.output.replace(placeholder, filler), expectations


def expected_matches(expectation: Expectation, result: FinalResult) -> bool:
    """Whether a final result is this expectation (arguments compared as JSON values)."""
    return not differences(expectation, result)


def differences(expectation: Expectation, result: FinalResult) -> list[str]:
    """What differs between the expectation and the result, one line per field."""
    problems = []
    if result.content != expectation.content:
        problems.append(f"content {result.content!r} != expected {expectation.content!r}")
    if (result.reasoning or "") != (expectation.reasoning or ""):
        problems.append(f"reasoning {result.reasoning!r} != expected {expectation.reasoning!r}")
    problems.extend(call_differences(expectation.calls, result.calls))
    return problems


def call_differences(expected: Iterable[ExpectedCall], actual: list[ToolCall]) -> list[str]:
    expected = list(expected)
    if len(expected) != len(actual):
        return [
            f"{len(actual)} tool call(s) {[c.name for c in actual]} != expected "
            f"{len(expected)} {[c.name for c in expected]}"
        ]
    problems = []
    for position, (want, got) in enumerate(zip(expected, actual, strict=True)):
        # A call never named and one named "" are the same to a client (and to the two ways
        # events are made: snapshots drop an empty name, deltas keep it).
        if (got.name or "") != want.name:
            problems.append(f"tool_calls[{position}].name {got.name!r} != expected {want.name!r}")
        if want.arguments_raw is not None:
            # Order and duplicate keys are part of the contract here; spacing is not.
            if not json_values.same(
                json_values.parse(got.arguments, pairs=True),
                json_values.parse(want.arguments_raw, pairs=True),
            ):
                problems.append(
                    f"tool_calls[{position}].arguments {got.arguments!r} != expected "
                    f"{want.arguments_raw!r} (key order and duplicates count)"
                )
        elif not json_values.same(
            json_values.parse(got.arguments), json_values.comparable(want.arguments)
        ):
            problems.append(
                f"tool_calls[{position}].arguments {got.arguments!r} != expected "
                f"{json.dumps(want.arguments, ensure_ascii=False)}"
            )
    return problems


def builtin_corpus() -> Path:
    """The compiled corpus shipped in the package."""
    return Path(str(resources.files("toolconform.corpus") / "dist" / "cases.jsonl"))


def load_cases(path: Path | None = None) -> list[Case]:
    """Cases of a compiled corpus file (JSON Lines); the built-in one by default."""
    path = path or builtin_corpus()
    cases = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                cases.append(Case.from_json(json.loads(line)))
    return cases
