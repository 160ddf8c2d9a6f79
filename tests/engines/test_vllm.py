"""vLLM's adapters: what they must do besides parsing (their parsing is certified).

Runs in ``tox -e vllm``; elsewhere the module skips with the install hint. The engine's
conformance — the server's stream processor, and the per-parser API — is the corpus
certified against each adapter's expectations file, which the same tox environment runs
next (``reports/certification/certify_engine.py``).
"""

from __future__ import annotations

import pytest

from toolconform.harness.engines.vllm import factory, plugin_factory

from .requests import TOOLS

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)


def test_metadata_names_the_release() -> None:
    assert factory.implementation["version"] == "0.33.0"
    assert "gpt_oss" not in plugin_factory.dialects


def test_unsupported_dialect_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="ds2api"):
        factory("ds2api", TOOLS)


def test_every_registered_name_is_certified_or_has_a_reason() -> None:
    from toolconform.harness.coverage import unaccounted
    from toolconform.harness.engines.vllm import registered_names

    names = registered_names()
    assert unaccounted("vllm", names) == []


def test_the_recorded_registry_is_this_vllms() -> None:
    import json
    from pathlib import Path

    from toolconform.harness.engines.vllm import registered_names

    path = Path(__file__).parents[2] / "reports" / "certification" / "registries" / "vllm.json"
    recorded = json.loads(path.read_text())
    assert {kind: recorded[kind] for kind in ("tool", "reasoning")} == registered_names()


def test_the_server_tells_a_cut_call_from_a_whole_one() -> None:
    """The serving adapter reports the finish reason vLLM's stream processor resolves: a
    stream cut at max_tokens inside a call stays ``length``; a whole one is ``tool_calls``.
    The per-parser API has no finish reason and does not declare the ``length`` ending."""
    assert "length" in factory.endings and "length" not in plugin_factory.endings
    whole = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
    reasons = {}
    for name, text, reason in (
        ("cut", whole[:50], "length"),
        ("whole", whole, "stop"),
    ):
        session = factory("qwen25", TOOLS)
        deltas = session.feed(text[:-1]) + session.finish(text[-1], finish_reason=reason)
        reported = [d["finish_reason"] for d in deltas if "finish_reason" in d]
        reasons[name] = reported
    assert reasons == {"cut": ["length"], "whole": ["tool_calls"]}


def test_a_stand_in_tokenizer_holds_the_dialects_tags_whole() -> None:
    """Where no wheel ships the model's tokenizer, Llama 3.1's stands in with the dialect's
    tags added as tokens of their own: vLLM's parsers that look their tags up by id run (the
    Laguna reasoning parser refused a vocabulary without ``<assistant>``, the jamba one one
    without ``<tool_calls>``), and the tags stay in the text a detokenizer that skips special
    tokens streams. Before, these dialects were not run at all."""
    from toolconform.harness.engines.vllm import BINDINGS, whole_tokens

    assert {"<tool_calls>", "</tool_calls>"} <= set(whole_tokens("jamba"))
    assert "<assistant>" in whole_tokens("poolside_v1")
    assert "<function=" not in whole_tokens("mimo")  # real vocabularies spell it in pieces
    assert BINDINGS["jamba"].stand_in and "jamba" in factory.dialects
    calls = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]</tool_calls>'
    for make in (factory, plugin_factory):
        session = make("jamba", TOOLS)
        vocab = session.tokenizer.get_vocab()
        assert session.tokenizer.encode("<tool_calls>", add_special_tokens=False) == [
            vocab["<tool_calls>"]
        ]
        pieces = (calls[:12], calls[12:30], calls[30:-13], calls[-13:])  # the tags whole
        deltas = [delta for piece in pieces for delta in session.feed(piece)]
        deltas += session.finish()
        names = [
            call["function"]["name"]
            for delta in deltas
            for call in delta.get("tool_calls", ())
            if call.get("function", {}).get("name")
        ]
        assert names == ["get_weather"], deltas
    laguna = factory("poolside_v1", TOOLS)
    assert "<assistant>" in laguna.tokenizer.get_vocab()
