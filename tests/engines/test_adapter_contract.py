"""Every engine adapter honours the factory contract, with or without its engine installed."""

from __future__ import annotations

import importlib

import pytest

from toolconform.harness.engines import ENGINE_ADAPTERS
from toolconform.harness.engines.base import Engine, EngineFactory
from toolconform.reference import dialect_names

from .requests import TOOLS

#: The suite's dialects (the registry, not a hand-kept list); adapters map only onto these.
DIALECT_NAMES = set(dialect_names())


def load(spec: str):
    module, _, attribute = spec.partition(":")
    return getattr(importlib.import_module(module), attribute)


@pytest.mark.parametrize("spec", sorted(ENGINE_ADAPTERS.values()))
def test_metadata_is_readable_without_importing_the_engine(spec: str) -> None:
    factory = load(spec)
    implementation = factory.implementation
    assert set(implementation) == {"name", "version", "language", "homepage"}
    assert implementation["language"] == "python"
    assert implementation["homepage"].startswith("https://github.com/")
    assert factory.dialects and set(factory.dialects) <= DIALECT_NAMES
    assert all(isinstance(text, str) and text for text in factory.dialects.values())


@pytest.mark.parametrize("spec", sorted(ENGINE_ADAPTERS.values()))
def test_unmapped_dialect_is_a_lookup_error_naming_the_covered_ones(spec: str) -> None:
    factory = load(spec)
    with pytest.raises(LookupError, match="no parser for dialect 'ds2api'; it covers: "):
        factory("ds2api", TOOLS)


@pytest.mark.parametrize("spec", sorted(ENGINE_ADAPTERS.values()))
def test_missing_engine_is_one_line_naming_its_tox_env(spec: str) -> None:
    factory = load(spec)
    if factory.import_error() is None:
        pytest.skip(f"{factory.engine.name} is installed here")
    dialect = next(iter(factory.dialects))
    with pytest.raises(ImportError) as error:
        factory(dialect, TOOLS)
    message = str(error.value)
    assert "\n" not in message
    assert message.endswith(f"run `tox -e {factory.engine.tox_env}`")
    assert message.startswith(factory.engine.name)


def test_thinking_flag_reaches_the_engine_as_chat_template_kwargs() -> None:
    seen: list[dict] = []
    factory = EngineFactory(
        Engine("Fake", "toolconform-fake-engine", "https://github.com/example/fake", "fake"),
        {"qwen3": "qwen3"},
        lambda: object(),
        lambda handle, dialect, request, family: seen.append(request),
    )
    factory("qwen3", {**TOOLS, "thinking": False})
    factory("qwen3", {"thinking": True, "chat_template_kwargs": {"enable_thinking": False}})
    factory("qwen3", TOOLS)
    assert seen[0]["chat_template_kwargs"] == {
        "enable_thinking": False,
        "thinking": False,
        "thinking_mode": "disabled",
    }
    assert seen[0]["tools"] == TOOLS["tools"]
    assert seen[1]["chat_template_kwargs"] == {
        "enable_thinking": False,
        "thinking": True,
        "thinking_mode": "enabled",
    }
    assert seen[2] == TOOLS
