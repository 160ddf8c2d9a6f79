"""Whether a cost grows linearly with the output: the one judgement behind ``perf.linear``.

Certify times a pathological case at two sizes, the fuzzer times an input and the same input
with its repetition made longer, triage times a finding at a larger scale. All three ask one
question of two CPU times and the growth in size between them, and it is answered here, so
that a fuzz finding, its triaged corpus case and a certification report agree on what
"linear" means.

Linear work may cost up to ``LINEAR_SLACK`` times its growth in size (allocation, caches, a
loaded machine): the corpus' convention, ``max_ratio: 24`` for sizes eight times apart, which
quadratic work (about 64 there) fails. A pathological case may state its own ``max_ratio``.
A time below the noise floor a caller gives says nothing about growth and is never judged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Linear work may cost this many times its growth in size.
LINEAR_SLACK = 3.0
#: CPU seconds below which the fuzzer and triage do not judge a measurement: timer
#: resolution and scheduling noise are of that order on a shared machine.
NOISE_FLOOR = 0.02
#: Times are clamped to this before dividing, so that a zero reading cannot divide by zero.
_RESOLUTION = 1e-9


def max_ratio(growth: float) -> float:
    """The largest cost ratio linear work may show for sizes ``growth`` times apart
    (``max_ratio(8) == 24``)."""
    return LINEAR_SLACK * growth


@dataclass(frozen=True)
class Scaling:
    """The cost of one workload at two sizes: ``small`` and ``large`` CPU seconds, the large
    size ``growth`` times the small one."""

    small: float
    large: float
    growth: float

    @property
    def ratio(self) -> float:
        """How many times the small size's cost the large size cost."""
        return self.large / max(self.small, _RESOLUTION)

    @property
    def exponent(self) -> float:
        """The power of the size the cost grew with (1 linear, 2 quadratic)."""
        if self.growth <= 1:
            return math.nan
        return math.log(max(self.ratio, _RESOLUTION)) / math.log(self.growth)

    def superlinear(self, allowed: float | None = None, *, floor: float = 0.0) -> bool:
        """Whether the cost grew faster than linear work may: the ratio is over ``allowed``
        (by default ``max_ratio(growth)``) and the large size cost at least ``floor`` seconds."""
        limit = max_ratio(self.growth) if allowed is None else allowed
        return self.large >= floor and self.ratio > limit

    def describe(self, allowed: float | None = None) -> str:
        """One line for a finding or a report."""
        limit = max_ratio(self.growth) if allowed is None else allowed
        return (
            f"{self.growth:.1f}× the text cost {self.ratio:.1f}× the CPU time "
            f"({self.small * 1e3:.2f} ms → {self.large * 1e3:.2f} ms, exponent "
            f"{self.exponent:.2f}; linear work may cost {limit:.1f}×)"
        )
