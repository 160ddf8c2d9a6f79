"""Beyond ds2api: the result never depends on where the chunks were cut.

ds2api's own sieve re-evaluates its buffer at chunk boundaries, so re-chunking changes its
result for some inputs. The reference must not: for every input recorded from ds2api's
suites, the whole text, one character per chunk and every split into two chunks give the
same content and calls — and so does one DeepSeek-V4 token per chunk, as a server streams
it. Characters first: a chunk may end anywhere, also inside a tag shell.
"""

from __future__ import annotations

import pytest

from .ds2api_vectors import SKIP_REASON, load_cases, outcome, replay

#: Each distinct input once, named after the first vector that carries it.
INPUTS = {case["input"]: case["id"] for case in reversed(load_cases())}
pytestmark = pytest.mark.skipif(not INPUTS, reason=SKIP_REASON)


def _result(chunks: list[str]) -> object:
    return outcome(replay(chunks), with_text=True)


@pytest.mark.parametrize("text", list(INPUTS), ids=list(INPUTS.values()))
def test_every_chunking_gives_the_whole_text_result(text: str) -> None:
    whole = _result([text])
    assert _result(list(text)) == whole, "one character per chunk"
    for cut in range(1, len(text)):
        assert _result([text[:cut], text[cut:]]) == whole, f"split at {cut}: {text[:cut]!r}"


@pytest.mark.parametrize("text", list(INPUTS), ids=list(INPUTS.values()))
def test_one_deepseek_v4_token_per_chunk_gives_the_whole_text_result(text: str) -> None:
    pytest.importorskip("tokenizers")
    from toolconform.strategies.tokenizers import encode, load, stream_decode

    tokenizer = load("deepseek-v4")
    pieces = stream_decode(tokenizer, encode(tokenizer, text), skip_special_tokens=False)
    if "".join(pieces) != text:
        pytest.skip("the V4 tokenizer does not give this text back unchanged")
    assert _result(pieces) == _result([text])
