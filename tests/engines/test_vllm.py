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
