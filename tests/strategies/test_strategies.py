"""The public strategies: argument validation, shrinking, and what they draw."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import jsonschema
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument, NoSuchExample

from toolconform import strategies as tc
from toolconform.harness.cases import Expectation, ExpectedCall
from toolconform.reference import get_dialect
from toolconform.strategies.responses import near_misses


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: tc.texts(min_size=-1), "min_size=-1 must be at least 0"),
        (lambda: tc.texts(min_size=3, max_size=2), "max_size=2 must be at least min_size=3"),
        (lambda: tc.tools(min_size=-1), "min_size=-1 must be at least 0"),
        (lambda: tc.json_schemas(max_depth=-1), "max_depth=-1 must be at least 0"),
        (lambda: tc.arguments({"type": "string", "pattern": "x"}), "['pattern'] are not supported"),
        (lambda: tc.round_trips("nope"), "dialect 'nope' has no renderer; dialects with one:"),
        (lambda: tc.k_token_groups(["a"], 0), "k=0 must be at least 1"),
        (lambda: tc.truncations([]), "pieces must not be empty"),
        (lambda: tc.deleted_markers("abc", ["<x>"]), "none of the markers ['<x>'] occurs"),
        (lambda: tc.drift_shells("tag"), "tag='tag' must start with '<' and end with '>'"),
    ],
)
def test_arguments_are_validated_eagerly_with_one_precise_error(make, message: str) -> None:
    with pytest.raises(InvalidArgument, match=re.escape(message)):
        make()


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_argument_values_are_valid_for_their_schema(data: st.DataObject) -> None:
    schema = data.draw(tc.parameter_schemas())
    value = data.draw(tc.arguments(schema))
    jsonschema.validate(value, schema)
    assert json.loads(json.dumps(value, ensure_ascii=False)) == value


@settings(max_examples=50, deadline=None)
@given(tc.texts(avoid=["<tool_call>", "</think>"], max_size=20))
def test_texts_are_nfc_and_avoid_the_given_tags(text: str) -> None:
    assert unicodedata.is_normalized("NFC", text)
    assert "<tool_call>" not in text and "</think>" not in text


def test_values_reach_the_hostile_characters() -> None:
    """Non-BMP characters, quotes, backslashes and tag look-alikes are all drawn."""
    strings = tc.arguments({"type": "string"})
    for wanted in ("🧑", '"', "\\", "</"):
        find(
            strings,
            lambda value, wanted=wanted: wanted in value,
            settings=settings(max_examples=2000),
        )
    find(strings, lambda value: len(value) >= 200, settings=settings(max_examples=2000))


def test_groupings_shrink_toward_the_whole_text() -> None:
    pieces = ["<tool_call>", "\n", '{"', "name", '":', "</tool_call>"]
    smallest = find(tc.groupings(pieces), lambda chunks: "name" in chunks[-1] or len(chunks) > 1)
    assert smallest == ["".join(pieces)]
    grouped = find(tc.groupings(pieces), lambda chunks: len(chunks) >= 3)
    assert len(grouped) == 3 and "".join(grouped) == "".join(pieces)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_char_and_byte_splits_join_to_the_input(data: st.DataObject) -> None:
    text = data.draw(tc.texts())
    assert "".join(data.draw(tc.char_splits(text))) == text
    assert b"".join(data.draw(tc.byte_splits(text))) == text.encode()


def test_engine_chunkings_enumerate_whole_tokens_two_way_and_random_groups() -> None:
    pieces = ["a", "b", "", "c"]
    chunkings = dict(tc.engine_chunkings(pieces, seed=1, random_count=2))
    assert chunkings["whole"] == ["abc"]
    assert chunkings["one token per chunk"] == pieces
    assert [chunkings[f"two-way split at token {k}"] for k in (1, 2, 3)] == [
        ["a", "bc"],
        ["ab", "c"],
        ["ab", "c"],
    ]
    assert all("".join(chunkings[f"random groups (seed {s})"]) == "abc" for s in (1, 2))
    assert tc.k_token_groups(pieces, 3) == ["ab", "c"]


@pytest.mark.parametrize("dialect", tc.renderer_names())
def test_every_renderer_is_the_inverse_of_its_dialects_complete_parse(dialect: str) -> None:
    parser = get_dialect(dialect)

    @settings(max_examples=20, deadline=None)
    @given(tc.round_trips(dialect))
    def parses_back(case: tc.RoundTrip) -> None:
        parsed = parser.new_parser(case.request).parse_complete(case.text)
        assert tc.as_result(parsed) == case.expected

    parses_back()


TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {}}},
    {"type": "function", "function": {"name": "search", "parameters": {}}},
]


def test_responses_can_call_tools_inside_reasoning_and_after_it() -> None:
    response = find(
        tc.responses("qwen3", TOOLS),
        lambda r: bool(r.reasoning_calls and r.calls and r.content_tail),
    )
    assert len(response.reasoning_calls) == len(response.calls) == 1


def test_tool_calls_include_unknown_names_unless_told_not_to() -> None:
    known = {"get_weather", "search"}
    assert find(tc.tool_calls(TOOLS), lambda call: call.name not in known).name not in known
    with pytest.raises(NoSuchExample):
        find(tc.tool_calls(TOOLS, unknown_names=False), lambda call: call.name not in known)


def test_expected_result_drops_unknown_names_and_joins_the_channels() -> None:
    call = tc.Call("get_weather", {"city": "東京"})
    response = tc.Response("plan", (tc.Call("nope", {}),), " more", "Hi", (call,), " bye")
    case = tc.RoundTrip("qwen3", TOOLS, response)
    assert case.text == (
        '<think>plan<tool_call>\n{"name": "nope", "arguments": {}}\n</tool_call> more'
        '</think>Hi<tool_call>\n{"name": "get_weather", "arguments": {"city": "東京"}}'
        "\n</tool_call> bye"
    )
    assert case.expected == Expectation(
        "Hi bye", "plan more", (ExpectedCall("get_weather", {"city": "東京"}),), "tool_calls"
    )
    assert tc.as_result(tc.stream_parse("qwen3", [case.text], case.request)) == case.expected


def test_near_misses_never_equal_the_tag() -> None:
    assert near_misses("</tool_call>") == (
        "< /tool_call>",
        "</TOOL_CALL>",
        "</tool",
        "</tool_call",
    )


def test_malformations() -> None:
    text = "<a>x</a><a>y</a>"
    markers = ["<a>", "</a>"]
    assert find(tc.deleted_markers(text, markers), lambda t: t == "x</a><a>y</a>")
    assert find(tc.duplicated_markers(text, markers), lambda t: t.count("</a>") == 3)
    assert find(tc.reordered_markers(text, markers), lambda t: t.startswith("</a>x<a>"))
    assert find(tc.truncations(["a", "b", "c"]), lambda p: p == ["a", "b"])
    noisy = find(tc.garbage_between(["a", "b"]), lambda p: len(p) == 3 and p[1] == "\x00")
    assert noisy == ["a", "\x00", "b"]
    drifted = find(tc.drift_shells("<|DSML|tool_calls>"), lambda t: "｜" in t)
    assert drifted == "<｜DSML｜tool_calls>"


def test_register_profiles_is_idempotent_and_registers_nightly() -> None:
    tc.register_profiles()
    first = settings.get_profile("nightly")
    tc.register_profiles(database_directory="elsewhere")
    assert settings.get_profile("nightly") is first
    assert first.max_examples == 2000 and first.deadline is None


def test_the_documented_property_test_runs_as_written() -> None:
    """docs/strategies.md's "paste this" test is what a parser author copies first: it runs
    here as written (it named result fields that do not exist, unnoticed, until it did)."""
    text = (Path(__file__).parents[2] / "docs" / "strategies.md").read_text(encoding="utf-8")
    section = text.split("## Paste this", 1)[1]
    snippet = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(snippet, "docs/strategies.md", "exec"), namespace)
    namespace["test_parser_recovers_what_the_model_wrote"]()
