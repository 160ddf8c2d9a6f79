"""Incremental detokenization as serving engines stream it: one text delta per token.

vLLM, SGLang and TGI decode a sliding window of ids (``prefix_offset`` … ``read_offset``)
after each generated token and emit what the window gained. A byte-level token can end in
the middle of a UTF-8 character; the decode then ends in U+FFFD and the engine emits an
empty delta and waits for the next token. With ``skip_special_tokens`` (the server default)
special tokens decode to nothing, which makes some protocol markers vanish entirely.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tokenizers import Tokenizer
from tokenizers.decoders import DecodeStream


class StreamDecoder:
    """The per-request detokenizer state of a serving engine.

    ``step(token_id)`` returns the text delta that token releases (``""`` while a character
    is incomplete or for a skipped special token); ``flush()`` releases a held tail at the
    end of the response, so that the deltas always join to ``decode(ids)``.

    The steps are ``tokenizers``' own ``DecodeStream`` (what vLLM's fast incremental
    detokenizer calls): the sliding window above, kept in Rust, one call per token — less
    than half the CPU time of the two ``decode`` calls per token it replaced, with the same
    deltas (``tests/strategies/test_detokenize.py`` compares them).
    """

    __slots__ = ("_emitted", "_held", "_ids", "_skip", "_stream", "_tokenizer")

    def __init__(self, tokenizer: Tokenizer, *, skip_special_tokens: bool = True) -> None:
        self._tokenizer = tokenizer
        self._skip = skip_special_tokens
        self._stream = DecodeStream(skip_special_tokens=skip_special_tokens)
        self._ids: list[int] = []
        self._emitted = 0  # characters released so far
        self._held = False  # whether the last steps released nothing

    def step(self, token_id: int) -> str:
        self._ids.append(token_id)
        text = self._stream.step(self._tokenizer, token_id)
        if text:
            self._emitted += len(text)
            self._held = False
            return text
        self._held = True
        return ""

    def flush(self) -> str:
        """The held tail (a response that really ends in U+FFFD); ``""`` usually."""
        if not self._held:
            return ""
        self._held = False
        text = self._tokenizer.decode(self._ids, skip_special_tokens=self._skip)
        tail = text[self._emitted :]
        self._emitted = len(text)
        return tail


def stream_decode(
    tokenizer: Tokenizer,
    ids: Iterable[int],
    *,
    skip_special_tokens: bool = True,
    keep_empty: bool = True,
) -> list[str]:
    """The deltas an engine streams for ``ids``: one per token, the held tail in the last.

    ``keep_empty=False`` drops the empty deltas (what a client that ignores them sees).
    """
    decoder = StreamDecoder(tokenizer, skip_special_tokens=skip_special_tokens)
    deltas = [decoder.step(token_id) for token_id in ids]
    tail = decoder.flush()
    if tail:
        if deltas:
            deltas[-1] += tail
        else:
            deltas.append(tail)
    if not keep_empty:
        deltas = [delta for delta in deltas if delta]
    return deltas


def encode(tokenizer: Tokenizer, text: str) -> list[int]:
    """The ids a model emits for ``text``: canonical tokenization, no BOS or template tokens."""
    return tokenizer.encode(text, add_special_tokens=False).ids


def token_chunks(
    tokenizer: Tokenizer,
    text: str,
    *,
    skip_special_tokens: bool = True,
    keep_empty: bool = True,
) -> list[str]:
    """``text`` as an engine streams it: canonical tokenization, then ``stream_decode``."""
    return stream_decode(
        tokenizer,
        encode(tokenizer, text),
        skip_special_tokens=skip_special_tokens,
        keep_empty=keep_empty,
    )


def special_contents(tokenizer: Tokenizer) -> frozenset[str]:
    """The added tokens flagged special: they vanish under ``skip_special_tokens=True``."""
    return frozenset(
        token.content for token in tokenizer.get_added_tokens_decoder().values() if token.special
    )


def vanishing_markers(tokenizer: Tokenizer, markers: Sequence[str]) -> list[str]:
    """The markers whose text changes when special tokens are skipped (the dialect then
    needs ``skip_special_tokens=False`` to see them)."""
    specials = special_contents(tokenizer)
    return [marker for marker in markers if any(special in marker for special in specials)]
