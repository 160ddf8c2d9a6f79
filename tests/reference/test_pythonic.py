"""The pythonic driver: Python call literals translated to JSON arguments as they stream.

Each case is checked complete and under every tag-aligned chunking (``support.check``);
the streaming tests pin when pieces are released (a call at its ``(``, a string as it
arrives, a number when it ends); its work is bounded in test_scaling.py.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect

from ..support import Expected, check

WRAPS = {
    "pythonic": ("", ""),
    "llama4_pythonic": ("<|python_start|>", "<|python_end|>"),
    "lfm2": ("<|tool_call_start|>", "<|tool_call_end|>"),
}
NO_THINKING = Request(thinking=False)


def wrapped(dialect: str, calls: str) -> str:
    if dialect == "olmo3":
        return f"<function_calls>{calls}</function_calls>"
    opening, closing = WRAPS[dialect]
    return f"{opening}[{calls}]{closing}"


@pytest.mark.parametrize("dialect", [*WRAPS, "olmo3"])
@pytest.mark.parametrize(
    ("source", "arguments"),
    [
        ('city="Oslo", days=3', '{"city": "Oslo", "days": 3}'),
        ("", "{}"),
        ("a='it\\'s\\n\\u00e9\\x41', b=\"q\\\"\"", '{"a": "it\'s\\néA", "b": "q\\""}'),
        ("t=True, f=false, n=None, m=null", '{"t": true, "f": false, "n": null, "m": null}'),
        ("n=-3, x=2.5, h=0x1F, z=07, u=1_000", '{"n": -3, "x": 2.5, "h": 31, "z": 7, "u": 1000}'),
        (
            "a=[1, (2, 3)], d={'k': {'j': []}, 1: 'one'}",
            '{"a": [1, [2, 3]], "d": {"k": {"j": []}, "1": "one"}}',
        ),
        ("a=[1, 2,], b=3,", '{"a": [1, 2], "b": 3}'),
        ("q = 'spaced' , r = 1", '{"q": "spaced", "r": 1}'),
    ],
)
def test_values_become_json(dialect: str, source: str, arguments: str) -> None:
    check(
        dialect,
        wrapped(dialect, f"f({source})"),
        Expected("", None, [("f", arguments)]),
        NO_THINKING,
    )


@pytest.mark.parametrize(
    ("source", "arguments"),
    [
        ("city=Oslo bar, n=1", '{"city": "Oslo bar", "n": 1}'),
        ("n=len(x), m=1e999", '{"n": "len(x)", "m": "1e999"}'),
        ("1, 'positional', a=2", '{"a": 2}'),
        ("a=1, a=2", '{"a": 1, "a": 2}'),
        ("a=, b=1", '{"b": 1}'),
    ],
)
def test_what_is_no_literal_is_kept_as_text_or_skipped(source: str, arguments: str) -> None:
    check("pythonic", f"[f({source})]", Expected("", None, [("f", arguments)]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[f(a='cut", Expected("", None, [("f", '{"a": "cut"}')])),
        ("[f(a=[1, {'k': ", Expected("", None, [("f", '{"a": [1, {}]}')])),
        ("[f(a=", Expected("", None, [("f", "{}")])),
        ("[f(a=1), g(", Expected("", None, [("f", '{"a": 1}'), ("g", "{}")])),
        ("[get_wea", Expected("", None, [])),
    ],
)
def test_the_end_of_input_closes_what_is_open_and_invents_nothing(
    text: str, expected: Expected
) -> None:
    check("pythonic", text, expected)


@pytest.mark.parametrize(
    "text", ["see [1] and [note] or [See below].", "a list [] and [ x ] and [f, g]", "[\n"]
)
def test_brackets_that_begin_no_call_are_prose(text: str) -> None:
    expected = text if text != "[\n" else ""
    check("pythonic", text, Expected(expected))


def test_text_around_lists_and_between_them_is_content() -> None:
    text = "Let me check. [f(a=1)]\n[g()] Done."
    check(
        "pythonic", text, Expected("Let me check.  Done.", None, [("f", '{"a": 1}'), ("g", "{}")])
    )


def test_olmo3_calls_are_one_per_line_and_reasoning_starts_open() -> None:
    text = "plan</think>Sure.<function_calls>f(a=null)\ng(b=true)\n</function_calls>"
    calls = [("f", '{"a": null}'), ("g", '{"b": true}')]
    check("olmo3", text, Expected("Sure.", "plan", calls))


def test_the_close_tag_ends_a_value_it_cuts() -> None:
    text = "<|tool_call_start|>[f(a='x<|tool_call_end|>after"
    check("lfm2", text, Expected("after", None, [("f", '{"a": "x"}')]))


def _pieces(dialect: str, chunks: list[str], request: Request | None = None) -> list[str]:
    parser = get_dialect(dialect).new_parser(request)
    out = []
    for chunk in chunks:
        out.append(
            "".join(
                (f"{call.name}|" if call.name else "") + (call.arguments or "")
                for message, _ in parser.stream_chunk(chunk)
                for call in message.tool_calls or ()
            )
        )
    return out


def test_a_call_is_announced_at_its_paren_and_strings_stream_as_they_arrive() -> None:
    chunks = ["[get_", "weather", "(city", "='Os", "lo', days", "=3", "2, x=1)]"]
    assert _pieces("pythonic", chunks) == [
        "",
        "",
        "get_weather|",
        '{"city": "Os',
        'lo"',
        "",
        ', "days": 32, "x": 1}',
    ]


def test_an_escape_cut_by_a_chunk_is_held_until_it_is_whole() -> None:
    assert _pieces("pythonic", ["[f(a='x\\", "u00", "e9y')]"]) == ['f|{"a": "x', "", 'éy"}']


def test_a_list_closed_before_its_call_ends_there() -> None:
    """``]`` where the call's ``)`` is missing: the call and the list end, the rest is content."""
    check("pythonic", "[f(a=1] Done.", Expected(" Done.", None, [("f", '{"a": 1}')]))


GEMMA_VALUES = "city:{s}Os,lo{s},days:3,o:{{a:[1,{s}x{s}],b:true,c:null}},w:hello world"


@pytest.mark.parametrize(
    ("dialect", "opening", "closing", "delimiter"),
    [
        ("functiongemma", "<start_function_call>", "<end_function_call>", "<escape>"),
        ("gemma4", "<|tool_call>", "<tool_call|>", '<|"|>'),
    ],
)
def test_gemma_values_are_verbatim_strings_bare_scalars_and_bare_key_objects(
    dialect: str, opening: str, closing: str, delimiter: str
) -> None:
    body = GEMMA_VALUES.format(s=delimiter)
    text = f"Sure.{opening}call:get_weather{{{body}}}{closing}{opening}call:now{{}}{closing}ok"
    arguments = '{"city": "Os,lo", "days": 3, "o": {"a": [1, "x"], "b": true, "c": null}, "w": "hello world"}'
    check(dialect, text, Expected("Sure.ok", None, [("get_weather", arguments), ("now", "{}")]))


def test_gemma4_thought_channel_and_a_call_that_ends_it() -> None:
    text = '<|channel>thought\nplan<|tool_call>call:f{a:<|"|>x<|"|>}<tool_call|>Done.'
    check("gemma4", text, Expected("Done.", "plan", [("f", '{"a": "x"}')]))


@pytest.mark.parametrize("cut", ["<", "<|", '<|"', '<|"|'])
def test_an_output_that_ends_inside_a_string_delimiter_ends(cut: str) -> None:
    """Found by `fuzz run pythonic`: an output ending in a prefix of Gemma 4's `<|"|>`
    looped forever, complete and streamed (the value waited for a delimiter's rest that
    could not come). At the end the prefix is the value's text; streamed, it is held."""
    text = "<|tool_call>call:get_weather{city:" + cut
    complete = get_dialect("gemma4").new_parser(Request(thinking=False)).parse_complete(text)
    assert [call.name for call in complete.calls] == ["get_weather"]
    parser = get_dialect("gemma4").new_parser(Request(thinking=False))
    for character in text:
        parser.stream_chunk(character)
    parser.stream_chunk("", final=True)


@pytest.mark.parametrize("dialect", ["pythonic", "olmo3"])
def test_a_letter_no_name_may_hold_is_stepped_over(dialect: str) -> None:
    """Found by `fuzz run pythonic`: a letter ``str.isalpha`` accepts but a call name may not
    hold (``ª``) was handed back and forth between two states forever."""
    text = '<function_calls>ªget_weather(city="Paris")</function_calls>'
    if dialect == "pythonic":
        text = '[ªget_weather(city="Paris")]'
    get_dialect(dialect).new_parser(Request(thinking=False)).parse_complete(text)
    parser = get_dialect(dialect).new_parser(Request(thinking=False))
    for character in text:
        parser.stream_chunk(character)
    parser.stream_chunk("", final=True)


def test_the_close_tag_after_layout_ends_an_open_call() -> None:
    """Found by `fuzz run pythonic`: in one chunk, a close tag after a space that followed an
    open call's value was skipped as stray text, so the block swallowed the rest of the
    output; cut before the tag, it was seen (the chunking decided the result)."""
    text = '<function_calls>f(a="x" </function_calls>Done.'
    check("olmo3", text, Expected("Done.", None, [("f", '{"a": "x"}')]), NO_THINKING)


@pytest.mark.parametrize(
    ("value", "arguments"),
    [("(a}<, z=1", '{"y": "(a}<", "z": 1}'), ("(a}", '{"y": "(a}"}')],
)
def test_a_raw_value_cut_at_what_may_begin_the_close_tag_keeps_its_brackets(
    value: str, arguments: str
) -> None:
    """Found by `fuzz run pythonic`: a raw value whose chunk ended in ``<`` (maybe the close
    tag) lost the bracket depth it had reached, so the ``,`` after it no longer ended it."""
    text = f"<|tool_call>call:f{{y:{value.replace('=', ':')}}}<tool_call|>Done."
    check("gemma4", text, Expected("Done.", None, [("f", arguments)]), NO_THINKING)


def test_an_empty_payload_waits_for_its_first_character() -> None:
    """Found by `fuzz run pythonic`: after an open tag that ended its chunk, the verdict
    stepped past the check for a close tag, so ``<`` in the next chunk rejected the block
    while the same text in one chunk was a truncated block (dropped)."""
    check("lfm2", "Hi <|tool_call_start|><", Expected("Hi ", None, []))
    check("llama4_pythonic", "Hi <|python_start|>", Expected("Hi ", None, []))
