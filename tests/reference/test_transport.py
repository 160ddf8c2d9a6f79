"""ChatRunner: transport metadata on the last delta of a chunk, finish reasons."""

from __future__ import annotations

from toolconform.reference import Request, get_dialect
from toolconform.reference.transport import ChatRunner, EngineChunk


def runner() -> ChatRunner:
    return ChatRunner(get_dialect("qwen3").new_parser(Request()))


def test_ids_and_logprobs_ride_on_the_last_delta_of_a_chunk() -> None:
    text = '<think>r</think>c<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    deltas = runner().feed(EngineChunk(text, [1, 2, 3], [-0.1, -0.2, -0.3], "stop"))
    assert [d.message.to_openai() for d in deltas] == [
        {"reasoning_content": "r"},
        {"content": "c"},
        {
            "tool_calls": [
                {"index": 0, "id": "call_0", "type": "function", "function": {"name": "f"}},
                {"index": 0, "function": {"arguments": "{}"}},
            ]
        },
    ]
    assert [d.token_ids for d in deltas] == [None, None, [1, 2, 3]]
    assert [d.logprobs for d in deltas] == [None, None, [-0.1, -0.2, -0.3]]
    assert [d.finish_reason for d in deltas] == [None, None, "tool_calls"]


def test_a_chunk_that_yields_nothing_still_carries_its_metadata() -> None:
    chat = runner()
    (delta,) = chat.feed(EngineChunk("<tool_call>", [7], [-0.5]))
    assert delta.message.to_openai() == {"content": ""}
    assert delta.token_ids == [7] and delta.logprobs == [-0.5]
    assert chat.feed(EngineChunk("", ())) == []


def test_stop_stays_stop_without_a_call() -> None:
    (delta,) = runner().feed(EngineChunk("</think>hello", [5], None, "stop"))
    assert delta.finish_reason == "stop"
    (delta,) = runner().feed(EngineChunk("</think>hello", [5], None, "length"))
    assert delta.finish_reason == "length"


def test_collect_is_the_complete_parse() -> None:
    result, finish = runner().collect('</think>x<tool_call>{"name": "f"}</tool_call>')
    assert finish == "tool_calls"
    assert result.content == "x" and result.calls[0].arguments == "{}"
