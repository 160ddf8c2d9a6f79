"""The ``gpt_oss`` dialect: Harmony messages routed by channel and recipient.

The output follows the prompt's ``<|start|>assistant``, so its first message has no
``<|start|>``. Each ``check`` compares the complete parse with the expected result and the
streamed reconstruction with it under every tag-aligned chunking.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request, get_dialect

from ..support import Expected, check, stream, tools

START = "<|start|>assistant"


def analysis(text: str, *, first: bool = True) -> str:
    return ("" if first else START) + f"<|channel|>analysis<|message|>{text}<|end|>"


def final(text: str, end: str = "<|return|>") -> str:
    return f"{START}<|channel|>final<|message|>{text}{end}"


def call(
    name: str,
    arguments: str,
    *,
    recipient_first: bool = False,
    content_type: str = " <|constrain|>json",
    channel: str = "commentary",
    end: str = "<|call|>",
) -> str:
    recipient = f" to=functions.{name}"
    if recipient_first:
        header = f"{START}{recipient}<|channel|>{channel}{content_type}"
    else:
        header = f"{START}<|channel|>{channel}{recipient}{content_type}"
    return f"{header}<|message|>{arguments}{end}"


def test_analysis_then_a_call() -> None:
    arguments = '{"city": "Tokyo", "days": 3}'
    text = analysis("Need the weather.") + call("get_weather", arguments)
    check("gpt_oss", text, Expected("", "Need the weather.", [("get_weather", arguments)]))


@pytest.mark.parametrize("recipient_first", [False, True])
@pytest.mark.parametrize("content_type", [" <|constrain|>json", "<|constrain|>json", " json", ""])
def test_recipient_before_or_after_the_channel(recipient_first: bool, content_type: str) -> None:
    text = analysis("plan") + call(
        "f", '{"a": 1}', recipient_first=recipient_first, content_type=content_type
    )
    check("gpt_oss", text, Expected("", "plan", [("f", '{"a": 1}')]))


def test_analysis_and_final_are_reasoning_and_content() -> None:
    text = analysis("Think.") + final("Done.")
    check("gpt_oss", text, Expected("Done.", "Think.", []))


def test_reasoning_is_reasoning_whatever_the_thinking_flag() -> None:
    text = analysis("Think.") + final("Done.")
    check("gpt_oss", text, Expected("Done.", "Think.", []), Request(thinking=False))


def test_several_calls_reasoning_between_and_a_final_answer() -> None:
    text = (
        analysis("First the weather.")
        + call("get_weather", '{"city": "Tokyo"}')
        + analysis(" Then the time.", first=False)
        + call("get_time", '{"tz": "JST"}', recipient_first=True)
        + final("Sunny, 10:00.")
    )
    expected = Expected(
        "Sunny, 10:00.",
        "First the weather. Then the time.",
        [("get_weather", '{"city": "Tokyo"}'), ("get_time", '{"tz": "JST"}')],
    )
    check("gpt_oss", text, expected)


def test_a_call_on_the_analysis_channel_is_a_call() -> None:
    text = analysis("x") + call("f", "{}", channel="analysis")
    check("gpt_oss", text, Expected("", "x", [("f", "{}")]))


def test_commentary_without_recipient_is_content() -> None:
    text = analysis("x") + f"{START}<|channel|>commentary<|message|>Checking now.<|end|>"
    text += call("f", "{}")
    check("gpt_oss", text, Expected("Checking now.", "x", [("f", "{}")]))


@pytest.mark.parametrize(
    "message",
    [
        f"{START}<|channel|>commentary to=browser.search<|message|>" + '{"q": "x"}<|call|>',
        f"{START}<|channel|>memo<|message|>secret<|end|>",
        f"{START}<|message|>no channel<|end|>",
        f"{START}<|channel|>commentary to=functions.<|message|>" + "{}<|call|>",
    ],
)
def test_messages_that_are_neither_reasoning_content_nor_calls_are_dropped(message: str) -> None:
    text = analysis("x") + message + final("ok")
    check("gpt_oss", text, Expected("ok", "x", []))


def test_builtin_tool_on_the_analysis_channel_is_reasoning() -> None:
    text = "<|channel|>analysis to=python<|message|>print(1)<|call|>" + final("1")
    check("gpt_oss", text, Expected("1", "print(1)", []))


def test_unknown_names_are_filtered_with_dense_indices() -> None:
    names = ["ghost", "f", "ghost", "h"]
    text = analysis("x") + "".join(call(name, f'{{"n": "{name}"}}') for name in names)
    request = Request(tools=tools("f", "h"))
    check("gpt_oss", text, Expected("", "x", [("f", '{"n": "f"}'), ("h", '{"n": "h"}')]), request)


def test_tool_choice_none_drops_calls() -> None:
    text = analysis("x") + call("f", "{}") + final("ok")
    check("gpt_oss", text, Expected("ok", "x", []), Request(tool_choice="none"))


def test_identity_before_the_arguments() -> None:
    text = analysis("x") + call("search", '{"q": "x"}')
    pieces = [text[: text.index('{"q"')], '{"q', '": "x"}', "<|call|>"]
    messages = stream("gpt_oss", pieces)
    fragments = [f for m in messages for f in m.tool_calls or ()]
    assert (fragments[0].id, fragments[0].name, fragments[0].arguments) == (
        "call_0",
        "search",
        None,
    )
    assert [f.arguments for f in fragments[1:]] == ['{"q', '": "x"}']


def test_bodies_stream_without_holding_anything_back() -> None:
    parser = get_dialect("gpt_oss").new_parser()
    assert parser.stream_chunk("<|channel|>analysis<|message|>") == []
    for piece in ["Think", "ing <", "|"]:
        ((message, _),) = parser.stream_chunk(piece)
        assert message.reasoning_content == piece
        assert parser.held_back == ""
    assert parser.stream_chunk("<|end|><|start|>assistant<|chan") == []
    assert parser.held_back == "assistant<|chan"


@pytest.mark.parametrize("cut", [" to", " to=", " to=functions"])
def test_recipient_cut_at_its_declared_prefixes(cut: str) -> None:
    text = analysis("x") + call("f", '{"a": 1}')
    at = text.index(" to=functions.") + len(cut)
    messages = stream("gpt_oss", [text[:at], text[at:]])
    fragments = [f for m in messages for f in m.tool_calls or ()]
    assert fragments[0].name == "f"
    assert "".join(f.arguments or "" for f in fragments) == '{"a": 1}'


def test_missing_end_before_the_next_message_is_tolerated() -> None:
    text = "<|channel|>analysis<|message|>a" + final("b")
    check("gpt_oss", text, Expected("b", "a", []))
    text = "<|channel|>analysis<|message|>a<|channel|>final<|message|>b"
    check("gpt_oss", text, Expected("b", "a", []))


def test_output_without_the_stop_token_is_complete() -> None:
    text = analysis("x") + call("f", '{"a": 1}', end="")
    check("gpt_oss", text, Expected("", "x", [("f", '{"a": 1}')]))
    check("gpt_oss", analysis("x") + final("Done", end=""), Expected("Done", "x", []))


@pytest.mark.parametrize("arguments", ["", " \n", "{}"])
def test_empty_arguments_become_an_empty_object(arguments: str) -> None:
    expected = "{}"
    check("gpt_oss", analysis("x") + call("now", arguments), Expected("", "x", [("now", expected)]))


def test_unterminated_arguments_are_kept_as_streamed() -> None:
    text = analysis("x") + call("f", '{"city": "Tok', end="")
    check("gpt_oss", text, Expected("", "x", [("f", '{"city": "Tok')]))


def test_an_unterminated_header_is_protocol_text_and_dropped() -> None:
    text = analysis("x") + f"{START}<|channel|>commentary to=functions.get_wea"
    check("gpt_oss", text, Expected("", "x", []))
    check("gpt_oss", " to=functions.f<|channel|>comm", Expected("", None, []))
    # After the last message only a new header can follow.
    check("gpt_oss", final("Done.") + "trailing", Expected("Done.", None, []))


def test_output_without_any_marker_is_content() -> None:
    check("gpt_oss", "no harmony here", Expected("no harmony here", None, []))
    parser = get_dialect("gpt_oss").new_parser()
    assert parser.stream_chunk("no harmony") == []  # it could still be a header


def test_non_bmp_and_escapes() -> None:
    arguments = '{"s": "😀 𝄞 \\ud83d\\ude00 \\u00e9 é 中文 \\n\\t \\" \\\\"}'
    text = analysis("思考 😀") + call("f", arguments) + final("答え 𝄞 <b>")
    check("gpt_oss", text, Expected("答え 𝄞 <b>", "思考 😀", [("f", arguments)]))


def test_protocol_tags_list_every_marker() -> None:
    tags = get_dialect("gpt_oss").protocol_tags()
    markers = ["<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>"]
    markers += ["<|call|>", "<|return|>"]
    assert all(tags[marker] == () for marker in markers)
    assert tags[" to=functions."] == (" to=functions", " to=", " to")
