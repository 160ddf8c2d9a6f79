"""The ds2api dialect (seed 003): what it must do, scenario by scenario.

Every scenario goes through ``support.check``: the complete parse must equal the expected
result, and the stream must reconstruct it under every chunking (whole, one character per
chunk, every two-way split, random groupings): ds2api's tags may be cut anywhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolconform.reference import FinalResult, Request, get_dialect

from ..support import Expected, check, stream, tools

DIALECT = "ds2api"


def call(name: str, **arguments: Any) -> tuple[str, str]:
    return name, json.dumps(arguments, ensure_ascii=False)


def text_only(text: str) -> Expected:
    """Not a call: released whole, byte for byte."""
    return Expected(text, None, [])


# ---------------------------------------------------------------- tag shells

Shell = Callable[[str, bool, str], str]  # (local name, closing, attributes) -> tag


def prefixed(prefix: str, *, lt: str = "<", gt: str = ">", slash: str = "/") -> Shell:
    return lambda name, closing, attrs: f"{lt}{slash if closing else ''}{prefix}{name}{attrs}{gt}"


def read_call(shell: Shell, quote: tuple[str, str] = ('"', '"'), local: dict | None = None) -> str:
    names = {"tool_calls": "tool_calls", "invoke": "invoke", "parameter": "parameter"}
    names.update(local or {})
    q1, q2 = quote

    def tag(name: str, closing: bool = False, attrs: str = "") -> str:
        return shell(names[name], closing, attrs)

    return (
        tag("tool_calls")
        + tag("invoke", attrs=f" name={q1}Read{q2}")
        + tag("parameter", attrs=f" name={q1}file_path{q2}")
        + "a.md"
        + tag("parameter", True)
        + tag("invoke", True)
        + tag("tool_calls", True)
    )


SHELLS = {
    "dsml": read_call(prefixed("|DSML|")),
    "legacy-xml": read_call(prefixed("")),
    "fullwidth-pipes": read_call(prefixed("｜DSML｜")),
    "fullwidth-bang": read_call(
        lambda n, c, a: f"<！{'/' if c else ''}DSML！{n}{a}>", quote=("“", "”")
    ),
    "ideographic-comma": read_call(lambda n, c, a: f"<、{'/' if c else ''}DSML、{n}{a}>"),
    "control-picture": read_call(prefixed("DSML␂")),
    "raw-stx": read_call(prefixed("DSML\x02")),
    "cjk-angle-brackets": read_call(prefixed("DSM|", lt="〈", gt="〉")),
    "fullwidth-angles-and-slash": read_call(prefixed("|DSML|", lt="＜", gt="＞", slash="／")),
    "curly-quotes": read_call(prefixed("|DSML|"), quote=("“", "”")),
    "repeated-lt": read_call(prefixed("<|DSML|")),
    "repeated-prefix-noise": read_call(prefixed("<DSML|DSML|")),
    "pascal-case": read_call(
        prefixed("DSmart"),
        local={"tool_calls": "ToolCalls", "invoke": "Invoke", "parameter": "Parameter"},
    ),
    "collapsed": read_call(prefixed("DSML")),
    "hyphenated": read_call(prefixed("dsml-"), local={"tool_calls": "tool-calls"}),
    "underscored": read_call(prefixed("dsml_")),
    "space-typo": read_call(prefixed("|DSML ")),
    "sentencepiece-space": read_call(prefixed("|DSML▁")),
    "ideographic-space": read_call(prefixed("|DSML\u3000")),
    "vendor-pipe": read_call(prefixed("abc|")),
    "vendor-underscore": read_call(prefixed("vendor_")),
    "vendor-dash": read_call(prefixed("agent - ")),
    "emoji-separator": read_call(prefixed("proto💥")),
    "dsml-after-letter": read_call(prefixed("T|DSML|")),
    "trailing-separator": read_call(lambda n, c, a: f"<{'/' if c else ''}DSML{n}{a}※>"),
    "zero-width-noise": read_call(prefixed("|\u200bDSML|\ufeff")),
    "confusable-letters": read_call(
        prefixed("|DSML|"),
        local={"tool_calls": "toοl_calls", "invoke": "invοkе", "parameter": "parаmeter"},
    ),
}


@pytest.mark.parametrize("block", SHELLS.values(), ids=SHELLS.keys())
def test_drifted_shells_are_tool_calls(block: str) -> None:
    text = f"Reading it.\n{block}\nDone."
    check(DIALECT, text, Expected("Reading it.\n\nDone.", None, [call("Read", file_path="a.md")]))


def test_trailing_pipe_tag_terminator_without_gt() -> None:
    text = (
        '<|DSML|tool_calls| \n  <|DSML|invoke name="terminal">\n'
        '    <|DSML|parameter name="timeout"><![CDATA[10]]></|DSML|parameter>\n'
        "  </|DSML|invoke>\n</|DSML|tool_calls>"
    )
    check(DIALECT, text, Expected("", None, [call("terminal", timeout=10)]))


def test_trailing_separator_before_the_tag_end_of_an_attributed_shell() -> None:
    text = (
        '<DSM|tool_calls><DSM|invoke name="Bash"|><DSM|parameter name="command"|>'
        "<![CDATA[pwd]]></DSM|parameter></DSM|invoke></DSM|tool_calls>"
    )
    check(DIALECT, text, Expected("", None, [call("Bash", command="pwd")]))


def test_mixed_dsml_and_canonical_tags_are_one_block() -> None:
    text = (
        '<|DSML|tool_calls><invoke name="Bash"><|DSML|parameter name="command">pwd'
        "</|DSML|parameter></invoke></|DSML|tool_calls>"
    )
    check(DIALECT, text, Expected("", None, [call("Bash", command="pwd")]))


NEAR_MISSES = {
    "name-suffix": '<tool_calls_extra><invoke name="x"></invoke></tool_calls_extra>',
    "pascal-suffix": (
        '<DSmartToolCallsExtra><DSmartInvoke name="Bash"><DSmartParameter name="command">'
        "pwd</DSmartParameter></DSmartInvoke></DSmartToolCallsExtra>"
    ),
    "invoker": (
        '<tool_calls><invoker name="x"><parameter name="a">1</parameter></invoker></tool_calls>'
    ),
    "confusable-invoker": (
        '<tool_calls><invοker name="x"><parameter name="a">1</parameter></invοker></tool_calls>'
    ),
    "bare-hyphen-wrapper": (
        '<tool-calls><invoke name="Bash"><parameter name="command">pwd</parameter></invoke>'
        "</tool-calls>"
    ),
    "space-typo-suffix": (
        '<|DSML tool_calls_extra><|DSML invoke name="Read"><|DSML parameter name="p">x'
        "</|DSML parameter></|DSML invoke></|DSML tool_calls_extra>"
    ),
    "collapsed-suffix": (
        '<DSMLtool_calls_extra><DSMLinvoke name="u"><DSMLparameter name="t">x</DSMLparameter>'
        "</DSMLinvoke></DSMLtool_calls_extra>"
    ),
    "legacy-tools": (
        '<tools><tool_call><tool_name>read_file</tool_name><param>{"path":"a"}</param>'
        "</tool_call></tools>"
    ),
    "json-payload": '{"tool_calls":[{"name":"read_file","input":{"path":"README.MD"}}]}',
}


@pytest.mark.parametrize("text", NEAR_MISSES.values(), ids=NEAR_MISSES.keys())
def test_near_misses_stay_text(text: str) -> None:
    check(DIALECT, f"See: {text} end", text_only(f"See: {text} end"))


def test_only_the_candidate_shell_is_folded() -> None:
    prose = "Ｔοol calls use ｜pipes｜, “quotes” and <b>bold</b>: "
    block = (
        '<|DSML|tοol_calls><|DSML|invoke name="Write">'
        '<|DSML|parameter name="description"><![CDATA[<invοke>“x”</invοke>]]></|DSML|parameter>'
        '<|DSML|parameter name="note">ｆullwidth “curly” ｜pipe｜</|DSML|parameter>'
        '<|DSML|parameter name="html"><![CDATA[<b>urgent</b>]]></|DSML|parameter>'
        "</|DSML|invoke></|DSML|tool_calls>"
    )
    expected = call(
        "Write",
        description="<invοke>“x”</invοke>",
        note="ｆullwidth “curly” ｜pipe｜",
        html="<b>urgent</b>",
    )
    check(DIALECT, prose + block, Expected(prose, None, [expected]))


# ---------------------------------------------------------------- missing opening wrapper

READ = '<invoke name="read_file"><parameter name="path">README.md</parameter></invoke>'


@pytest.mark.parametrize(
    ("block", "closing"),
    [
        (READ, "</tool_calls>"),
        (READ.replace("<", "<|DSML|").replace("<|DSML|/", "</|DSML|"), "</|DSML|tool_calls>"),
        (
            '<invοkе nаme="read_file"><parаmeter nаme="path"><![\u200bСDАTА[README.md]]>'
            "</parаmeter></invοkе>",
            "</toοl_calls>",
        ),
    ],
    ids=["legacy", "dsml", "confusable"],
)
def test_missing_opening_wrapper_is_repaired(block: str, closing: str) -> None:
    text = f"Before tool call\n{block}\n{closing}\nafter"
    check(
        DIALECT,
        text,
        Expected("Before tool call\n\nafter", None, [call("read_file", path="README.md")]),
    )


def test_a_block_missing_its_opener_may_hold_several_calls() -> None:
    second = READ.replace("read_file", "stat")
    text = f"{READ}\n{second}\n</tool_calls>"
    expected = [call("read_file", path="README.md"), call("stat", path="README.md")]
    check(DIALECT, text, Expected("", None, expected))


@pytest.mark.parametrize(
    "text",
    [
        READ,
        f"Example: {READ} then continue.",
        f"{READ} then prose </tool_calls>",
        '<invoker name="read_file"><parameter name="path">README.md</parameter></invoker>\n'
        "</tool_calls>",
        '<parameter name="path">README.md</parameter>',
        '<invoke name="read_file">hello</invoke></tool_calls>',
    ],
    ids=[
        "bare-invoke",
        "bare-invoke-in-prose",
        "prose-before-close",
        "near-miss",
        "bare-parameter",
        "prose-body",
    ],
)
def test_no_repair_without_wrapper_confidence(text: str) -> None:
    check(DIALECT, text, text_only(text))


# ---------------------------------------------------------------- code is inert

BLOCK = (
    '<tool_calls><invoke name="read_file"><parameter name="path">x</parameter></invoke>'
    "</tool_calls>"
)
REAL = BLOCK.replace(">x<", ">real.md<")


@pytest.mark.parametrize(
    "text",
    [
        f"Example:\n```xml\n{BLOCK}\n```\nDone.",
        f"Example:\n~~~\n{BLOCK}\n~~~\nDone.",
        f"Example:\n  ```\n{BLOCK}\n  ```\nDone.",
        f"````markdown\n```xml\n{BLOCK}\n```\n````\nDone.",
        f"~~~\n```\n{BLOCK}\n```\n~~~\nDone.",
        f"```\n{BLOCK}\n```` \nDone.",
        f"Unclosed:\n```\n{BLOCK}\n",
        f"Inline: `{BLOCK}` done.",
        f"Inline: ``a ` {BLOCK}`` done.",
        f"Inline across lines: `x\n{BLOCK}\ny` done.",
        f"Stray ` before a span that closes later {BLOCK} and ` here.",
        f"<!-- {BLOCK} -->",
    ],
    ids=[
        "backtick-fence",
        "tilde-fence",
        "indented-fence",
        "four-around-three",
        "tilde-around-backtick",
        "longer-closing-fence",
        "unclosed-fence",
        "inline-code",
        "double-backtick-span",
        "span-over-lines",
        "stray-backtick-pairs-later",
        "comment",
    ],
)
def test_code_examples_are_never_executed(text: str) -> None:
    check(DIALECT, text, text_only(text))


def test_a_fence_line_with_an_info_string_does_not_close_the_fence() -> None:
    text = f"```\n```python\n{BLOCK}\n```\nafter"
    check(DIALECT, text, text_only(text))


@pytest.mark.parametrize(
    "prefix",
    [
        f"Example:\n```xml\n{BLOCK}\n```\n",
        f"````\n```\n{BLOCK}\n```\n````\n",
        f"Inline `{BLOCK}` and then:\n",
        "A stray ` before the real call ",
        "Mention `<|DSML|tool_calls>` and <dsml|tool_calls> first.\n",
    ],
    ids=[
        "after-fence",
        "after-nested-fence",
        "after-inline-code",
        "after-stray-backtick",
        "after-mentions",
    ],
)
def test_a_real_call_after_an_example_still_fires(prefix: str) -> None:
    check(DIALECT, prefix + REAL, Expected(prefix, None, [call("read_file", path="real.md")]))


def test_a_call_leaves_no_trace_in_the_markdown_state() -> None:
    """The block vanishes from the text: a fence right after it starts a line, as in ds2api."""
    after = f"```\n{BLOCK}\n```\n"
    text = f"Text\n{REAL}{after}"
    check(DIALECT, text, Expected(f"Text\n{after}", None, [call("read_file", path="real.md")]))


# ---------------------------------------------------------------- CDATA

HERE_DOC = (
    "cat > doc.md << 'EOF'\n```xml\n<|DSML|tool_calls>\n  <|DSML|invoke name=\"Bash\">\n"
    '    <|DSML|parameter name="command"><![CDATA[grep x < in.log]]></|DSML|parameter>\n'
    "  </|DSML|invoke>\n</|DSML|tool_calls>\n```\nOnly the literal `]]>` is special.\nEOF"
)


def test_cdata_keeps_fenced_dsml_examples_and_literal_closers() -> None:
    text = (
        '<|DSML|tool_calls><|DSML|invoke name="Bash"><|DSML|parameter name="command"><![CDATA['
        + HERE_DOC
        + ']]></|DSML|parameter><|DSML|parameter name="description"><![CDATA[Write doc]]>'
        "</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>"
    )
    check(
        DIALECT, text, Expected("", None, [call("Bash", command=HERE_DOC, description="Write doc")])
    )


def test_tool_syntax_in_cdata_is_parameter_text() -> None:
    inner = (
        '<tool_calls><invoke name="demo"><parameter name="v">x</parameter></invoke></tool_calls>'
    )
    text = (
        f'<tool_calls><invoke name="Write"><parameter name="content"><![CDATA[{inner}]]>'
        '</parameter><parameter name="file_path">notes.md</parameter></invoke></tool_calls>'
    )
    check(DIALECT, text, Expected("", None, [call("Write", content=inner, file_path="notes.md")]))


@pytest.mark.parametrize("opener", ["<![CDATA[", "<！[CDATA[", "<、[CDATA[", "〈![CDATA["])
def test_drifted_cdata_openers(opener: str) -> None:
    text = (
        f'<tool_calls><invoke name="Bash"><parameter name="command">{opener}ls <x>]]>'
        "</parameter></invoke></tool_calls>"
    )
    check(DIALECT, text, Expected("", None, [call("Bash", command="ls <x>")]))


def test_loose_cdata_is_recovered_at_the_end() -> None:
    text = (
        '<tool_calls><invoke name="Write"><parameter name="content"><![CDATA[hello world'
        "</parameter></invoke></tool_calls>"
    )
    check(DIALECT, text, Expected("", None, [call("Write", content="hello world")]))
    held = stream(DIALECT, [text, ""])  # the block stays held until the text ends
    assert [m.content for m in held[:-1] if m.content] == []


def test_unrecoverable_loose_cdata_is_released_as_text() -> None:
    text = '<tool_calls><invoke name="Write"><parameter name="content"><![CDATA[hello'
    check(DIALECT, text, text_only(text))


# ---------------------------------------------------------------- parameter values


def test_json_literals_become_typed_values() -> None:
    text = (
        '<tool_calls><invoke name="configure">'
        '<parameter name="count">123</parameter><parameter name="ratio">-0.5</parameter>'
        '<parameter name="enabled">true</parameter><parameter name="none">null</parameter>'
        '<parameter name="list">[1,2]</parameter><parameter name="object">{"a":1}</parameter>'
        '<parameter name="quoted">"text"</parameter>'
        '<parameter name="max_tokens"><![CDATA[256]]></parameter>'
        '<parameter name="command"><![CDATA[123]]></parameter>'
        '<parameter name="word">hello</parameter>'
        "</invoke></tool_calls>"
    )
    expected = call(
        "configure",
        count=123,
        ratio=-0.5,
        enabled=True,
        none=None,
        list=[1, 2],
        object={"a": 1},
        quoted="text",
        max_tokens=256,
        command=123,
        word="hello",
    )
    check(DIALECT, text, Expected("", None, [expected]))


def test_item_children_become_arrays() -> None:
    text = (
        '<|DSML|tool_calls><|DSML|invoke name="Ask"><|DSML|parameter name="questions">\n'
        "<item>\n<question><![CDATA[Next?]]></question>\n<options>\n"
        "<item><label>Run</label></item>\n<item><label>Stop</label></item>\n</options>\n"
        "<multiSelect>false</multiSelect>\n</item>\n</|DSML|parameter>"
        '<|DSML|parameter name="tags"><item>solo</item></|DSML|parameter>'
        "</|DSML|invoke></|DSML|tool_calls>"
    )
    questions = [
        {
            "question": "Next?",
            "options": [{"label": "Run"}, {"label": "Stop"}],
            "multiSelect": False,
        }
    ]
    check(DIALECT, text, Expected("", None, [call("Ask", questions=questions, tags=["solo"])]))


def test_structured_cdata_becomes_an_object_except_for_raw_text_fields() -> None:
    fragment = "<question>Pick</question><options><item>A</item><item>B</item></options>"
    text = (
        '<tool_calls><invoke name="Ask">'
        f'<parameter name="questions"><![CDATA[{fragment}]]></parameter>'
        f'<parameter name="content"><![CDATA[{fragment}]]></parameter>'
        '<parameter name="todos"><![CDATA[<br>  <item><br><status>done</status><br></item><br>]]>'
        "</parameter></invoke></tool_calls>"
    )
    expected = call(
        "Ask",
        questions={"question": "Pick", "options": ["A", "B"]},
        content=fragment,
        todos=[{"status": "done"}],
    )
    check(DIALECT, text, Expected("", None, [expected]))


def test_empty_values_repeated_names_entities_and_loose_lists() -> None:
    text = (
        '<tool_calls><invoke name="Bash">'
        '<parameter name="command">echo a &gt; out.txt</parameter>'
        '<parameter name="cwd"></parameter><parameter name="timeout">   </parameter>'
        '<parameter name="item">first</parameter><parameter name="item">second</parameter>'
        '<parameter name="paths">"a.md", "b.md"</parameter>'
        '<parameter name="cmd">"a", "b"</parameter>'
        "</invoke></tool_calls>"
    )
    expected = call(
        "Bash",
        command="echo a > out.txt",
        cwd="",
        timeout="",
        item=["first", "second"],
        paths=["a.md", "b.md"],
        cmd='"a", "b"',
    )
    check(DIALECT, text, Expected("", None, [expected]))


@pytest.mark.parametrize(
    ("body", "arguments"),
    [
        ("", {}),
        ("\n  ", {}),
        ('{"input":{"command":"pwd"}}', {"command": "pwd"}),
        ('{"parameters":{"q":"go"}}', {"q": "go"}),
    ],
    ids=["empty", "blank", "json-input", "json-parameters"],
)
def test_zero_argument_and_json_bodies(body: str, arguments: dict[str, Any]) -> None:
    text = f'<tool_calls><invoke name="noop">{body}</invoke></tool_calls>'
    check(DIALECT, text, Expected("", None, [call("noop", **arguments)]))


# ---------------------------------------------------------------- streaming


def test_suffix_prose_and_consecutive_blocks() -> None:
    text = f"First {REAL} between {BLOCK}\nlast words"
    expected = [call("read_file", path="real.md"), call("read_file", path="x")]
    check(DIALECT, text, Expected("First  between \nlast words", None, expected))


INVALID_BLOCKS = {
    "no-invoke": "<tool_calls>just prose</tool_calls>",
    "nameless-invoke": (
        '<tool_calls><invoke><parameter name="path">a</parameter></invoke></tool_calls>'
    ),
    "param-instead-of-parameter": (
        '<tool_calls><invoke name="read_file"><param>{"path":"a"}</param></invoke></tool_calls>'
    ),
    "mismatched-close": (
        '<tool_calls><invoke name="read_file"><parameter name="path">a</function></invoke>'
        "</tool_calls>"
    ),
    "unclosed-wrapper": '<tool_calls><invoke name="read_file"><parameter name="path">a',
    "stray-close": "</tool_calls> and </|DSML|invoke> in prose",
}


@pytest.mark.parametrize("block", INVALID_BLOCKS.values(), ids=INVALID_BLOCKS.keys())
def test_an_invalid_block_is_released_whole(block: str) -> None:
    text = f"Before {block} after"
    check(DIALECT, text, text_only(text))


def test_a_mention_before_the_real_block_loses_no_text() -> None:
    prose = "Summary: support canonical <tool_calls> and DSML <|DSML|tool_calls> wrappers.\n\n"
    block = REAL.replace("<", "<|DSML|").replace("<|DSML|/", "</|DSML|")
    check(
        DIALECT,
        prose + block + "\nthanks",
        Expected(prose + "\nthanks", None, [call("read_file", path="real.md")]),
    )


def test_a_recognised_call_is_emitted_when_its_block_closes_and_never_becomes_text() -> None:
    parser = get_dialect(DIALECT).new_parser()
    first = [m for m, _ in parser.stream_chunk("Intro " + REAL)]
    assert [m.content for m in first if m.content] == ["Intro "]
    fragments = [f for m in first for f in m.tool_calls or ()]
    assert fragments[0].name == "read_file" and fragments[0].id == "call_0"
    assert json.loads(fragments[1].arguments) == {"path": "real.md"}
    rest = [m for m, _ in parser.stream_chunk(" and </tool_calls> more", final=True)]
    assert "".join(m.content or "" for m in rest) == " and </tool_calls> more"
    assert not any(m.tool_calls for m in rest)
    assert parser.tool_emitted


def test_prose_is_released_at_once_and_a_cut_shell_is_held() -> None:
    parser = get_dialect(DIALECT).new_parser()
    assert [m.content for m, _ in parser.stream_chunk("Hello there, ")] == ["Hello there, "]
    assert [m.content for m, _ in parser.stream_chunk("see <too")] == ["see "]
    assert parser.held_back == "<too"
    assert [m.content for m, _ in parser.stream_chunk("ls> for x")] == ["<tools> for x"]
    assert parser.held_back == ""


# ---------------------------------------------------------------- policy and declarations


def test_unknown_tool_names_are_returned() -> None:
    request = Request(tools=tools("read_file"))
    text = REAL.replace("read_file", "not_in_schema")
    check(DIALECT, text, Expected("", None, [call("not_in_schema", path="real.md")]), request)
    assert get_dialect(DIALECT).filters_unknown_names is False
    assert get_dialect("qwen3").filters_unknown_names is True


def test_tool_choice_none_leaves_everything_text() -> None:
    parser = get_dialect(DIALECT).new_parser(Request(tool_choice="none"))
    assert parser.parse_complete(REAL).content == REAL


def test_protocol_tags_are_the_canonical_spellings_with_every_prefix() -> None:
    tags = get_dialect(DIALECT).protocol_tags()
    for tag in (
        "<|DSML|tool_calls>",
        "</|DSML|parameter>",
        "<|DSML|invoke",
        "<tool_calls>",
        "</invoke>",
        "<parameter",
    ):
        assert tag in tags
        assert set(tags[tag]) == {tag[:i] for i in range(1, len(tag))}


# ---------------------------------------------------------------- properties
# On generated text dense in tag-shell fragments: the complete parse equals the stream
# under any chunking (random cuts, one character per chunk), nothing raises, and when no
# call is found the text comes back byte for byte (a block that is not a call is never
# half-swallowed).

FRAGMENTS = (
    "<", ">", "/", "|", "DSML", "tool_calls", "invoke", "parameter", ' name="x"', " name=“y”",
    "`", "```", "~~~", "\n", " ", "<![CDATA[", "]]>", "<!--", "-->", "abc", '{"a":1}',
    "<item>", "</item>", "！", "、", "\u200b", "＜", "＞", "〈", "〉", '"', "'", "_", "-", "[",
    "]", "※", "\x02", "ο", "<|DSML|tool_calls>", "</|DSML|tool_calls>",
    '<|DSML|invoke name="f">', "</|DSML|invoke>", '<|DSML|parameter name="p">',
    "</|DSML|parameter>", "<tool_calls>", "</tool_calls>", '<invoke name="g">', "</invoke>",
    '<parameter name="q">', "</parameter>",
)  # fmt: skip

texts = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=40).map("".join)


def _result(chunks: list[str]) -> FinalResult:
    return get_dialect("ds2api").new_parser().parse_stream(chunks)


@settings(deadline=None)  # several parses per example: timing varies on a busy machine
@given(texts, st.data())
def test_the_result_does_not_depend_on_the_chunking(text: str, data: st.DataObject) -> None:
    whole = _result([text])
    cuts = data.draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=6))
    bounds = [0, *sorted(cut for cut in cuts if cut < len(text)), len(text)]
    assert _result([text[a:b] for a, b in pairwise(bounds)]) == whole
    assert _result(list(text)) == whole
    if not whole.calls:
        assert whole.content == text
