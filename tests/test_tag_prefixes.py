"""Each dialect's declared tag prefixes equal those derived from its tokenizer families.

``Dialect.protocol_tags()`` says, per tag, after which proper prefixes a chunk may end; the
tokenizer says where chunks really end. Derivation decodes as the dialect needs
(``skip_special_tokens=False`` when a marker is a special token). New dialects are covered
automatically through their ``tokenizer_families``.
"""

from __future__ import annotations

import pytest

from toolconform.reference import dialect_names, get_dialect

DIALECT_FAMILIES = [
    (dialect, family)
    for dialect in dialect_names()
    for family in get_dialect(dialect).tokenizer_families
]


@pytest.mark.parametrize(
    ("dialect", "family"), DIALECT_FAMILIES, ids=[f"{d}-{f}" for d, f in DIALECT_FAMILIES]
)
def test_declared_prefixes_equal_the_tokenizers(dialect: str, family: str) -> None:
    pytest.importorskip("tokenizers")
    from toolconform.strategies import skip_special_tokens_for
    from toolconform.strategies.tokenizers import chunk_end_prefixes, load

    declared = get_dialect(dialect).protocol_tags()
    skip = skip_special_tokens_for(dialect, family)
    derived = {
        tag: chunk_end_prefixes(load(family), tag, skip_special_tokens=skip) for tag in declared
    }
    # A tag declared cuttable after every character (ds2api's drift-tolerant shells) is held
    # whatever the tokenizer does: it must cover the derived prefixes. Every other tag must
    # declare exactly the tokenizer's prefixes, no speculative ones (seed 000).
    anywhere = {tag for tag, prefixes in declared.items() if set(prefixes) == _every_prefix(tag)}
    for tag in anywhere:
        assert set(derived[tag]) <= set(declared[tag]), tag
    assert {t: p for t, p in declared.items() if t not in anywhere} == {
        t: p for t, p in derived.items() if t not in anywhere
    }


def _every_prefix(tag: str) -> set[str]:
    return {tag[:end] for end in range(1, len(tag))}


def test_every_tokenizer_family_of_a_dialect_is_registered() -> None:
    pytest.importorskip("tokenizers")
    from toolconform.strategies.tokenizers import family_names

    unknown = {family for _, family in DIALECT_FAMILIES} - set(family_names())
    assert not unknown, f"dialects name unregistered tokenizer families: {sorted(unknown)}"
