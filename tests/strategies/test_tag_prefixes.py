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


# ------------------------------------------------------------------------------------------
# Tag prefix declarations of the XML-like and DSML dialects, against the tokenizer research.
#
# ``EXPECTED`` transcribes ../shared/research/offline-tokenizers.md §4 (the proper prefixes of
# each tag that can end a decoded chunk, derived from the real vocabularies). The DSML open
# tags carry their leading blank line, one ``\n\n`` token that can end a chunk by itself.
# When the tokenizers are in the project, a generic test derives these from each family.

D = "｜DSML｜"

QWEN = {
    "<tool_call>": (),
    "</tool_call>": (),
    "<function=": ("<function", "<"),
    "</function>": ("</function", "</"),
    "<parameter=": ("<parameter", "<"),
    "</parameter>": ("</parameter", "</"),
}
THINK = {"<think>": (), "</think>": ()}
GLM = {
    "<tool_call>": (),
    "</tool_call>": (),
    "<arg_key>": (),
    "</arg_key>": (),
    "<arg_value>": (),
    "</arg_value>": (),
}
MINIMAX = {
    "<minimax:tool_call>": (),
    "</minimax:tool_call>": (),
    "<invoke name=": ("<invoke name", "<invoke", "<"),
    "</invoke>": ("</invoke", "</"),
    "<parameter name=": ("<parameter name", "<parameter", "<"),
    "</parameter>": ("</parameter", "</"),
}
DSML_INNER = {
    f"<{D}invoke name=": (f"<{D}invoke name", f"<{D}invoke", f"<{D}inv", f"<{D}", "<"),
    f"</{D}invoke>": (f"</{D}invoke", f"</{D}inv", f"</{D}", "</"),
    f"<{D}parameter name=": (f"<{D}parameter name", f"<{D}parameter", f"<{D}", "<"),
    f"</{D}parameter>": (f"</{D}parameter", f"</{D}", "</"),
    # The heads that end a value on their own, cut the same way.
    f"<{D}invoke": (f"<{D}invok", f"<{D}inv", f"<{D}", "<"),
    f"<{D}parameter": (f"<{D}", "<"),
}


def dsml_block_tags(name: str, cuts: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Block tags cut as ``<`` · ``｜DSML｜`` · ``function`` · ``_c`` · ``alls`` · ``>``."""
    heads = [f"{D}{''.join(cuts[:k])}" for k in range(len(cuts), 0, -1)]
    open_prefixes = (*(f"\n\n<{head}" for head in heads), "\n\n<", "\n\n")
    close_prefixes = (*(f"</{head}" for head in heads), "</")
    return {f"\n\n<{D}{name}>": open_prefixes, f"</{D}{name}>": close_prefixes}


EXPECTED = {
    "qwen3_coder": QWEN,
    "qwen35": {**THINK, **QWEN},
    "glm45": {**THINK, **GLM},
    "glm47": {**THINK, **GLM},
    "minimax_m2": {**THINK, **MINIMAX},
    "deepseek_v32": {
        **THINK,
        **dsml_block_tags("function_calls", ("", "function", "_c", "alls")),
        **DSML_INNER,
    },
    "deepseek_v4": {
        **THINK,
        **dsml_block_tags("tool_calls", ("", "tool", "_c", "alls")),
        **DSML_INNER,
    },
}


@pytest.mark.parametrize("dialect", list(EXPECTED))
def test_every_tag_is_declared_with_the_researched_prefixes(dialect: str) -> None:
    assert get_dialect(dialect).protocol_tags() == EXPECTED[dialect]


@pytest.mark.parametrize("dialect", list(EXPECTED))
def test_declared_tuples_are_proper_prefixes_longest_first(dialect: str) -> None:
    tool_parser = get_dialect(dialect).tool_parser
    assert tool_parser is not None
    for tag, prefixes in tool_parser.protocol_tags().items():
        assert list(prefixes) == sorted(prefixes, key=len, reverse=True), tag
        assert all(tag.startswith(p) and 0 < len(p) < len(tag) for p in prefixes), tag
