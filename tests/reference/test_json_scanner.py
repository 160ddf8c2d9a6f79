"""JsonValueScanner: the lexical end of one JSON value, under every way of feeding it."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from toolconform.reference import JsonValueScanner

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**18), max_value=10**18)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
layouts = st.sampled_from(
    [
        {"ensure_ascii": False},
        {"ensure_ascii": True},
        {"separators": (",", ":")},
        {"indent": 2, "ensure_ascii": False},
    ]
)
# What may follow a value inside an envelope or a tag: the scanner must stop before it.
followers = st.sampled_from(["", ",", "}", "]", " ,", "\n}", "</tool_call>"])


def scan_in_pieces(text: str, cuts: list[int]) -> int:
    """Feed ``text`` piece by piece, as the caller re-presents unconsumed text; return the end."""
    scanner = JsonValueScanner("</tool_call>")
    position = 0
    for cut in [*cuts, len(text)]:
        if cut <= position:
            continue
        position = scanner.feed(text, position, cut)
        if scanner.complete:
            return position
    scanner.finish()
    assert scanner.complete
    return position


def value_end(text: str) -> int:
    return scan_in_pieces(text, [])


@given(json_values, layouts, followers)
@example(value='\U0001f600\\"', layout={"ensure_ascii": True}, follower="}")
@example(value={"a": [1, {"b": "}"}]}, layout={"indent": 2, "ensure_ascii": False}, follower=",")
def test_every_character_split(value: object, layout: dict, follower: str) -> None:
    encoded = json.dumps(value, **layout)
    text = encoded + follower
    assert value_end(text) == len(encoded)
    for cut in range(1, len(text)):
        assert scan_in_pieces(text, [cut]) == len(encoded), f"cut at {cut} of {text!r}"
    assert scan_in_pieces(text, list(range(1, len(text)))) == len(encoded)


@pytest.mark.parametrize("chunk", [None, 1, 4, 8, 16, 256])
def test_many_short_strings_reproduce_the_source(chunk: int | None) -> None:
    pieces = ["x", '"', "\\", "{", "}", "[", "]", "plain", "😀"]
    value = [pieces[k % len(pieces)] for k in range(16_384)]
    text = json.dumps(value) + ", tail"
    cuts = [] if chunk is None else list(range(chunk, len(text), chunk))
    end = scan_in_pieces(text, cuts)
    assert text[:end] == json.dumps(value)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("12", 2),
        ("-1.5e+3}", 7),
        ("true,", 4),
        ("null ", 4),
        ('"a\\"b"x', 6),
        ('  {"k": "v"}  ', 12),
        ("[[], {}]]", 8),
    ],
)
def test_value_ends(text: str, end: int) -> None:
    assert value_end(text) == end


def test_a_terminator_outside_a_string_interrupts_the_value() -> None:
    scanner = JsonValueScanner("</tool_call>")
    text = '{"x": truX</tool_call>'
    end = scanner.feed(text)
    assert scanner.interrupted and not scanner.complete
    assert text[:end] == '{"x": truX'


def test_a_terminator_inside_a_string_is_content() -> None:
    scanner = JsonValueScanner("</tool_call>")
    text = '{"x": "</tool_call>"}'
    assert scanner.feed(text) == len(text) and scanner.complete


def test_a_cut_terminator_head_is_held_until_decided() -> None:
    scanner = JsonValueScanner("</tool_call>")
    text = '{"x": 1 </tool'
    end = scanner.feed(text)
    assert text[end:] == "</tool" and not (scanner.complete or scanner.interrupted)
    text = text[end:] + "_call>"
    assert scanner.feed(text) == 0 and scanner.interrupted


def test_a_lone_backslash_at_a_chunk_end_escapes_the_next_chunk() -> None:
    scanner = JsonValueScanner()
    assert scanner.feed('"a\\') == 3 and scanner.in_string
    assert scanner.feed('"b"') == 3 and scanner.complete


@pytest.mark.parametrize(
    ("text", "raw_stops", "end", "interrupted"),
    [
        ("query=oslo weather</tool_call>", "", 18, True),  # a bare word runs to the boundary
        ("city=Oslo}", ",}", 9, False),  # inside an envelope it ends where the envelope goes on
        ("=x, y", ",}", 2, False),  # a value that cannot even begin JSON is raw from the start
        ("truthy, 1", ",}", 6, False),  # almost a literal is still raw
        ("true, 1", ",}", 4, False),  # a literal is a scalar
        ("-1.5e+3 ", ",}", 7, False),
    ],
)
def test_a_value_that_is_not_json_is_kept_raw_to_its_boundary(
    text, raw_stops, end, interrupted
) -> None:
    scanner = JsonValueScanner("</tool_call>", raw_stops=raw_stops)
    assert scanner.feed(text) == end
    assert scanner.interrupted == interrupted
    cut = [JsonValueScanner("</tool_call>", raw_stops=raw_stops) for _ in range(len(text))]
    for position, piecewise in enumerate(cut, start=1):  # the same under every two-way cut
        first = piecewise.feed(text, 0, position)
        if not (piecewise.complete or piecewise.interrupted):
            assert piecewise.feed(text, first) == end, position
