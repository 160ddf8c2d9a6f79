"""The dialects that reuse the XML-like and DSML drivers with their own tags.

Their corpus cases pin the grammar; these tests pin what a case cannot: a K2 Horizon type
tag read at every token-aligned cut, and engine bindings that name parsers the engines
really register.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from toolconform.harness.cases import ExpectedCall
from toolconform.harness.coverage import ENGINES, engine_module, load_registries
from toolconform.reference import Request, get_dialect
from toolconform.strategies import as_result, stream_parse
from toolconform.strategies.chunking import tag_aligned_boundaries

REPORTS = Path(__file__).parents[2] / "reports" / "certification"
WEATHER = json.loads(
    (Path(__file__).parents[2] / "corpus" / "tools" / "get_weather.json").read_text("utf-8")
)

K2_TYPED = (
    "<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
    "<ifm|arg_type>string</ifm|arg_type><ifm|arg_value>Oslo</ifm|arg_value>"
    "<ifm|arg_key>days</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type>"
    "<ifm|arg_value>3</ifm|arg_value></ifm|tool_call></ifm|tool_calls>"
)
#: A type tag that never closes: dropped with the stray text after it, up to the value.
K2_UNENDED_TYPE = (
    "<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key>"
    "<ifm|arg_type>" + "x" * 70 + "<ifm|arg_value>Oslo</ifm|arg_value>"
    "</ifm|tool_call></ifm|tool_calls>"
)


@pytest.mark.parametrize(
    ("text", "arguments"),
    [(K2_TYPED, {"city": "Oslo", "days": 3}), (K2_UNENDED_TYPE, {"city": "Oslo"})],
    ids=["typed", "unended-type"],
)
def test_a_k2_horizon_type_tag_is_skipped_at_every_cut(text: str, arguments: dict) -> None:
    request = Request.from_openai({"tools": [WEATHER], "thinking": False})
    boundaries = tag_aligned_boundaries(text, get_dialect("k2_horizon").protocol_tags())
    for first, second in itertools.combinations_with_replacement(boundaries, 2):
        chunks = [text[:first], text[first:second], text[second:]]
        result = as_result(stream_parse("k2_horizon", chunks, request))
        assert result.calls == (ExpectedCall("get_weather", arguments),), chunks


@pytest.mark.parametrize("engine", list(ENGINES))
def test_every_bound_parser_name_is_one_the_engine_registers(engine: str) -> None:
    """A binding to a name the engine does not register would fail only when certifying."""
    registered = load_registries(REPORTS)[engine]
    module = engine_module(engine)
    for dialect, binding in module.BINDINGS.items():
        for kind in ("tool", "reasoning"):
            name = getattr(binding, f"{kind}_parser")
            assert name is None or name in registered[kind], (dialect, kind, name)
