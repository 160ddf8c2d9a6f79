"""A fuzz target: a family's dialects and fragments, a subject, and the oracles, as one call.

``build_target(name)`` gives the target for a family (``json``, ``section`` …) or the
generic ``adapter`` target, whose subject is the adapter named by the environment variable
``TOOLCONFORM_FUZZ_ADAPTER`` (``module:callable`` or ``cmd:…``; ``reference`` by default)
and whose dialects are ``TOOLCONFORM_FUZZ_DIALECTS`` (comma-separated) or every dialect the
adapter supports. ``Target.test_one_input(data)`` is what atheris and Hypothesis call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property

from ...reference import dialect_names, get_dialect
from ..errors import UsageError
from .decoding import FuzzInput, decode
from .families import ADAPTER_TARGET, ALL_FRAGMENTS, DROP, FAMILIES, family_of, target_names
from .oracles import SCALE, Policy, check, protocol_tag_texts
from .shells import SHELLS
from .subjects import AdapterSubject, ReferenceSubject, Subject

ADAPTER_VARIABLE = "TOOLCONFORM_FUZZ_ADAPTER"
DIALECTS_VARIABLE = "TOOLCONFORM_FUZZ_DIALECTS"


@dataclass
class Target:
    name: str
    dialects: tuple[str, ...]
    fragments: tuple[str, ...]
    subject: Subject

    def decode(self, data: bytes, scale: int = 1) -> FuzzInput:
        return decode(data, self.dialects, self.fragments, scale=scale)

    @cached_property
    def _policies(self) -> dict[str, Policy]:
        policies = {}
        for dialect in self.dialects:
            family = family_of(dialect)
            tags = protocol_tag_texts(tuple(get_dialect(dialect).protocol_tags()))
            policies[dialect] = Policy(family.invalid_policy if family else DROP, tags)
        return policies

    def policy(self, dialect: str) -> Policy:
        return self._policies[dialect]

    def test_one_input(self, data: bytes, scale: int = SCALE) -> None:
        """Decode ``data`` and run every oracle; raises ``Finding`` on a failure.

        ``scale`` is how much longer the linear-time oracle makes the repetitions."""
        fuzz_input = self.decode(data)
        check(
            fuzz_input,
            self.subject,
            self.policy(fuzz_input.dialect),
            rescale=lambda factor: self.decode(data, factor),
            scale=scale,
        )


def build_target(name: str, subject: Subject | None = None) -> Target:
    """The target called ``name``; ``UsageError`` naming the known ones otherwise."""
    if name == ADAPTER_TARGET:
        spec = os.environ.get(ADAPTER_VARIABLE, "reference")
        subject = subject or (ReferenceSubject() if spec == "reference" else AdapterSubject(spec))
        return Target(name, _adapter_dialects(subject), ALL_FRAGMENTS, subject)
    family = FAMILIES.get(name)
    if family is None or not family.dialects:
        raise UsageError(f"unknown fuzz target {name!r}; targets: {', '.join(target_names())}")
    return Target(name, family.dialects, family.fragments, subject or ReferenceSubject())


def _adapter_dialects(subject: Subject) -> tuple[str, ...]:
    chosen = os.environ.get(DIALECTS_VARIABLE)
    if chosen:
        names = tuple(part.strip() for part in chosen.split(",") if part.strip())
        unknown = [n for n in names if not _registered(n)]
        if unknown:
            raise UsageError(f"{DIALECTS_VARIABLE}: unknown dialect(s) {', '.join(unknown)}")
        return names
    adapter = getattr(subject, "adapter", None)
    return tuple(
        name
        for name in dialect_names()
        if name in SHELLS and (adapter is None or adapter.supports(name))
    )


def _registered(name: str) -> bool:
    """Whether a dialect resolves by name (unlisted test dialects included)."""
    try:
        get_dialect(name)
    except KeyError:
        return False
    return True
