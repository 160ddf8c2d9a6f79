"""The renderers' layouts and what they keep out of the drawn responses, and why.

The round-trip tests (test_round_trips.py) check every renderer against its parser on
generated responses; these tests pin what generation alone reaches rarely: each value,
text or combination a renderer refuses really does not read back (so the refusal is needed),
the ones it keeps do, and every layout variant is drawn.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis.errors import InvalidArgument

from toolconform import strategies as tc
from toolconform.harness.cases import Expectation, ExpectedCall
from toolconform.harness.commands.dialects import PAGE_COMMAND, dialect_rows, dialects_markdown
from toolconform.reference import Request, get_dialect

TYPED = {
    "type": "object",
    "properties": {
        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "nullable": {"type": ["string", "null"]},
        "flag_or_text": {"type": ["string", "boolean"]},
        "text": {"type": "string"},
    },
}
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": TYPED}}]


def parse(dialect: str, text: str, request: Request) -> Expectation:
    return tc.as_result(get_dialect(dialect).new_parser(request).parse_complete(text))


def arguments_read_back(dialect: str, arguments: dict) -> object:
    """The first call's arguments as parsed from the rendering (the raw text if not JSON)."""
    response = tc.Response(calls=(tc.Call("f", arguments),))
    request = tc.get_renderer(dialect).request(response, TOOLS)
    parsed = get_dialect(dialect).new_parser(request).parse_complete(tc.render(dialect, response))
    raw = parsed.calls[0].arguments
    try:
        return json.loads(raw)
    except ValueError:
        return raw


XML_DIALECTS = ["qwen3_coder", "qwen35", "glm45", "glm47", "minimax_m2"]


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize(
    "arguments",
    [
        {"either": "3"},
        {"nullable": "null"},
        {"flag_or_text": "True"},
        {"text": '"Paris"'},
        {"text": '  "Paris"'},
    ],
)
def test_schema_typed_formats_refuse_strings_their_parser_would_retype(
    dialect: str, arguments: dict
) -> None:
    assert arguments_read_back(dialect, arguments) != arguments
    assert tc.get_renderer(dialect).fit_call(tc.Call("f", arguments), TYPED) is None


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize(
    "arguments",
    [
        {"either": "3 apples", "nullable": "nul", "flag_or_text": "yes"},
        {"text": '"Paris', "either": 3, "nullable": None, "flag_or_text": False},
        {"text": '3 "quoted"', "either": "[1"},
    ],
)
def test_schema_typed_formats_keep_what_reads_back(dialect: str, arguments: dict) -> None:
    assert tc.get_renderer(dialect).fit_call(tc.Call("f", arguments), TYPED) is not None
    assert arguments_read_back(dialect, arguments) == arguments


@pytest.mark.parametrize(
    ("dialect", "value"),
    [
        ("qwen3_coder", "a</parameter>b"),
        ("glm47", "a<arg_key>b"),
        ("minimax_m2", "a</invoke>"),
        ("deepseek_v32", "a</｜DSML｜parameter>"),
        ("deepseek_v4", "<｜DSML｜invoke name"),
        ("gpt_oss", "a<|end|>"),
    ],
)
def test_no_value_holds_a_tag_that_ends_it(dialect: str, value: str) -> None:
    assert arguments_read_back(dialect, {"text": value}) != {"text": value}
    assert tc.get_renderer(dialect).fit_call(tc.Call("f", {"text": value}), TYPED) is None


def test_qwen_refuses_a_string_ending_in_a_carriage_return() -> None:
    assert arguments_read_back("qwen3_coder", {"text": "a\r"}) == {"text": "a"}
    assert tc.get_renderer("qwen3_coder").fit_call(tc.Call("f", {"text": "a\r"}), TYPED) is None


def test_minimax_carries_string_values_with_their_whitespace() -> None:
    """MiniMax-M2 values are verbatim, so indentation and trailing newlines survive."""
    assert arguments_read_back("minimax_m2", {"text": " a\n"}) == {"text": " a\n"}
    fitted = tc.get_renderer("minimax_m2").fit_call(tc.Call("f", {"text": " a\n"}), TYPED)
    assert fitted == tc.Call("f", {"text": " a\n"})


@pytest.mark.parametrize(
    "value",
    ["123", " 7 ", "true", "1, 2", '"quoted"', "[1, 2]", "<a>1</a><b>2</b>", "<item>1</item>"],
)
def test_ds2api_refuses_strings_it_would_type(value: str) -> None:
    # ``note`` is not one of the raw-text fields (``text``, ``command``, …) kept verbatim.
    assert arguments_read_back("ds2api", {"note": value}) != {"note": value}
    assert tc.get_renderer("ds2api").fit_call(tc.Call("f", {"note": value}), None) is None


@pytest.mark.parametrize("value", ["```json", "~~~\nx", "a\n  ```"])
def test_ds2api_refuses_strings_that_open_a_code_fence(value: str) -> None:
    # The CDATA closer then lies inside the fence: the section does not end there.
    assert arguments_read_back("ds2api", {"note": value}) != {"note": value}
    assert tc.get_renderer("ds2api").fit_call(tc.Call("f", {"note": value}), None) is None


@pytest.mark.parametrize(
    "arguments",
    [{"note": "a, b"}, {"note": "<b>bold</b> & more"}, {"n": 2**53}, {"o": {"a": "<x>"}}],
)
def test_ds2api_keeps_what_reads_back(arguments: dict) -> None:
    assert tc.get_renderer("ds2api").fit_call(tc.Call("f", arguments), None) is not None
    assert arguments_read_back("ds2api", arguments) == arguments


@pytest.mark.parametrize(
    "arguments", [{"o": {"item": [1]}}, {"o": {"o": [1]}}, {"n": 2**53 + 1}, {"n": [-(2**60) - 1]}]
)
def test_ds2api_refuses_json_it_would_reshape(arguments: dict) -> None:
    assert arguments_read_back("ds2api", arguments) != arguments
    assert tc.get_renderer("ds2api").fit_call(tc.Call("f", arguments), None) is None


def test_ds2api_prose_loses_what_would_read_as_markup_or_shell_noise() -> None:
    renderer = tc.get_renderer("ds2api")
    assert renderer.fit_text("a <b> `c` ~~~ d\u200b\ufeff") == "a ‹b> 'c' --- d"
    # Noise right before the wrapper belongs to its shell: the parser drops it.
    response = tc.Response(content="a\u200b", calls=(tc.Call("f", {}),))
    assert parse("ds2api", tc.render("ds2api", response), Request()).content == "a"


@pytest.mark.parametrize("dialect", ["glm45", "glm47", "kimi_k2"])
def test_newlines_alone_between_blocks_are_their_separator_not_an_answer(dialect: str) -> None:
    response = tc.Response(
        reasoning="r", reasoning_calls=(tc.Call("f", {}),), content="\n", calls=(tc.Call("f", {}),)
    )
    request = tc.get_renderer(dialect).request(response, TOOLS)
    assert parse(dialect, tc.render(dialect, response), request).content == ""
    assert not tc.get_renderer(dialect).carries(response)
    assert tc.get_renderer(dialect).carries(
        tc.Response(reasoning="r", reasoning_calls=(tc.Call("f", {}),), content="\nok")
    )


@pytest.mark.parametrize("dialect", ["mistral", "gpt_oss", "ds2api"])
def test_every_layout_variant_is_drawn_and_parses_alike(dialect: str) -> None:
    response = tc.Response(
        content="Hi",
        calls=(tc.Call("f", {"text": "東京"}), tc.Call("g", {"n": [1, None]})),
        content_tail="bye",
    )
    renderer = tc.get_renderer(dialect)
    texts = {tc.render(dialect, response, variant) for variant in renderer.variants}
    assert len(texts) == len(renderer.variants) > 1
    for text in texts:
        assert parse(dialect, text, Request()) == response.expected(None)
    drawn: set[str | None] = set()

    @settings(max_examples=30, deadline=None, database=None)
    @given(tc.round_trips(dialect))
    def collect(case: tc.RoundTrip) -> None:
        drawn.add(case.variant)

    collect()
    assert drawn == set(renderer.variants)


def test_an_unknown_variant_is_refused_with_the_known_ones() -> None:
    with pytest.raises(InvalidArgument, match="variant='v7' is not a layout of 'mistral'; its"):
        tc.render("mistral", tc.Response(), "v7")


@pytest.mark.parametrize("dialect", XML_DIALECTS)
@pytest.mark.parametrize("arguments", [{"text": 3}, {"undeclared": 3}, {"either": [1]}])
def test_xml_formats_refuse_values_their_schema_does_not_type(
    dialect: str, arguments: dict
) -> None:
    """A value of a type the parameter does not allow, or of a parameter the tool does not
    declare, is read back as its text."""
    assert arguments_read_back(dialect, arguments) != arguments
    assert tc.get_renderer(dialect).fit_call(tc.Call("f", arguments), TYPED) is None


CALL_DIALECTS = [d for d in tc.renderer_names() if "calls" in tc.get_renderer(d).supports]


@pytest.mark.parametrize("dialect", CALL_DIALECTS)
def test_a_block_stands_between_any_two_pieces_of_text(dialect: str) -> None:
    """What the fuzzer splices into an output: each layout's block parses to its calls
    wherever it stands, between prose and next to another block."""
    renderer = tc.get_renderer(dialect)
    calls = (tc.Call("f", {"text": "Paris"}),)
    for variant in renderer.variants or (None,):
        block = renderer.block(calls, variant)
        parsed = parse(dialect, f"Hello {block}\nthen {block}{block} done", Request())
        assert parsed.calls == (ExpectedCall("f", {"text": "Paris"}),) * 3, variant


def test_a_dialect_without_calls_has_no_block() -> None:
    with pytest.raises(InvalidArgument, match="'deepseek_r1' has no tool calls to write"):
        tc.get_renderer("deepseek_r1").block((tc.Call("f", {}),))


def test_newlines_alone_next_to_a_block_are_not_carried_by_hunyuan_a13b() -> None:
    """Found by the round trips at tag-aligned boundaries: ``<answer>\\n`` + ``"\\n"`` + the
    block reads back no content before the block (the wrapper's newlines are layout)."""
    renderer = tc.get_renderer("hunyuan_a13b")
    call = (tc.Call("a", {}),)
    assert not renderer.carries(tc.Response(content="\n", calls=call, content_tail="0"))
    assert renderer.carries(tc.Response(content="\nx", calls=call, content_tail="0"))
    assert renderer.carries(tc.Response(content="\n", content_tail="0"))  # no block: text


REPOSITORY = Path(__file__).resolve().parents[2]


def test_the_dialects_page_is_the_registry() -> None:
    """docs/dialects.md is what the bundles say of themselves: a new dialect's row comes from
    its bundle, and a page left stale by a change to one fails here."""
    page = (REPOSITORY / "docs/dialects.md").read_text(encoding="utf-8")
    assert page == dialects_markdown(dialect_rows()), f"docs/dialects.md is stale: {PAGE_COMMAND}"


def test_a_stale_dialects_page_is_seen() -> None:
    """The page changes with what a renderer says of its dialect."""
    rows = dialect_rows()
    changed = [
        dict(row, layout="something else") if row["dialect"] == "qwen3" else row for row in rows
    ]
    assert dialects_markdown(changed) != dialects_markdown(rows)


def registered_in(module: Path) -> set[str]:
    """The dialect names a module registers: the ``name=`` of its ``Dialect(…)`` calls, or the
    ``dialect = …`` of its renderer classes."""
    found = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Dialect":
            found |= {k.value.value for k in node.keywords if k.arg == "name"}
        elif isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            "dialect"
        ]:
            found.add(node.value.value)
    return found


def test_every_dialect_is_one_bundle() -> None:
    """A dialect's parser and renderer are the two modules of one name (its bundle): what
    adding a dialect touches is that pair, its cases and its bindings."""
    parsers = {p.stem: registered_in(p) for p in (REPOSITORY / "reference/dialects").glob("*.py")}
    renderers = {
        p.stem: registered_in(p) for p in (REPOSITORY / "strategies/renderers").glob("*.py")
    }
    rendered = {name: stem for stem, names in renderers.items() for name in names}
    assert set(rendered) == set(tc.renderer_names())
    assert {
        name: (stem, rendered.get(name))
        for stem, names in parsers.items()
        for name in names
        if rendered.get(name) != stem
    } == {}


@pytest.mark.parametrize(
    ("path", "section", "column"),
    [
        ("README.md", "## Dialects", 1),  # the wire formats of each grammar
        ("docs/fuzzing.md", "## Targets", 1),  # what the fuzzer holds each grammar to
    ],
)
def test_every_grammar_is_documented(path: str, section: str, column: int) -> None:
    """A grammar, not a dialect, has a row in these tables: a dialect of a grammar that exists
    touches neither."""
    text = (REPOSITORY / path).read_text(encoding="utf-8")
    table = text.split(section, 1)[1].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    rows = ("|" + table).splitlines()[2:]
    documented = {
        name for row in rows for name in re.findall(r"`([a-z0-9_]+)`", row.split("|")[column])
    }
    grammars = {tc.get_renderer(name).grammar for name in tc.renderer_names()}
    assert grammars - documented == set()
