"""openai-harmony's StreamableParser through the adapter, against the reference.

Runs in ``tox -e harmony``; elsewhere the module skips with the install hint. The chunks
carry real o200k_harmony token ids: the text is encoded whole and cut at token boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from toolconform.harness.engines.harmony import DIALECTS, factory
from toolconform.harness.engines.harmony_vocab import harmony_encoding

from .cases import TOOLS, Case
from .conformance import Chunk, cases_for, check_case

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)

#: Where openai-harmony 0.0.8 (as mapped) differs from the reference (case id → what differs).
KNOWN_DIFFERENCES: dict[str, str] = {}


def token_chunkings(case: Case) -> Iterator[list[Chunk]]:
    """Whole, one token per chunk, every two-way split and groups of 2, 3 and 5 tokens."""
    encoding = harmony_encoding()
    ids = encoding.encode(case.text, allowed_special="all")
    pieces = [(encoding.decode([token]), [token]) for token in ids]
    yield [(case.text, ids)]
    yield pieces
    for cut in range(1, len(ids)):
        yield [_merge(pieces[:cut]), _merge(pieces[cut:])]
    for size in (2, 3, 5):
        yield [_merge(pieces[i : i + size]) for i in range(0, len(pieces), size)]


def _merge(pieces: list[Chunk]) -> Chunk:
    return "".join(text for text, _ in pieces), [t for _, ids in pieces for t in ids or ()]


@pytest.mark.parametrize("case", cases_for(DIALECTS, KNOWN_DIFFERENCES))
def test_matches_reference(case: Case) -> None:
    check_case(factory, case, token_chunkings(case), tokenizer_family="gpt-oss")


def test_text_without_ids_is_encoded() -> None:
    session = factory("gpt_oss", TOOLS)
    deltas = session.feed("<|channel|>final<|message|>Hi there.<|return|>") + session.finish()
    assert "".join(delta.get("content", "") for delta in deltas) == "Hi there."


def test_call_is_announced_before_its_arguments() -> None:
    session = factory("gpt_oss", TOOLS)
    text = (
        "<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>"
        '{"zone":"UTC"}<|call|>'
    )
    calls = [c for d in session.feed(text) + session.finish() for c in d.get("tool_calls", ())]
    assert calls[0]["function"] == {"name": "get_time"}
    assert "".join(c["function"].get("arguments", "") for c in calls[1:]) == '{"zone":"UTC"}'
