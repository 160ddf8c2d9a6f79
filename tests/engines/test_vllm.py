"""vLLM's parsers through both adapters, against the reference, on real token ids.

Runs in ``tox -e vllm``; elsewhere the module skips with the install hint. Each case is
encoded with its family's real tokenizer and cut at token boundaries; the text of each
chunk is what the incremental detokenizer makes of its ids.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from toolconform.harness.engines.vllm import BINDINGS, factory, plugin_factory
from toolconform.harness.engines.vllm import _family as dialect_family

from . import wheel_tokenizers
from .cases import TOOLS, Case
from .conformance import Chunk, cases_for, check_case

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)

#: Where vLLM 0.33.0's server path differs from the reference (case id → what differs).
KNOWN_DIFFERENCES: dict[str, str] = {}
#: Where the per-parser API differs (case id → what differs).
KNOWN_PLUGIN_DIFFERENCES: dict[str, str] = {}


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
