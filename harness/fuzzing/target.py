"""A fuzz target: a grammar's dialects and fragments, an adapter, and the oracles, as one call.

``build_target(name)`` gives the target for a grammar (``json``, ``section`` …) or the
generic ``adapter`` target, whose parser is the adapter named by the environment variable
``TOOLCONFORM_FUZZ_ADAPTER`` (``module:callable`` or ``cmd:…``; ``reference`` by default)
and whose dialects are ``TOOLCONFORM_FUZZ_DIALECTS`` (comma-separated) or every dialect the
adapter supports. The grammar targets drive the reference parser through its built-in
adapter, as certify does.

``Target.test_one_input(data)`` is what atheris and Hypothesis call: the cheap oracles on
every input, the expensive ones on the inputs that ask for them (one in
``decoding.THOROUGH_ONE_IN``). ``Target.judge(data)`` runs every oracle: for the inputs that
added coverage, the seeds, triage and the regressions.

Under ``toolconform fuzz run`` libFuzzer's process leaves the sample to the judge beside it
(``SAMPLE_VARIABLE``): every input libFuzzer keeps is judged by every oracle there, in an
uninstrumented process, where a parser run costs a third of what it costs under atheris'
instrumentation. A fuzz binary run on its own (ClusterFuzzLite) judges its sample itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ...reference import dialect_names, get_dialect
from ..adapters import Adapter, load_in_process
from ..errors import UsageError
from ..execution import FeedTimeout, feed_limit
from .decoding import FuzzInput, decode
from .grammars import ADAPTER_TARGET, ALL_FRAGMENTS, DROP, GRAMMARS, grammar_of, target_names
from .oracles import SCALE, Finding, Policy, check

ADAPTER_VARIABLE = "TOOLCONFORM_FUZZ_ADAPTER"
DIALECTS_VARIABLE = "TOOLCONFORM_FUZZ_DIALECTS"
#: Set to ``beside`` by ``LibFuzzerRun`` when it judges libFuzzer's kept inputs itself: the
#: fuzzing loop then runs the cheap oracles only.
SAMPLE_VARIABLE = "TOOLCONFORM_FUZZ_SAMPLE"
JUDGED_BESIDE = "beside"


@dataclass
class Target:
    name: str
    dialects: tuple[str, ...]
    fragments: tuple[str, ...]
    adapter: Adapter
    #: Whether the fuzzing loop judges its sample by the expensive oracles itself.
    sample: bool = True
    _policies: dict[str, Policy] = field(default_factory=dict, repr=False)

    def decode(self, data: bytes, scale: int = 1) -> FuzzInput:
        return decode(data, self.dialects, self.fragments, scale=scale)

    def policy(self, dialect: str) -> Policy:
        policy = self._policies.get(dialect)
        if policy is None:
            grammar = grammar_of(dialect)
            invalid = grammar.invalid_policy if grammar else DROP
            policy = self._policies[dialect] = Policy(get_dialect(dialect), invalid)
        return policy

    def test_one_input(self, data: bytes) -> None:
        """Decode ``data`` and run the cheap oracles, and the expensive ones when the input
        asks for them; raises ``Finding`` on a failure."""
        fuzz_input = self.decode(data)
        self._check(data, fuzz_input, self.sample and fuzz_input.thorough, SCALE)

    def judge(self, data: bytes, scale: int = SCALE) -> None:
        """Decode ``data`` and run every oracle; raises ``Finding`` on a failure.

        ``scale`` is how much longer the linear-time oracle makes the repetitions."""
        self._check(data, self.decode(data), True, scale)

    def fails(self, data: bytes, seconds: float) -> bool:
        """Whether ``data`` fails an oracle (``judge``), or runs longer than ``seconds``."""
        try:
            with feed_limit(seconds):
                self.judge(data)
        except (Finding, FeedTimeout):
            return True
        return False

    def _check(self, data: bytes, fuzz_input: FuzzInput, thorough: bool, scale: int) -> None:
        check(
            fuzz_input,
            self.adapter,
            self.policy(fuzz_input.dialect),
            thorough=thorough,
            rescale=lambda factor: self.decode(data, factor),
            scale=scale,
        )


def build_target(name: str, adapter: Adapter | None = None) -> Target:
    """The target called ``name``; ``UsageError`` naming the known ones otherwise."""
    if name == ADAPTER_TARGET:
        adapter = adapter or load_in_process(os.environ.get(ADAPTER_VARIABLE, "reference"))
        return Target(name, _adapter_dialects(adapter), ALL_FRAGMENTS, adapter)
    grammar = GRAMMARS.get(name)
    if grammar is None or not grammar.dialects:
        raise UsageError(f"unknown fuzz target {name!r}; targets: {', '.join(target_names())}")
    adapter = adapter or load_in_process("reference")
    return Target(name, grammar.dialects, grammar.fragments, adapter)


def _adapter_dialects(adapter: Adapter) -> tuple[str, ...]:
    chosen = os.environ.get(DIALECTS_VARIABLE)
    if chosen:
        names = tuple(part.strip() for part in chosen.split(",") if part.strip())
        unknown = [n for n in names if not _registered(n)]
        if unknown:
            raise UsageError(f"{DIALECTS_VARIABLE}: unknown dialect(s) {', '.join(unknown)}")
        return names
    return tuple(name for name in dialect_names() if adapter.supports(name))


def _registered(name: str) -> bool:
    """Whether a dialect resolves by name (unlisted test dialects included)."""
    try:
        get_dialect(name)
    except KeyError:
        return False
    return True
