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
