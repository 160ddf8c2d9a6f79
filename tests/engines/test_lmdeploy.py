"""LMDeploy's adapter: what it must do besides parsing (its parsing is certified).

Runs in ``tox -e lmdeploy``; elsewhere the module skips with the install hint. The engine's
conformance is the corpus certified against its expectations file, which the same tox
environment runs next (``reports/certification/certify_engine.py``).
"""

from __future__ import annotations

import pytest

from toolconform.harness.engines.lmdeploy import BINDINGS, factory

from .requests import TOOLS

pytestmark = pytest.mark.filterwarnings("ignore:max_tokens is deprecated:DeprecationWarning")

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)


def test_metadata_names_the_release() -> None:
    assert factory.implementation["version"] == "0.18.0"
    assert set(factory.dialects) == set(BINDINGS)


def test_unsupported_dialect_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="ds2api"):
        factory("ds2api", TOOLS)


def test_dialects_do_not_share_parser_state() -> None:
    """set_parsers writes class state: a qwen3 session after a glm47 one still parses qwen3."""
    factory("glm47", TOOLS)
    session = factory("qwen3", TOOLS)
    text = '<think>a</think><tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>'
    deltas = session.feed(text) + session.finish()
    names = [
        call["function"]["name"]
        for delta in deltas
        for call in delta.get("tool_calls", ())
        if "name" in call["function"]
    ]
    assert names == ["get_time"]
