"""SGLang's adapters: what they must do besides parsing (their parsing is certified).

Runs in ``tox -e sglang``; elsewhere the module skips with the install hint. The engine's
conformance — ``factory`` draining the detectors after each chunk, ``serving_factory``
driving them as ``serving_chat`` does — is the corpus certified against each adapter's
expectations file, which the same tox environment runs next.
"""

from __future__ import annotations

import pytest

from toolconform.harness.engines.sglang import BINDINGS, factory

from .requests import TOOLS

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)


def test_metadata_names_the_release() -> None:
    assert factory.implementation["version"] == "0.5.23"
    assert set(factory.dialects) == set(BINDINGS)


def test_unsupported_dialect_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="ds2api"):
        factory("ds2api", TOOLS)


def test_calls_are_indexed_by_position() -> None:
    """Two calls to the same tool are calls 0 and 1, whatever SGLang's tool_index says."""
    session = factory("qwen25", TOOLS)
    text = (
        '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>'
    )
    deltas = session.feed(text) + session.finish()
    firsts = [
        call["index"]
        for delta in deltas
        for call in delta.get("tool_calls", ())
        if "name" in call["function"]
    ]
    assert firsts == [0, 1]


def test_every_registered_name_is_certified_or_has_a_reason() -> None:
    from toolconform.harness.coverage import unaccounted
    from toolconform.harness.engines.sglang import registered_names

    assert unaccounted("sglang", registered_names()) == []


def test_the_recorded_registry_is_this_sglangs() -> None:
    import json
    from pathlib import Path

    from toolconform.harness.engines.sglang import registered_names

    path = Path(__file__).parents[2] / "reports" / "certification" / "registries" / "sglang.json"
    recorded = json.loads(path.read_text())
    assert {kind: recorded[kind] for kind in ("tool", "reasoning")} == registered_names()


def test_a_named_choice_runs_where_the_detector_parses_it_natively() -> None:
    """Muse Glimmer's detector parses a named choice with no grammar (serving_chat skips
    the JSON-array constraint for it), so the adapter serves it and the detector's own
    filtering is what is certified; a detector that needs the grammar is refused."""
    request = {**TOOLS, "tool_choice": {"type": "function", "function": {"name": "get_time"}}}
    text = (
        ' to=get_time.get_time<|message|><atem:function_calls>\n<atem:invoke name="get_time">'
        "\n</atem:invoke>\n</atem:function_calls><|eot|>"
    )
    session = factory("muse_glimmer", request)
    deltas = session.feed(text) + session.finish()
    names = [c["function"].get("name") for d in deltas for c in d.get("tool_calls", ())]
    assert "get_time" in names
    with pytest.raises(NotImplementedError, match="parses_required_natively"):
        factory("qwen3", request)
