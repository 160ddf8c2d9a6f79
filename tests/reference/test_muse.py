"""The ``muse`` dialect: Harmony-like addressed messages whose tool bodies hold ATEM invokes.

The corpus (corpus/cases/muse) holds the routing and the values; these pin the rules a case
file states less directly: which doubled names collapse, and that a tool body is read the
same under every tag-aligned chunking, its invokes in a block or bare.
"""

from __future__ import annotations

import pytest

from toolconform.reference import Request

from ..support import Expected, check, tools

START = "<|start|>assistant"


def invoke(name: str, city: str = "Oslo") -> str:
    return (
        f'<atem:invoke name="{name}">\n<atem:parameter name="city">{city}</atem:parameter>\n'
        "</atem:invoke>\n"
    )


def tool_message(recipient: str, body: str, end: str = "<|eom|>") -> str:
    return f"{START} to={recipient}<|message|>{body}{end}"


@pytest.mark.parametrize(
    ("emitted", "offered", "name"),
    [
        ("f.f", ("f",), "f"),  # the template's doubled namespace
        ("f.f", ("f", "f.f"), "f.f"),  # a tool really named f.f is that tool
        ("f.f", (), "f"),  # no tools offered: any name, collapsed
        ("ns.f", ("f", "ns.f"), "ns.f"),  # only a doubled name collapses
        ("a.b.a", ("a",), None),  # not doubled: unknown, filtered
    ],
)
def test_a_doubled_name_is_the_tool_it_doubles(emitted: str, offered: tuple, name) -> None:
    text = " to=self<|message|>R<|eom|>" + tool_message(emitted, invoke(emitted), "<|eot|>")
    request = Request(tools=tools(*offered) if offered else None)
    calls = [(name, '{"city": "Oslo"}')] if name else []
    check("muse", text, Expected("", "R", calls), request)


def test_blocks_and_bare_invokes_in_one_tool_message() -> None:
    """Two blocks and a bare invoke between prose, all in one message: three calls, and
    the prose is neither content nor reasoning, under every tag-aligned chunking."""
    body = (
        "first <atem:function_calls>\n" + invoke("a.a", "1") + "</atem:function_calls>"
        " then " + invoke("b.b", "2") + " and <atem:function_calls>" + invoke("a.a", "3")
        + "</atem:function_calls> end"
    )  # fmt: skip
    text = tool_message("a.a", body, "<|eom|>")[len(START) :] + tool_message("user", "Done.")
    expected = Expected(
        "Done.",
        None,
        [("a", '{"city": "1"}'), ("b", '{"city": "2"}'), ("a", '{"city": "3"}')],
    )
    check("muse", text, expected, Request(tools=tools("a", "b")))


def test_a_header_without_a_space_before_its_recipient_is_still_addressed() -> None:
    """`` to=`` follows ``assistant`` or starts the header; a header marker ends it."""
    text = "to=self<|message|>R<|eom|><|start|>assistant to=user<|message|>A<|eot|>"
    check("muse", text, Expected("A", "R", []), Request(tools=tools("f")))


def string_tool(name: str) -> list[dict]:
    """A tool whose one parameter ``code`` is declared a string."""
    schema = {"type": "object", "properties": {"code": {"type": "string"}}}
    return [{"type": "function", "function": {"name": name, "parameters": schema}}]


@pytest.mark.parametrize(
    ("dialect", "arguments"),
    [
        ("muse", '{"code": "1234"}'),  # Spark: typed by the schema
        ("muse_glimmer", '{"code": 1234}'),  # Glimmer: read as JSON whatever the schema
    ],
)
def test_the_profiles_read_a_string_parameter_that_reads_as_json(
    dialect: str, arguments: str
) -> None:
    body = (
        '<atem:invoke name="f">\n<atem:parameter name="code">1234</atem:parameter>\n</atem:invoke>'
    )
    text = tool_message("f.f", body, "<|eot|>")[len(START) :]
    check(dialect, text, Expected("", None, [("f", arguments)]), Request(tools=string_tool("f")))


def test_glimmer_keeps_text_that_is_no_json_as_a_string() -> None:
    body = (
        '<atem:invoke name="f">\n<atem:parameter name="code"> a b </atem:parameter>\n</atem:invoke>'
    )
    text = tool_message("f.f", body, "<|eot|>")[len(START) :]
    expected = Expected("", None, [("f", '{"code": " a b "}')])
    check("muse_glimmer", text, expected, Request(tools=string_tool("f")))


@pytest.mark.parametrize(
    ("dialect", "expected"),
    [
        ("muse", Expected("A", "R1R2", [])),  # Spark: developer dropped, bodies joined
        ("muse_glimmer", Expected("A", "R1\nR2", [("f", '{"city": "Oslo"}')])),
    ],
)
def test_the_profiles_route_developer_and_join_reasoning(dialect: str, expected) -> None:
    """Glimmer's ``to=developer`` is a tool channel (its prose dropped, its invokes calls),
    and its reasoning messages are joined by a newline."""
    text = (
        " to=self<|message|>R1<|eom|>"
        + tool_message("developer", "note " + invoke("f.f"))
        + tool_message("self", "R2")
        + tool_message("user", "A", "<|eot|>")
    )
    check(dialect, text, expected, Request(tools=tools("f")))
