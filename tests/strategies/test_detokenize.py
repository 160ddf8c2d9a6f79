"""Incremental detokenization behaves as serving engines stream it."""

from __future__ import annotations

import pytest

pytest.importorskip("tokenizers")

from tokenizers.decoders import DecodeStream

from toolconform.strategies.tokenizers import (
    StreamDecoder,
    encode,
    load,
    special_contents,
    stream_decode,
    token_chunks,
    vanishing_markers,
)

from ..tokenizer_corpus import CORPUS

# One family per tokenizer build path: HF file, fixed-up HF file, converted rank table.
FAMILIES = ["qwen3", "deepseek-v3.2", "llama3.1", "gpt-oss", "mistral-tekken"]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("skip_special_tokens", [False, True])
def test_one_delta_per_token_joining_to_the_decoded_text(
    family: str, skip_special_tokens: bool
) -> None:
    tokenizer = load(family)
    for text in CORPUS:
        ids = encode(tokenizer, text)
        deltas = stream_decode(tokenizer, ids, skip_special_tokens=skip_special_tokens)
        assert len(deltas) == len(ids)
        assert "".join(deltas) == tokenizer.decode(ids, skip_special_tokens=skip_special_tokens)
        assert all("\ufffd" not in delta for delta in deltas)


@pytest.mark.parametrize("family", FAMILIES)
def test_deltas_equal_tokenizers_decode_stream(family: str) -> None:
    """``DecodeStream`` is what vLLM's fast incremental detokenizer uses."""
    tokenizer = load(family)
    for text in CORPUS:
        reference = DecodeStream(skip_special_tokens=False)
        expected = [reference.step(tokenizer, i) or "" for i in encode(tokenizer, text)]
        assert token_chunks(tokenizer, text, skip_special_tokens=False) == expected


def test_incomplete_characters_give_empty_deltas() -> None:
    chunks = token_chunks(load("gpt-oss"), "x🧑🏿‍💻y")
    assert "" in chunks
    assert [chunk for chunk in chunks if chunk] == ["x", "🧑", "🏿", "\u200d", "💻", "y"]
    assert token_chunks(load("gpt-oss"), "x🧑🏿‍💻y", keep_empty=False) == [
        "x",
        "🧑",
        "🏿",
        "\u200d",
        "💻",
        "y",
    ]


def test_a_trailing_replacement_character_is_flushed_into_the_last_delta() -> None:
    tokenizer = load("qwen3")
    text = "ok \ufffd"
    decoder = StreamDecoder(tokenizer)
    steps = [decoder.step(i) for i in encode(tokenizer, text)]
    assert "".join(steps) != text  # held back, as DecodeStream holds it
    assert "".join(token_chunks(tokenizer, text)) == text


@pytest.mark.parametrize(
    ("family", "marker"),
    [
        ("llama3.1", "<|python_tag|>"),
        ("mistral-tekken", "[TOOL_CALLS]"),
        ("gpt-oss", "<|channel|>"),
        ("deepseek-v3.2", "<｜DSML｜invoke name="),
    ],
)
def test_special_markers_vanish_with_skip_special_tokens(family: str, marker: str) -> None:
    tokenizer = load(family)
    text = f"a{marker}b"
    assert "".join(token_chunks(tokenizer, text, skip_special_tokens=False)) == text
    assert marker not in "".join(token_chunks(tokenizer, text, skip_special_tokens=True))
    assert vanishing_markers(tokenizer, [marker, "plain"]) == [marker]


@pytest.mark.parametrize(
    ("family", "marker"),
    [("qwen3", "<tool_call>"), ("deepseek-v4", "<｜DSML｜tool_calls>"), ("kimi-k2", "<think>")],
)
def test_non_special_markers_are_kept_with_skip_special_tokens(family: str, marker: str) -> None:
    tokenizer = load(family)
    assert "".join(token_chunks(tokenizer, marker, skip_special_tokens=True)) == marker
    assert not any(special in marker for special in special_contents(tokenizer))
