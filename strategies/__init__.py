"""Hypothesis strategies for streaming tool-call parsers: generate, render, chunk, break.

A parser author's property test, in four steps::

    from hypothesis import given, strategies as st
    from toolconform import strategies as tc

    @given(tc.round_trips("qwen3"), st.data())
    def test_my_parser(case, data):
        chunks = data.draw(tc.char_splits(case.text))      # or tc.groupings(token pieces)
        assert my_parse(chunks, case.request) == case.expected

- **values**: ``tools``, ``json_schemas``, ``parameter_schemas``, ``arguments``, ``texts``,
  ``identifiers``;
- **responses**: ``Call``, ``Response``, ``tool_calls``, ``responses``, ``round_trips``
  (``RoundTrip.text`` / ``.request`` / ``.expected``), ``stream_parse``, ``as_result``;
- **renderers**: ``render``, ``get_renderer``, ``renderer_names``, ``Renderer``,
  ``register_renderer`` (one per dialect; see ``toolconform.strategies.renderers``);
- **chunkings**: ``groupings`` (subsets of token boundaries, shrinking to the whole text),
  ``engine_chunkings``, ``two_way``, ``k_token_groups``, ``random_groups``, ``merge``,
  ``char_splits``, ``byte_splits``;
- **malformations**: ``truncations``, ``deleted_markers``, ``duplicated_markers``,
  ``reordered_markers``, ``garbage_between``, ``drift_shells``;
- **profiles**: ``register_profiles`` (``nightly``; ``ci`` is Hypothesis' own under CI);
- **real tokenizers** (the ``tokenizers`` extra): ``token_pieces(dialect, family, text)``,
  ``skip_special_tokens_for`` and the ``toolconform.strategies.tokenizers`` package.

Every strategy validates its arguments when called and raises one
``hypothesis.errors.InvalidArgument`` that names the bad value.
"""

from __future__ import annotations

from typing import Any

from .chunking import (
    byte_splits,
    char_splits,
    engine_chunkings,
    groupings,
    k_token_groups,
    merge,
    random_groups,
    two_way,
)
from .malformations import (
    deleted_markers,
    drift_shells,
    duplicated_markers,
    garbage_between,
    reordered_markers,
    truncations,
)
from .profiles import register_profiles
from .renderers import Renderer, get_renderer, render, renderer_names
from .renderers import register as register_renderer
from .responses import Call, Response, responses, tool_calls
from .round_trips import RoundTrip, as_result, round_trips, stream_parse
from .values import arguments, identifiers, json_schemas, parameter_schemas, texts, tools

_NEEDS_TOKENIZERS = {"token_pieces", "skip_special_tokens_for"}


def __getattr__(name: str) -> Any:
    """The real-tokenizer helpers, imported on first use (they need the extra)."""
    if name in _NEEDS_TOKENIZERS:
        from . import streaming

        return getattr(streaming, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Call",
    "Renderer",
    "Response",
    "RoundTrip",
    "arguments",
    "as_result",
    "byte_splits",
    "char_splits",
    "deleted_markers",
    "drift_shells",
    "duplicated_markers",
    "engine_chunkings",
    "garbage_between",
    "get_renderer",
    "groupings",
    "identifiers",
    "json_schemas",
    "k_token_groups",
    "merge",
    "parameter_schemas",
    "random_groups",
    "register_profiles",
    "register_renderer",
    "render",
    "renderer_names",
    "reordered_markers",
    "responses",
    "round_trips",
    "skip_special_tokens_for",
    "stream_parse",
    "texts",
    "token_pieces",
    "tool_calls",
    "tools",
    "truncations",
    "two_way",
]
