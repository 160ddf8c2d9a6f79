"""Arguments are compared as JSON values: numbers by exact decimal value, never by type."""

from __future__ import annotations

import pytest

from toolconform.harness.cases import Expectation, ExpectedCall, differences
from toolconform.reference import FinalResult, ToolCall


def _result(arguments: str) -> FinalResult:
    return FinalResult("", None, [ToolCall(0, "call_0", "f", arguments)])


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        # A JavaScript or Go serializer writes this double without an exponent.
        ({"n": 6.009211221254147e16}, '{"n": 60092112212541470}'),
        ({"n": 1}, '{"n": 1.0}'),
        ({"n": 1.5}, '{"n": 15e-1}'),
        ({"s": "é"}, '{"s": "\\u00e9"}'),
        ({"a": [1, {"b": None}]}, '{"a": [1e0, {"b": null}]}'),
    ],
)
def test_the_same_json_value_spelt_differently_is_the_same(expected, actual) -> None:
    expectation = Expectation(calls=(ExpectedCall("f", expected),))
    assert differences(expectation, _result(actual)) == []


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ({"flag": 1}, '{"flag": true}'),  # Python says True == 1; JSON does not
        ({"flag": False}, '{"flag": 0}'),
        ({"n": 0.1}, '{"n": 0.1000000000000000055511151231257827}'),
        ({"n": "1"}, '{"n": 1}'),
        ({"n": 1}, '{"n": 1, "m": 2}'),
        ({"n": 1}, "{'n': 1}"),
    ],
)
def test_different_json_values_differ(expected, actual) -> None:
    expectation = Expectation(calls=(ExpectedCall("f", expected),))
    assert differences(expectation, _result(actual))


def test_raw_comparison_keeps_order_and_duplicates_but_not_number_spelling() -> None:
    raw = '{"q": 2.5e0, "q": 10}'
    expectation = Expectation(calls=(ExpectedCall("f", None, raw),))
    assert differences(expectation, _result('{"q":2.5,"q":1e1}')) == []
    assert differences(expectation, _result('{"q": 10, "q": 2.5}'))
    assert differences(expectation, _result('{"q": 2.5}'))
