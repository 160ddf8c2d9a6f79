"""SGLang's function-call and reasoning parsers through the adapter, against the reference.

Runs in ``tox -e sglang``; elsewhere the module skips with the install hint. Both adapters
run every case: ``factory`` drains the detectors after each chunk, ``serving_factory`` drives
them as ``serving_chat`` does.
"""

from __future__ import annotations

import pytest

from toolconform.harness.engines.sglang import BINDINGS, factory, serving_factory

from .cases import TOOLS, Case
from .conformance import cases_for, check_case, text_chunkings, without_ids

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)

_TEXT_BEFORE_BLOCK = (
    "text before the tool block in the same chunk as its opening is dropped; parse() strips it"
)
#: Where SGLang 0.5.23 (drained) differs from the reference today (case id → what differs).
KNOWN_DIFFERENCES: dict[str, str] = {
    "qwen3/reasoning-content-call": _TEXT_BEFORE_BLOCK,
    "qwen3/thinking-off": _TEXT_BEFORE_BLOCK,
    "qwen25/content-call": _TEXT_BEFORE_BLOCK,
    "deepseek_v3/content-call": _TEXT_BEFORE_BLOCK,
    "deepseek_v31/content-call": _TEXT_BEFORE_BLOCK,
    "qwen3/unknown-name-filtered": (
        "a call to an unknown tool leaks the rest of its JSON into content (small chunks) "
        "or loses the next valid call and the text before it (one chunk)"
    ),
    "qwen3/call-inside-reasoning": (
        "a tool block inside <think>…</think> is streamed and parsed as reasoning text, no call"
    ),
    "qwen3/truncated-call": (
        'truncated arguments are closed as \'{"city": "Bei"}\' when streamed; '
        "parse() drops the call"
    ),
    "qwen25/call-then-content": (
        "text after </tool_call> is dropped unless it shares a chunk with </tool_call>; "
        "parse() drops it too"
    ),
    "qwen25/no-arguments-field": "a call without 'arguments' streams arguments '' (not '{}')",
    "internlm/content-call": (
        "the detector expects '<|action_start|> <|plugin|>' (with the space its detokenizer "
        "puts between special tokens): the block is not recognised and leaks into content"
    ),
    "qwen3_coder/two-blocks": "the newline between two tool blocks is emitted as content",
    "glm45/reasoning-call": "the newline between </think> and <tool_call> is dropped",
    "mistral/json-array": (
        "'[TOOL_CALLS][' without a space is not recognised (the detector expects "
        "'[TOOL_CALLS] ['): no call, and the text is lost"
    ),
}
#: The server's own driving (no draining) differs further.
KNOWN_SERVING_DIFFERENCES: dict[str, str] = {
    **KNOWN_DIFFERENCES,
    "qwen3/two-calls": "of two calls that arrive in one chunk only the first is streamed",
}


@pytest.mark.parametrize("case", cases_for(BINDINGS, KNOWN_DIFFERENCES))
def test_matches_reference(case: Case) -> None:
    check_case(factory, case, without_ids(text_chunkings(case)))


@pytest.mark.parametrize("case", cases_for(BINDINGS, KNOWN_SERVING_DIFFERENCES))
def test_serving_matches_reference(case: Case) -> None:
    check_case(serving_factory, case, without_ids(text_chunkings(case)))


def test_metadata_names_the_release() -> None:
    assert factory.implementation["version"] == "0.5.23"
    assert set(factory.dialects) == set(BINDINGS)


def test_unsupported_dialect_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="ds2api"):
        factory("ds2api", TOOLS)


def test_calls_are_indexed_by_position() -> None:
    """Two calls to the same tool are calls 0 and 1, whatever SGLang's tool_index says."""
    session = factory("qwen25", TOOLS)
    text = (
        '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>'
    )
    deltas = session.feed(text) + session.finish()
    firsts = [
        call["index"]
        for delta in deltas
        for call in delta.get("tool_calls", ())
        if "name" in call["function"]
    ]
    assert firsts == [0, 1]
