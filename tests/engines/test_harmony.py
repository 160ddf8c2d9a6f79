"""openai-harmony's adapter: what it must do besides parsing (its parsing is certified).

Runs in ``tox -e harmony``; elsewhere the module skips with the install hint. The engine's
conformance is the corpus certified against its expectations file, which the same tox
environment runs next (``reports/certification/certify_engine.py``).
"""

from __future__ import annotations

import pytest

from toolconform.harness.engines.harmony import factory

from .requests import TOOLS

if (problem := factory.import_error()) is not None:
    pytest.skip(problem, allow_module_level=True)


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
