"""The one linearity judgement: a ladder of sizes, a fitted exponent, a budget of its own.

The measurements here are synthetic (a function of the size), so the judgement itself is
tested exactly: which parsers pass, which fail, and how much a super-linear one costs.
"""

from __future__ import annotations

import pytest

from toolconform.harness import scaling


def parser(exponent: float, constant: float = 1e-6, *, spent: list[float] | None = None):
    """A measurement of a parser whose time is ``constant × size^exponent``."""

    def seconds_at(size: int, limit: float | None) -> float:
        seconds = constant * size**exponent
        if limit is not None and seconds > limit:
            if spent is not None:
                spent.append(limit)
            raise scaling.Exceeded(seconds)
        if spent is not None:
            spent.append(seconds)
        return seconds

    return seconds_at


SIZES = scaling.ladder(1_000, 8_000)


def test_the_ladder_doubles_from_the_smallest_to_the_largest() -> None:
    assert SIZES == [1_000, 2_000, 4_000, 8_000]
    assert scaling.ladder(100, 800) == [100, 200, 400, 800]
    assert scaling.ladder(500, 3_000) == [500, 1_000, 2_000, 3_000]


@pytest.mark.parametrize("constant", [1e-7, 1e-3])  # fast, and a thousand times slower
def test_a_linear_parser_passes_however_slow(constant: float) -> None:
    verdict = scaling.measure(SIZES, parser(1.0, constant))
    assert verdict.linear and verdict.stopped_before is None
    assert verdict.exponent == pytest.approx(1.0)
    assert [size for size, _ in verdict.points] == SIZES


def test_n_log_n_passes_and_a_quadratic_fails() -> None:
    import math

    def n_log_n(size: int, limit: float | None) -> float:
        return 1e-7 * size * math.log(size)

    assert scaling.measure(SIZES, n_log_n).linear
    verdict = scaling.measure(SIZES, parser(2.0, 1e-9))
    assert not verdict.linear and verdict.exponent == pytest.approx(2.0)
    assert "size^2.00" in verdict.describe()


def test_a_quadratic_parser_is_stopped_within_its_budget() -> None:
    linear_cost: list[float] = []
    scaling.measure(SIZES, parser(1.0, 1e-4, spent=linear_cost))
    quadratic_cost: list[float] = []
    verdict = scaling.measure(SIZES, parser(2.0, 1e-4 / 1_000, spent=quadratic_cost))
    assert not verdict.linear
    assert verdict.stopped_before == 8_000  # its last step would have passed the budget
    # It costs at most twice what a linear parser of the same first step costs.
    assert sum(quadratic_cost) < 2 * sum(linear_cost)


def test_a_second_step_far_past_the_first_fails_at_once() -> None:
    def explodes(size: int, limit: float | None) -> float:
        seconds = 0.01 if size == SIZES[0] else 100.0
        if limit is not None and seconds > limit:
            raise scaling.Exceeded(seconds * 0.2)  # it got a fifth of the way
        return seconds

    verdict = scaling.measure(SIZES, explodes)
    assert not verdict.linear and verdict.stopped_before == 2_000
    assert verdict.exponent is not None and verdict.exponent > 3


def test_a_borderline_verdict_is_measured_again_interleaved() -> None:
    calls: list[int] = []
    spiky = {8_000: 2.5}  # a load spike at one size, during the ladder only

    def loaded(size: int, limit: float | None) -> float:
        calls.append(size)
        factor = spiky.get(size, 1.0) if len(calls) <= 10 else 1.0
        return 1e-5 * size * factor

    first = scaling.measure(SIZES, loaded)
    assert not first.linear  # the spike alone makes it look super-linear
    confirmed = scaling.confirm(SIZES, loaded, first)
    assert confirmed.linear and confirmed.exponent == pytest.approx(1.0)
    # A quadratic stays super-linear when measured again; a cubic is not even measured again.
    quadratic = scaling.measure(SIZES, parser(2.0, 1e-9))
    assert not scaling.confirm(SIZES, parser(2.0, 1e-9), quadratic).linear
    cubic = scaling.measure(SIZES, parser(3.0, 1e-13))
    assert scaling.confirm(SIZES, parser(3.0, 1e-13), cubic) is cubic


def test_a_ladder_a_load_spike_stopped_runs_once_more() -> None:
    """Seen in the LMDeploy gate on a loaded machine: one slow step predicted the next past
    the budget and stopped a linear parser's ladder, which then failed as a quadratic one.
    A stopped ladder below the clear bound runs again; a quadratic one is stopped again."""
    calls: list[int] = []

    def spiked(size: int, limit: float | None) -> float:
        calls.append(size)
        seconds = 1e-4 * size * (3.0 if size == 4_000 and len(calls) <= 6 else 1.0)
        if limit is not None and seconds > limit:
            raise scaling.Exceeded(seconds)
        return seconds

    first = scaling.measure(SIZES, spiked)
    assert not first.linear and first.stopped_before == 8_000
    confirmed = scaling.confirm(SIZES, spiked, first)
    assert confirmed.linear and confirmed.stopped_before is None
    quadratic_cost: list[float] = []
    quadratic = scaling.measure(SIZES, parser(2.0, 1e-7, spent=quadratic_cost))
    assert quadratic.stopped_before is not None
    again = scaling.confirm(SIZES, parser(2.0, 1e-7, spent=quadratic_cost), quadratic)
    assert not again.linear and again.stopped_before is not None


def test_a_verdict_near_the_bound_is_decided_past_the_case_sizes() -> None:
    """A small quadratic term beside a large per-character cost fits about 1.3 over a quick
    ladder (SGLang's gigachat3 long-string-argument: size^1.25 in one run, size^1.32 in
    another; kimi_k2's passed in one run of three): whichever side of the bound noise put
    the fit over the case's sizes, it is timed past them and fails there — a failure one
    doubling further, a pass on two clearly super-linear steps. A pass near the bound once
    stood as it was, so the verdict was the noise's."""

    def small_quadratic(noise: float):
        """10 µs a character and a quadratic term; ``noise`` slows the two smaller sizes."""

        def seconds_at(size: int, limit: float | None) -> float:
            return (1e-5 * size + 1.5e-9 * size**2) * (noise if size < 3_000 else 1.0)

        return seconds_at

    for noise, largest in ((1.0, 16_000), (1.1, 32_000)):
        first = scaling.measure(SIZES, small_quadratic(noise))
        assert first.linear == (noise > 1.0)  # the fit over the case's sizes: either side
        verdict = scaling.confirm(SIZES, small_quadratic(noise), first)
        assert not verdict.linear and verdict.past
        assert verdict.points[-1][0] == largest
        assert "past the case's own" in verdict.describe()


def recorded(times: dict[int, float | tuple[float, ...]], timed: list[int] | None = None):
    """A measurement that returns the times a real run recorded at each size (in turn, and
    the last again, where it recorded several)."""
    calls: dict[int, int] = {}

    def seconds_at(size: int, limit: float | None) -> float:
        if timed is not None:
            timed.append(size)
        values = times[size] if isinstance(times[size], tuple) else (times[size],)
        calls[size] = calls.get(size, 0) + 1
        return values[min(calls[size], len(values)) - 1]

    return seconds_at


@pytest.mark.parametrize(
    ("times", "timed_past", "fails"),
    [
        # The reference on a loaded machine (an engine's certify beside CI's): size^1.21 over
        # the case's sizes, and one doubling further a step of size^1.45 (the largest size
        # is slowed the most), neither clear nor linear; one more doubling, where a linear
        # parser takes twice the time (one round: its step is linear), the pass stands.
        (
            {500: 0.0145, 1000: 0.0295, 2000: 0.077, 4000: 0.1725, 8000: 0.4722, 16000: 0.9444},
            [4000, 8000, 4000, 8000, 8000, 16000],
            False,
        ),
        # The reference's deepseek_v4 long-raw-value in the default certify, its other worker
        # busy (2026-12-07): size^1.17 over the case's sizes (8,000 about 180 ms on the
        # ladder, 132 ms timed again), then a step of size^1.64 to 16,000 (212 ms alone),
        # size^1.16 over all five sizes. One clear step is undecided: one doubling more,
        # where a linear parser takes twice the time, the pass stands.
        (
            {
                **{1000: 0.0151, 2000: 0.0309, 4000: 0.0621, 8000: (0.18, 0.1321)},
                **{16000: 0.4115, 32000: 0.823},
            },
            [8000, 16000, 8000, 16000, 16000, 32000],
            False,
        ),
        # The Node example (examples/node-adapter), a linear parser, on qwen25's
        # content-full-of-angle-brackets beside the reference's certify (2026-12-07, while
        # its program kept each timed round's outputs for V8's collector to copy): size^1.28
        # over the case's sizes, then a step of size^2.24 (2.26 to 2.72 in five runs, alone
        # too), which one step alone failed in CI; the next step falls back (size^1.36), and
        # the one after is within the bound.
        (
            {500: 0.004, 1000: 0.007, 2000: 0.017, 4000: 0.047, 8000: (0.265, 0.222)}
            | {16000: 0.570, 32000: 1.371},
            [4000, 8000, 4000, 8000, 8000, 16000, 8000, 16000, 16000, 32000],
            False,
        ),
        # A regime change spread over two doublings (constructed from the Node example's
        # steps): size^2.3 and then size^1.6 are both clear, but the second falls back by more
        # than CLIMB, so a third doubling decides, and it is linear.
        (
            {500: 0.005, 1000: 0.01, 2000: 0.022, 4000: 0.05, 8000: 0.246, 16000: 0.746}
            | {32000: 1.5},
            [4000, 8000, 4000, 8000, 8000, 16000, 8000, 16000, 16000, 32000],
            False,
        ),
        # SGLang's lfm2 long-string-argument (drained, 2026-12-07): size^1.11 over the case's
        # sizes, a step of size^1.59 past them (its steps there were 1.51 to 1.64 in six
        # runs: judged by that step alone, it passed or failed by the run), and one doubling
        # more a step of size^1.81: size^1.37 over all six sizes, size^1.62 over the top four.
        (
            {500: 0.057, 1000: 0.0855, 2000: 0.199, 4000: 0.5605, 8000: 1.6839, 16000: 5.8886},
            [4000, 8000, 8000, 16000],
            (2, 1.62),
        ),
        # SGLang's glm47 long-string-value (serving, 2026-12-07), with two times a loaded
        # machine could have given it: 50 ms at 500 (42 recorded) and 500 ms at 4,000 on the
        # ladder (390 ms timed again). Steps of size^1.45 and 1.54 past the case's sizes
        # climb, and fail it with size^1.38 over the top four, although over all six sizes
        # the fit is size^1.20, where the linear sizes weigh. (Before steps that climb
        # without both being clear failed a pass, a third step decided it: size^1.72.)
        (
            {
                **{500: 0.05, 1000: 0.08, 2000: 0.179, 4000: (0.5, 0.3895)},
                **{8000: 1.0656, 16000: 3.0954},
            },
            [4000, 8000, 8000, 16000],
            (2, 1.38),
        ),
        # vLLM's deepseek_v32 many-filtered-calls (plugin adapter, alone, 2026-12-07):
        # size^1.14 over its sizes, then steps of size^1.46 and 1.56; a third doubling
        # (6,400, about 50 s) would not fit in the cap. Under the rule that asked both steps
        # to be clear the pass stood; its published run stepped 1.57 and 1.59 and failed.
        (
            {100: 0.2032, 200: 0.4177, 400: 0.9145, 800: (2.1747, 2.1782)}
            | {1600: (5.9717, 5.6625), 3200: 16.7036},
            [800, 1600, 1600, 3200],
            (2, 1.40),
        ),
    ],
)
def test_a_pass_near_the_bound_is_judged_by_its_steps_past_the_case_sizes(
    times, timed_past, fails
) -> None:
    sizes = [size for size in times if size <= timed_past[0]]
    timed: list[int] = []
    measured = recorded(times, timed)
    first = scaling.measure(sizes, measured)
    assert first.linear and scaling.EXTEND_ABOVE <= first.exponent <= scaling.SUPER_LINEAR
    timed.clear()
    verdict = scaling.confirm(sizes, measured, first)
    # Each new size timed beside the last: best of two, unless one run is long enough or
    # its step linear.
    assert timed == timed_past
    if not fails:
        assert verdict is first
        return
    past, exponent = fails
    assert not verdict.linear and verdict.past == past
    assert verdict.exponent == pytest.approx(exponent, abs=0.01)
    assert scaling.fit_exponent(verdict.points[-scaling.TOP :]) == verdict.exponent
    assert f"the last {past} sizes are past the case's own" in verdict.describe()


def test_a_pass_undecided_within_the_cap_stands() -> None:
    """Steps between the bound and a clear one that fall back, until the next doubling
    would pass the cap: the pass stands (a term that shows only past the sizes the cap
    allows is full mode's to find)."""
    # size^1.16 over the case's sizes, then steps of size^1.45 and 1.40.
    times = {1000: 0.1, 2000: 0.22, 4000: 0.5, 8000: 1.1, 16000: 3.0, 32000: 7.9}
    first = scaling.measure(SIZES, recorded(times))
    assert first.linear and first.exponent >= scaling.EXTEND_ABOVE
    timed: list[int] = []
    assert scaling.confirm(SIZES, recorded(times, timed), first, cap=20.0) is first
    # 64,000 (22 s) would not fit in the cap.
    assert timed == [8000, 16000, 16000, 32000]


def test_a_pass_whose_top_sizes_near_the_bound_is_judged_past_the_case_sizes() -> None:
    """vLLM's qwen3_coder many-filtered-calls (plugin adapter, alone, 2026-12-07) fitted
    size^1.11 to 1.16 over its sizes in five runs; in a sixth its smallest size took 45 ms
    instead of 31 to 34: size^1.00 over all four sizes, size^1.20 over the top three. Past
    them it stepped size^1.41 and 1.56 in another run that day (below), and 1.39 to 1.86 in
    the others. Before, the fit over all four sizes alone decided, and that pass stood
    untimed past them."""
    times = {100: 0.0452, 200: 0.0666, 400: 0.1445, 800: (0.3518, 0.36144)}
    times |= {1600: (0.93475, 0.93115), 3200: 2.7494}
    sizes = [100, 200, 400, 800]
    timed: list[int] = []
    measured = recorded(times, timed)
    first = scaling.measure(sizes, measured)
    assert first.linear and first.exponent < scaling.EXTEND_ABOVE
    assert scaling.fit_exponent(first.points[-scaling.UPPER :]) >= scaling.EXTEND_ABOVE
    timed.clear()
    verdict = scaling.confirm(sizes, measured, first)
    assert timed == [800, 1600, 800, 1600, 1600, 3200]
    assert not verdict.linear and verdict.past == 2
    # A pass whose top sizes are as linear as the rest is not timed past them.
    flat = times | {800: 0.29}
    linear = scaling.measure(sizes, recorded(flat))
    upper = scaling.fit_exponent(linear.points[-scaling.UPPER :])
    assert linear.linear and upper < scaling.EXTEND_ABOVE
    assert scaling.confirm(sizes, recorded(flat), linear) is linear


def test_a_stopped_ladder_that_passes_when_run_again_is_judged_past_the_case_sizes() -> None:
    """vLLM's qwen3_coder many-filtered-calls again (the same day, the same adapter): its
    ladder took 443 ms at 400 (146 ms run again) and stopped as size^1.91 before 800; run
    once more it fitted size^1.15, and that pass stood as it was, while the same fit on a
    ladder that had not stopped was timed past the sizes (steps as above)."""
    times = {100: (0.0314, 0.0314, 0.0323), 200: (0.0656, 0.0656, 0.0664)}
    times |= {400: (0.4432, 0.1458), 800: (0.3554, 0.36144), 1600: (0.93475, 0.93115)}
    times |= {3200: 2.7494}
    sizes, measured = [100, 200, 400, 800], recorded(times)
    first = scaling.measure(sizes, measured)
    assert first.stopped_before == 800 and not first.linear
    verdict = scaling.confirm(sizes, measured, first)
    assert not verdict.linear and verdict.past == 2


def test_a_step_past_the_case_sizes_is_judged_with_the_best_time_of_its_sizes() -> None:
    """vLLM's phi4_mini_json long-string-argument (plugin adapter, alone, 2026-12-07):
    size^1.52 on its ladder, size^1.19 in the rounds of ``confirm``, then 8,000 took 3.01 s
    beside 0.80 at 4,000 (a step of size^1.91) and 2.24 s timed again beside 16,000 (7.21 s).
    Judged as first timed, the steps 1.91 and 1.69 fell back by more than ``CLIMB`` and the
    pass stood; with 8,000's best time they are 1.49 and 1.69, and climb."""
    times = {500: (0.0491, 0.0491, 0.0728), 1000: (0.1112, 0.1112, 0.1582)}
    times |= {2000: (0.2789, 0.4054), 4000: (1.2046, 0.8259, 0.8259, 0.8259, 0.7992)}
    times |= {8000: (3.0121, 2.2422), 16000: 7.2105}
    sizes, measured = [500, 1000, 2000, 4000], recorded(times)
    first = scaling.measure(sizes, measured)
    assert not first.linear
    verdict = scaling.confirm(sizes, measured, first)
    assert not verdict.linear and verdict.past == 2
    assert verdict.points[-2:] == [(8000, 2.2422), (16000, 7.2105)]


def test_a_failure_the_rounds_of_confirm_pass_is_judged_past_the_case_sizes() -> None:
    """vLLM's minimax_m2 long-value-with-tag-prefixes (plugin adapter, alone, 2026-12-07):
    84.4, 264.1, 634.2 and 1,628.7 ms on the ladder (size^1.41), then best of three
    interleaved rounds 113.9, 248.5, 470.7 and 1,043.2 ms (size^1.05: its smallest size
    slower in every round). That pass stood untimed past the sizes, where its published
    run earlier that day stepped size^1.50 and 1.74 (2,854 and 9,510 ms at 8,000 and
    16,000 beside 1,006 at 4,000; here in proportion to the rounds' 4,000)."""
    times = {500: (0.0844, 0.0844, 0.1139), 1000: (0.2641, 0.2641, 0.2485)}
    times |= {2000: (0.6342, 0.4707), 4000: (1.6287, 1.0432), 8000: 2.9581, 16000: 9.8565}
    sizes, measured = [500, 1000, 2000, 4000], recorded(times)
    first = scaling.measure(sizes, measured)
    assert not first.linear and first.exponent < scaling.CONFIRM_BELOW
    verdict = scaling.confirm(sizes, measured, first)
    again = [(500, 0.1139), (1000, 0.2485), (2000, 0.4707), (4000, 1.0432)]
    assert verdict.points[:4] == again and scaling.Verdict(again).exponent < 1.1
    assert not verdict.linear and verdict.past == 2
    assert [size for size, _ in verdict.points][-2:] == [8000, 16000]


def test_a_pass_well_below_the_bound_or_stopped_by_its_budget_is_not_extended() -> None:
    clear = scaling.measure(SIZES, parser(1.0, 1e-5))
    assert scaling.confirm(SIZES, parser(1.0, 1e-5), clear) is clear
    stopped = scaling.Verdict(points=[(1000, 0.1), (2000, 0.24)], stopped_before=4000, budget=1)
    timed: list[int] = []

    def quadratic(size: int, limit: float | None) -> float:
        timed.append(size)
        return 1e-7 * size**2

    assert stopped.linear and scaling.extend(SIZES, quadratic, stopped) is stopped
    assert timed == []  # nothing timed past a budget that stopped the ladder


def test_a_linear_parser_that_noise_put_over_the_bound_passes_one_doubling_further() -> None:
    """Its largest size slowed in every round (a loaded machine slows it the most): the
    interleaved rounds cannot help, one more size can."""

    def slowed_at_the_top(size: int, limit: float | None) -> float:
        return 1e-4 * size * (2.2 if size == 8_000 else 1.0)

    first = scaling.measure(SIZES, slowed_at_the_top)
    assert not first.linear
    verdict = scaling.confirm(SIZES, slowed_at_the_top, first)
    assert verdict.linear and verdict.past
    # Clearly linear, and clearly quadratic, verdicts are not extended.
    for exponent, constant in ((1.0, 1e-5), (2.0, 1e-9)):
        clear = scaling.measure(SIZES, parser(exponent, constant))
        assert scaling.confirm(SIZES, parser(exponent, constant), clear).past == 0


def test_an_extension_stays_within_the_cap() -> None:
    """A borderline failure too slow for one more doubling keeps its verdict; one that runs
    past the cap during the extension counts at least the cap there."""

    def near(size: int, limit: float | None) -> float:
        seconds = 2e-3 * size**1.4
        if limit is not None and seconds > limit:
            raise scaling.Exceeded(seconds)
        return seconds

    first = scaling.measure(SIZES, near, cap=1e9)
    verdict = scaling.confirm(SIZES, near, first, cap=scaling.CAP)
    assert not verdict.past and not verdict.linear

    def explodes(size: int, limit: float | None) -> float:
        seconds = 1e-5 * size**1.4 if size <= 8_000 else 1e3
        if limit is not None and seconds > limit:
            raise scaling.Exceeded(seconds / 10)
        return seconds

    first = scaling.measure(SIZES, explodes)
    verdict = scaling.confirm(SIZES, explodes, first)
    assert verdict.stopped_before == 16_000 and verdict.past and not verdict.linear
    assert verdict.points[-1][1] >= scaling.CAP


def test_an_extended_size_counts_in_the_fit_over_all_sizes_only() -> None:
    """On a loaded machine (an engine's certify beside CI's) the reference's largest size is
    slowed the most: judged among the top four, one more of them failed it; over all sizes
    it passes. A ladder of its own longer than four sizes is still judged on its top four."""
    loaded = [(500, 0.0145), (1000, 0.0295), (2000, 0.077), (4000, 0.1725), (8000, 0.4722)]
    verdict = scaling.Verdict(points=loaded, past=1)
    assert scaling.fit_exponent(loaded[-scaling.TOP :]) > scaling.SUPER_LINEAR  # the old rule
    assert verdict.linear and verdict.exponent == pytest.approx(1.26, abs=0.01)
    assert scaling.Verdict(points=loaded).exponent == scaling.fit_exponent(loaded[-4:])


def test_a_slow_parser_is_judged_on_fewer_sizes_within_the_cap() -> None:
    spent: list[float] = []
    verdict = scaling.measure(SIZES, parser(1.0, 2e-3, spent=spent))  # 2 s at the first size
    assert verdict.linear and len(verdict.points) >= 2
    assert verdict.budget == scaling.CAP
    assert sum(spent) <= scaling.CAP + 2 * (2 + 4)  # the first two steps, then the cap


LONG_LADDER = scaling.ladder(8_000, 8_000 * 128)  # full mode's: tens of kilobytes to a megabyte


def test_a_linear_parser_completes_a_long_ladder_and_a_quadratic_one_is_stopped() -> None:
    """Before, the budget was 12× the first two steps whatever the ladder's length: a linear
    parser's ×128 ladder costs 85× them, so it was stopped halfway and judged on the sizes
    where a quadratic term is still small beside the per-character cost."""
    linear_cost: list[float] = []
    verdict = scaling.measure(LONG_LADDER, parser(1.0, 1e-5, spent=linear_cost), cap=1e9)
    assert verdict.linear and verdict.stopped_before is None
    assert [size for size, _ in verdict.points] == LONG_LADDER
    quadratic_cost: list[float] = []
    quadratic = scaling.measure(
        LONG_LADDER, parser(2.0, 1e-5 / 8_000, spent=quadratic_cost), cap=1e9
    )  # the same time as the linear one at the first size
    assert not quadratic.linear and quadratic.stopped_before is not None
    assert sum(quadratic_cost) < 3 * sum(linear_cost)


def test_a_quadratic_term_at_the_top_of_a_long_ladder_fails_it() -> None:
    """A copy of the text so far on every chunk: 15 % of the time at the fourth size of a
    ×128 ladder, the whole cost at its top. Fitted over all sizes it measured 1.22 on the
    reference with that bug planted (``tests/planted_bugs.py:copies_the_text_so_far``, full
    mode, qwen3) and passed; judged on the top sizes as well it fails."""

    def copies(size: int, limit: float | None) -> float:
        return 1e-6 * size + 1e-6 / 64_000 * 0.15 * size**2

    verdict = scaling.measure(LONG_LADDER, copies, cap=1e9)
    assert verdict.stopped_before is None
    assert scaling.fit_exponent(verdict.points) < scaling.SUPER_LINEAR  # the old judgement
    assert not verdict.linear
    assert "over the top 4 sizes" in verdict.describe()
    # A linear parser, noise and all, is judged the same way: a short ladder as before.
    assert scaling.measure(LONG_LADDER, parser(1.0, 1e-6), cap=1e9).linear
    assert scaling.measure(SIZES, copies).exponent == scaling.fit_exponent(
        scaling.measure(SIZES, copies).points
    )


def test_the_cap_bounds_a_long_ladder() -> None:
    spent: list[float] = []
    verdict = scaling.measure(LONG_LADDER, parser(1.0, 1e-4, spent=spent), cap=60.0)
    assert verdict.budget == 60.0 and verdict.stopped_before is not None
    assert sum(spent) <= 60.0 + 2 * (0.8 + 1.6)  # the first two steps, then the cap


def test_two_sizes_are_judged_by_the_ladders_bound():
    """The fuzzer's and triage's verdict (an input, and the same bytes with longer
    repetitions) is the ladder's: the exponent fitted through the two points."""
    assert scaling.two_sizes(0.01, 0.16, 16).exponent == pytest.approx(1.0)
    assert scaling.two_sizes(0.01, 2.56, 16).exponent == pytest.approx(2.0)
    bound = 16**scaling.SUPER_LINEAR
    assert not scaling.two_sizes(0.01, 0.01 * bound * 0.99, 16).superlinear()
    assert scaling.two_sizes(0.01, 0.01 * bound * 1.01, 16).superlinear()
    assert "size^2.00" in scaling.two_sizes(0.01, 2.56, 16).describe()


def test_times_below_the_noise_floor_are_not_judged():
    assert scaling.two_sizes(0.0001, 0.01, 8).superlinear()
    assert not scaling.two_sizes(0.0001, 0.01, 8).superlinear(floor=scaling.NOISE_FLOOR)
    # a zero reading cannot be fitted: not linear
    assert scaling.two_sizes(0.0, 0.5, 8).superlinear(floor=scaling.NOISE_FLOOR)


def test_full_mode_times_every_pathological_case_up_to_a_megabyte() -> None:
    """Quick mode times a case between its own two sizes; full mode continues the ladder
    until the output is a megabyte long (the largest size ≥ 1 MB in full mode)."""
    from toolconform.harness.cases import load_cases
    from toolconform.harness.execution import ladder_sizes

    cases = [case for case in load_cases() if case.scaling is not None]
    assert cases
    for case in cases:
        quick, full = ladder_sizes(case, "quick"), ladder_sizes(case, "full")
        assert (quick[0], quick[-1]) == case.scaling.sizes
        assert full[: len(quick)] == quick and len(full) >= 3
        assert case.characters_at(full[-1]) == len(case.sized(full[-1])[0])
        assert case.characters_at(full[-1]) >= scaling.FULL_CHARACTERS
        assert case.characters_at(full[-2]) < scaling.FULL_CHARACTERS or full == quick
