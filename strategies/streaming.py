"""A dialect's output as a real serving engine streams it, with the decoding it needs.

Servers decode with ``skip_special_tokens=True`` by default. A dialect whose markers are
special tokens (Llama's ``<|python_tag|>``, Mistral's ``[TOOL_CALLS]``, Harmony's
``<|channel|>``, DeepSeek V3.2's ``｜DSML｜``) only works when the request turns that off,
which is what engines do for these parsers; every other dialect keeps the default.
"""

from __future__ import annotations

from ..reference import get_dialect
from .tokenizers import encode, load, stream_decode, vanishing_markers


def skip_special_tokens_for(dialect: str, family: str) -> bool:
    """The ``skip_special_tokens`` value under which ``dialect`` is parsed with ``family``:
    the server default (True) unless one of the dialect's tags would vanish."""
    tags = list(get_dialect(dialect).protocol_tags())
    return not vanishing_markers(load(family), tags)


def token_pieces(dialect: str, family: str, text: str) -> list[str]:
    """``text`` tokenized by ``family`` and streamed one delta per token, empty ones kept."""
    tokenizer = load(family)
    return stream_decode(
        tokenizer,
        encode(tokenizer, text),
        skip_special_tokens=skip_special_tokens_for(dialect, family),
    )
