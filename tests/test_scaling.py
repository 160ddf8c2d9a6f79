"""The one linear-time judgement (``harness.scaling``): certify, the fuzzer and triage agree."""

from __future__ import annotations

import math

from toolconform.harness.scaling import NOISE_FLOOR, Scaling, max_ratio


def test_linear_work_may_cost_three_times_its_growth():
    """The corpus' convention (max_ratio 24 for sizes eight times apart) is the fuzzer's too:
    it allowed 2.5 times the growth (20) before, and called 22 super-linear."""
    assert max_ratio(8) == 24
    assert not Scaling(0.01, 0.22, 8).superlinear()
    assert not Scaling(0.01, 0.24, 8).superlinear()
    assert Scaling(0.01, 0.25, 8).superlinear()
    assert Scaling(0.01, 0.64, 8).superlinear()  # quadratic


def test_a_case_may_state_its_own_bound():
    assert not Scaling(0.01, 0.25, 8).superlinear(30)
    assert Scaling(0.01, 0.25, 8).superlinear(20)


def test_times_below_the_noise_floor_are_not_judged():
    assert Scaling(0.0001, 0.01, 8).superlinear()
    assert not Scaling(0.0001, 0.01, 8).superlinear(floor=NOISE_FLOOR)
    assert Scaling(0.0, 0.5, 8).superlinear(floor=NOISE_FLOOR)  # a zero reading divides


def test_ratio_exponent_and_description():
    quadratic = Scaling(0.01, 0.64, 8)
    assert math.isclose(quadratic.ratio, 64)
    assert math.isclose(quadratic.exponent, 2)
    assert math.isclose(Scaling(0.01, 0.08, 8).exponent, 1)
    assert math.isnan(Scaling(0.01, 0.02, 1).exponent)
    assert quadratic.describe() == (
        "8.0× the text cost 64.0× the CPU time (10.00 ms → 640.00 ms, exponent 2.00; "
        "linear work may cost 24.0×)"
    )
