"""vLLM's parsers through both adapters, against the reference, on real token ids.

Runs in ``tox -e vllm``; elsewhere the module skips with the install hint. Each case is
encoded with its family's real tokenizer and cut at token boundaries; the text of each
chunk is what the incremental detokenizer makes of its ids.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from toolconform.harness.engines.vllm import BINDINGS, dialect_family, factory, plugin_factory

from . import wheel_tokenizers
from .cases import TOOLS, Case
from .conformance import Chunk, cases_for, check_case

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)

_WHITESPACE_BEFORE_BLOCK = "the newline(s) between </think> and the tool block are dropped"
_FIRST_TOKEN_ONLY = (
    "when the block opener arrives in a chunk with other tokens, the call and the text "
    "before it are lost (one token per chunk works)"
)
#: Where vLLM 0.33.0's server path differs from the reference (case id → what differs).
KNOWN_DIFFERENCES: dict[str, str] = {
    "qwen3/unknown-name-filtered": "calls to tools the request did not offer are not filtered",
    "qwen3/call-inside-reasoning": (
        "<tool_call> ends reasoning: the reasoning after the call and the content after "
        "</think> ('more', 'Done.') are lost"
    ),
    "qwen3/truncated-call": "parse() returns a truncated block as content, with no call",
    "qwen25/call-then-content": "text after </tool_call> is dropped (stream and parse())",
    "qwen25/no-arguments-field": (
        "a call without 'arguments' streams arguments '' (not '{}'); parse() fails on it "
        "(KeyError) and returns the block as content"
    ),
    "deepseek_r1/explicit-open": (
        "a repeated <think> after a prompt that opened reasoning leaks into reasoning_content "
        "when it shares a chunk with the next token (chunking-dependent)"
    ),
    "qwen3_coder/content-call": "parse() strips the newline that ends the content",
    "qwen35/reasoning-call": _WHITESPACE_BEFORE_BLOCK,
    "glm45/reasoning-call": _WHITESPACE_BEFORE_BLOCK,
    "minimax_m2/reasoning-call": _WHITESPACE_BEFORE_BLOCK,
    "deepseek_v32/content-call": (
        "｜DSML｜ is a special token of the V3.2 tokenizer and the parser leaves "
        "skip_special_tokens on: the streamed text loses the markers, no call is parsed and "
        "the markup leaks into content; parse() keeps the blank line before the block"
    ),
    "deepseek_v3/content-call": _FIRST_TOKEN_ONLY,
    "deepseek_v31/content-call": _FIRST_TOKEN_ONLY,
    "deepseek_v4/content-call": (
        "a request that says nothing about thinking starts in reasoning (DeepSeekV4Parser "
        "defaults to thinking); the reference starts in content"
    ),
    "mistral/name-args": (
        "the parser picks its format from the tokenizer: the offline tekken_240911 has no "
        "[ARGS] token, so only the pre-v11 [TOOL_CALLS][{...}] form is parsed"
    ),
}
#: Where the per-parser API differs (case id → what differs): the same parsers, plus what
#: only the server's end-of-stream handling recovers.
KNOWN_PLUGIN_DIFFERENCES: dict[str, str] = {
    **KNOWN_DIFFERENCES,
    "llama3_json/call": (
        "a call whose JSON arrives in one delta is only started (its name is sent on the "
        "next delta, and there is none): the call is lost unless tokens arrive one by one"
    ),
}


@cache
def tokenizer_for(family: str):
    from toolconform.harness.engines.tokenizer_seam import engine_tokenizer, family_tokenizer

    if not wheel_tokenizers.register(family):
        try:
            family_tokenizer(family)
        except LookupError as error:
            pytest.skip(f"no tokenizer for family {family!r} here: {error}")
    return engine_tokenizer(family)


def token_chunkings(case: Case) -> Iterator[list[Chunk]]:
    """Whole, one token per chunk, 12 two-way splits, groups of 2, 3 and 5 tokens."""
    from tokenizers.decoders import DecodeStream

    tokenizer = tokenizer_for(dialect_family(case.dialect, None))
    ids = tokenizer.encode(case.text, add_special_tokens=False)
    decoder = DecodeStream(skip_special_tokens=False)
    backend = tokenizer.backend_tokenizer
    pieces = [(decoder.step(backend, token) or "", [token]) for token in ids]
    assert "".join(text for text, _ in pieces) == case.text
    yield [(case.text, ids)]
    yield pieces
    for cut in sorted({1 + i * (len(pieces) - 1) // 12 for i in range(12)} - {len(pieces)}):
        yield [_merge(pieces[:cut]), _merge(pieces[cut:])]
    for size in (2, 3, 5):
        yield [_merge(pieces[i : i + size]) for i in range(0, len(pieces), size)]


def _merge(pieces: list[Chunk]) -> Chunk:
    return "".join(text for text, _ in pieces), [t for _, ids in pieces for t in ids or ()]


@pytest.mark.parametrize("case", cases_for(BINDINGS, KNOWN_DIFFERENCES))
def test_matches_reference(case: Case) -> None:
    tokenizer_for(dialect_family(case.dialect, None))
    check_case(factory, case, token_chunkings(case))


@pytest.mark.parametrize("case", cases_for(plugin_factory.dialects, KNOWN_PLUGIN_DIFFERENCES))
def test_plugin_api_matches_reference(case: Case) -> None:
    tokenizer_for(dialect_family(case.dialect, None))
    check_case(plugin_factory, case, token_chunkings(case))


def test_metadata_names_the_release() -> None:
    assert factory.implementation["version"] == "0.33.0"
    assert "gpt_oss" not in plugin_factory.dialects


def test_unsupported_dialect_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="ds2api"):
        factory("ds2api", TOOLS)
