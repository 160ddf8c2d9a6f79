"""Total work stays linear for the XML-like and DSML dialects (a ratio within one run).

8× more output in engine-sized chunks must cost far less than the 64× of a parser that
copies or rescans its pending text; CPU time, interleaved, as in test_reference_scaling.
"""

from __future__ import annotations

import pytest

from benchmarks.xml_dsml_workloads import OUTPUTS, held_long_string, long_string

from .test_reference_scaling import cpu_ratio


@pytest.mark.parametrize("dialect", list(OUTPUTS))
def test_streamed_long_string_is_linear(dialect: str) -> None:
    small, large = long_string(dialect, 8_000), long_string(dialect, 64_000)
    small.verify()
    large.verify()
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


def test_held_long_value_is_linear() -> None:
    small, large = held_long_string(8_000), held_long_string(64_000)
    small.verify()
    large.verify()
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"
