"""The dialect registry: names resolve, duplicates are refused, a module reload is not one."""

from __future__ import annotations

import importlib

import pytest

from toolconform.reference import Dialect, dialect_names, get_dialect, register
from toolconform.reference.dialects import hermes


def test_a_reloaded_dialect_module_replaces_its_own_entries() -> None:
    before = get_dialect("qwen3")
    importlib.reload(hermes)
    after = get_dialect("qwen3")
    assert after is not before and after.tool_parser is hermes.HermesToolParser
    assert "qwen3" in dialect_names()


def test_another_dialect_under_a_taken_name_is_refused() -> None:
    with pytest.raises(ValueError, match="'qwen3' is already registered"):
        register(Dialect(name="qwen3", description="impostor", tool_parser=None))


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown dialect 'nope'; known dialects: .*qwen3"):
        get_dialect("nope")
