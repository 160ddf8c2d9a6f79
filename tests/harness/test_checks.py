"""Checks that see what used to be invisible to them: protocol text inside arguments, and
the character tier's one-character chunks and every split of a short output."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from toolconform.harness.cases import Case, Expectation, ExpectedCall
from toolconform.harness.checks import (
    BY_ID,
    CaseContext,
    Judged,
    Run,
    same_result,
    self_contained_verdicts,
    verdicts,
)
from toolconform.harness.chunkings import Budget, Chunking, char_chunkings
from toolconform.harness.events import FINISH, Event
from toolconform.reference import FinalResult, ToolCall, get_dialect


def _leak_verdict(arguments: str) -> str | None:
    expected = Expectation("", None, (ExpectedCall("read_file", {"path": "(local)"}),))
    case = Case("glm47/invalid/x", "glm47", "invalid", "must", "", "x", {}, (expected,))
    context = CaseContext.build(case, get_dialect("glm47"), case.expectations)
    result = FinalResult("", None, [ToolCall(0, "call_0", "read_file", arguments)])
    return verdicts(Run(Chunking("whole", ("x",)), [[]], result=result), context)[
        "text.no-protocol-leak"
    ]


def test_a_tag_kept_in_an_argument_value_is_a_leak() -> None:
    # Issue 19: GLM-4.7 keeps a stray </arg_key> in the key or value.
    message = _leak_verdict('{"path": "</arg_key><arg_value>(local)"}')
    assert message is not None and "'</arg_key>'" in message
    assert _leak_verdict('{"</arg_key>path": "(local)"}') is not None
    assert _leak_verdict('{"path": "(local)"}') is None  # wrong or right, no protocol text


def test_the_character_tier_has_one_character_per_chunk_and_every_split_of_short_text() -> None:
    budget = Budget.for_mode("quick")
    short = "<tool_call>{}</tool_call>"
    chunkings = list(char_chunkings(short, budget))
    assert chunkings[0].chunks == tuple(short)
    assert len(chunkings) == 1 + len(short) - 1  # every two-way split
    long = "x" * 500
    assert len(list(char_chunkings(long, budget))) == 1 + budget.char_splits


def _unique_ids_verdict(output: str, ids: tuple[str, str]) -> str | None:
    case = Case("kimi_k2/valid/x", "kimi_k2", "valid", "must", "", output, {}, ())
    context = CaseContext.build(case, get_dialect("kimi_k2"), ())
    calls = [ToolCall(index, call_id, "f", "{}") for index, call_id in enumerate(ids)]
    run = Run(Chunking("whole", (output,)), [[]], result=FinalResult("", None, calls))
    return self_contained_verdicts(run, context)["calls.unique-ids"]


def test_an_id_is_unique_unless_the_output_itself_repeats_it() -> None:
    """The check, not a caller, knows that an id the output writes (Kimi's
    ``functions.NAME:IDX``) may repeat as often as the output repeats it; an id made up
    for two calls, or passed on more often than the output holds it, is shared."""
    twice = "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}" * 2
    assert _unique_ids_verdict(twice, ("functions.f:0", "functions.f:0")) is None
    once = twice.replace("functions.f:0", "functions.f:1", 1)
    message = _unique_ids_verdict(once, ("functions.f:0", "functions.f:0"))
    assert message is not None and "'functions.f:0'" in message
    assert _unique_ids_verdict(twice, ("call_0", "call_0")) is not None
    assert _unique_ids_verdict(twice, ("functions.f:0", "functions.f:1")) is None


def test_an_id_the_output_writes_is_the_calls_id() -> None:
    """Kimi writes each call's id (``functions.NAME:IDX``): a parser that hands the client
    another one (a made-up ``call_0``) breaks the tool result's way back; where the output
    writes no id, any id will do, and a run with other calls is left to result.calls."""
    section = "<|tool_calls_section_begin|>{}<|tool_calls_section_end|>"
    call = "<|tool_call_begin|>functions.get_weather:{}<|tool_call_argument_begin|>{{}}<|tool_call_end|>"
    output = section.format(call.format(0) + call.format(1))
    case = Case("kimi_k2/valid/x", "kimi_k2", "valid", "must", "", output, {}, ())
    context = CaseContext.build(case, get_dialect("kimi_k2"), ())
    assert context.written_ids == {
        0: ("get_weather", "functions.get_weather:0"),
        1: ("get_weather", "functions.get_weather:1"),
    }

    def verdict(*calls: ToolCall) -> str | None:
        run = Run(Chunking("whole", (output,)), [[]], result=FinalResult("", None, list(calls)))
        check = BY_ID["calls.written-id"]
        judged = Judged(run, context, {})
        assert check.applies(judged) and check.verdict is not None
        return check.verdict(judged)

    kept = [ToolCall(i, f"functions.get_weather:{i}", "get_weather", "{}") for i in (0, 1)]
    assert verdict(*kept) is None
    made_up = verdict(kept[0], ToolCall(1, "call_1", "get_weather", "{}"))
    assert made_up is not None and "'functions.get_weather:1'" in made_up
    assert verdict(ToolCall(0, "call_0", "other", "{}")) is None  # result.calls' to judge
    plain = Case(
        "qwen25/valid/x",
        "qwen25",
        "valid",
        "must",
        "",
        '<tool_call>\n{"name": "f"}\n</tool_call>',
        {},
        (),
    )
    assert CaseContext.build(plain, get_dialect("qwen25"), ()).written_ids == {}


def _finish_verdict(
    outputs: list[list[Event]], *, ending: str = "step", calls: int = 1, request=None
) -> str | None:
    case = Case("qwen25/valid/x", "qwen25", "valid", "must", "", "x", request or {}, ())
    context = CaseContext.build(case, get_dialect("qwen25"), ())
    result = FinalResult("", None, [ToolCall(i, f"call_{i}", "f", "{}") for i in range(calls)])
    chunks = tuple("x" * len(outputs))
    run = Run(Chunking("whole", chunks, ending=ending), outputs, result=result)
    return self_contained_verdicts(run, context).get("result.finish-reason", "not applicable")


def test_the_finish_reason_says_whether_the_output_was_cut() -> None:
    """Seed 000 (Response Parser): only a final ``stop`` becomes ``tool_calls``; a stream
    cut at ``max_tokens`` must say ``length``, once, with the end of the stream."""

    def finish(reason: str) -> list[Event]:
        return [Event(FINISH, reason)]

    assert _finish_verdict([[], finish("tool_calls")]) is None
    assert _finish_verdict([[], finish("stop")], calls=0) is None
    assert "expected 'tool_calls'" in (_finish_verdict([[], finish("stop")]) or "")
    assert _finish_verdict([[], finish("length")], ending="length") is None
    cut = _finish_verdict([[], finish("tool_calls")], ending="length")
    assert cut is not None and "expected 'length'" in cut and "max_tokens" in cut
    assert "no finish_reason" in (_finish_verdict([[], []], ending="length") or "")
    assert "before the end" in (_finish_verdict([finish("stop"), []], calls=0) or "")
    assert "2 times" in (_finish_verdict([[], finish("stop") * 2], calls=0) or "")
    # An adapter that reports no finish reason (a parser, not a server) is not judged on it.
    assert _finish_verdict([[], []]) == "not applicable"
    # A request that forces one named tool may get OpenAI's "stop".
    named = {"tool_choice": {"type": "function", "function": {"name": "f"}}}
    assert _finish_verdict([[], finish("stop")], request=named) is None


def _arguments_verdict(kind: str, arguments: str, *expected: ExpectedCall) -> str | None:
    level = "may" if kind == "impl" else "must"
    expectations = tuple(Expectation("", None, (call,)) for call in expected)
    case = Case(f"qwen3/{kind}/x", "qwen3", kind, level, "", "x", {}, expectations)
    context = CaseContext.build(case, get_dialect("qwen3"), expectations)
    result = FinalResult("", None, [ToolCall(0, "call_0", "label", arguments)])
    run = Run(Chunking("whole", ("x",)), [[]], result=result)
    return verdicts(run, context).get("calls.arguments-object", "not applicable")


def test_arguments_a_client_cannot_parse_fail_in_every_case_kind() -> None:
    """Issue 19: ``{"label": hello}`` breaks every client whatever the case's kind. It was
    judged in valid cases only; now in every kind, where the closest expected result has
    the call whole — a call cut inside its arguments may stay the partial text it is, and
    a case may accept arguments that are a JSON string."""
    whole = ExpectedCall("label", {"label": "hello"})
    for kind in ("valid", "invalid", "impl", "pathological"):
        message = _arguments_verdict(kind, '{"label": hello}', whole)
        assert message is not None and "not an object" in message, kind
        assert _arguments_verdict(kind, '{"label": "hello"}', whole) is None, kind
    cut = ExpectedCall("label", arguments_raw='{"label": "hel')
    assert _arguments_verdict("invalid", '{"label": "hel', cut) is None
    # Of two accepted outcomes the closest decides: the partial text matches the cut one.
    assert _arguments_verdict("impl", '{"label": "hel', whole, cut) is None
    assert _arguments_verdict("impl", '{"label": hel}', whole, cut) is not None
    # An impl case may accept the arguments as a JSON string.
    string = ExpectedCall("label", '{"label": "hello"}')
    assert _arguments_verdict("impl", '"{\\"label\\": \\"hello\\"}"', string) is None


def test_non_json_arguments_count_at_must_level_in_a_may_level_case() -> None:
    from toolconform.harness.checks import BY_ID, effective_level

    case = Case("qwen3/impl/x", "qwen3", "impl", "may", "", "x", {}, ())
    assert effective_level(BY_ID["calls.arguments-object"], case) == "must"
    assert effective_level(BY_ID["result.calls"], case) == "may"


def test_a_nameless_call_is_the_same_as_itself_and_as_one_named_empty() -> None:
    """SGLang streams arguments for a call it never names (an empty GLM-4.7 block, a
    Qwen3-Coder ``<function=>``): the whole response and a chunked run gave the same nameless
    call, and result.chunking-invariant failed it as ``name None != expected ''`` (7 cases in
    each published SGLang report). Keeping ``None`` apart from ``""`` instead failed
    openai-harmony's complete parse, whose snapshot drops an empty recipient name that its
    stream keeps. To a client both are a call without a name; another name differs."""
    nameless = FinalResult("", None, [ToolCall(0, None, None, "{}")])
    assert (
        same_result(nameless, FinalResult("", None, [ToolCall(0, None, None, "{}")]), "run") is None
    )
    assert (
        same_result(FinalResult("", None, [ToolCall(0, None, "", "{}")]), nameless, "run") is None
    )
    assert (
        same_result(nameless, FinalResult("", None, [ToolCall(0, None, "", "{}")]), "run") is None
    )
    problem = same_result(FinalResult("", None, [ToolCall(0, None, "f", "{}")]), nameless, "run")
    assert problem is not None and "name 'f' != expected ''" in problem


_ARGUMENTS = st.one_of(
    st.dictionaries(st.text(max_size=3), st.integers() | st.text(max_size=3), max_size=3).map(
        json.dumps
    ),
    st.text(max_size=8),  # not JSON, or JSON that is no object
    st.just('{"a": 1, "a": 2}'),  # duplicate keys
)
_RESULTS = st.builds(
    FinalResult,
    st.text(max_size=5),
    st.none() | st.text(max_size=5),
    st.lists(
        st.builds(ToolCall, st.just(0), st.none(), st.none() | st.text(max_size=3), _ARGUMENTS),
        max_size=3,
    ).map(lambda calls: [ToolCall(i, None, c.name, c.arguments) for i, c in enumerate(calls)]),
)


@given(_RESULTS)
def test_every_result_is_the_same_as_itself(result: FinalResult) -> None:
    """The comparison of two runs (chunking, complete parse, other seeds) is reflexive."""
    copy = FinalResult(result.content, result.reasoning, [replace(c) for c in result.calls])
    assert same_result(result, copy, "run") is None
