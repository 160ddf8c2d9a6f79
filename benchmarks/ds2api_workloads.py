"""Scaling workloads for the ds2api sieve: a long CDATA parameter and near-miss prose.

Both are built to an exact size so that time(64k) / time(8k) measures how the sieve's work
grows with the output: a linear sieve gives about 8.
"""

from __future__ import annotations

from itertools import cycle

_FENCED_EXAMPLE = (
    '```xml\n<|DSML|tool_calls><|DSML|invoke name="demo"><|DSML|parameter name="v">'
    "<![CDATA[x]]></|DSML|parameter></|DSML|invoke></|DSML|tool_calls>\n```\n"
)
_NEAR_MISSES = (
    "Use <tool_calls_extra> for batches. ",
    "The <invoker> pattern is different. ",
    "Neither is <ToolCallsExtra>. ",
    "A bare <tool-calls> stays text. ",
    "Math: a < b and c > d. ",
    "HTML <b>bold</b> and <br/> too. ",
    "Inline `<tool_calls>` is code. ",
    "<|DSML tool_calls_extra> drifts. ",
    "Confusable <invοker> is no tag. ",
    "A stray </tool_calls> closes nothing. ",
    'A lone <parameter name="x"> is prose.\n',
)

PREFIX = "Writing it.\n"
SUFFIX = "\nDone."


def _fill(pieces: cycle[str], size: int) -> str:
    out: list[str] = []
    length = 0
    while length < size:
        piece = next(pieces)
        out.append(piece)
        length += len(piece)
    return "".join(out)[:size]


def cdata_body(size: int) -> str:
    """``size`` characters of file content: code lines and fenced DSML examples whose
    ``]]></|DSML|parameter>`` look like the end of the parameter."""
    lines = (f'line {n}: if a < b && c > d then print("<tool_calls>")\n' for n in range(10**9))
    pieces = (_FENCED_EXAMPLE if n % 40 == 39 else next(lines) for n in range(10**9))
    return _fill(cycle(pieces), size).replace("]]>\n", "]]>x\n")


def cdata_call(size: int) -> str:
    """A DSML ``Write`` call whose ``content`` is ``cdata_body(size)``, in prose."""
    return (
        f"{PREFIX}<|DSML|tool_calls>\n"
        '<|DSML|invoke name="Write">\n'
        '<|DSML|parameter name="file_path"><![CDATA[notes.md]]></|DSML|parameter>\n'
        f'<|DSML|parameter name="content"><![CDATA[{cdata_body(size)}]]></|DSML|parameter>\n'
        f"</|DSML|invoke>\n</|DSML|tool_calls>{SUFFIX}"
    )


def near_miss_prose(size: int) -> str:
    """``size`` characters of prose full of tags that are not tool calls."""
    return _fill(cycle(_NEAR_MISSES), size)


def chunks(text: str, size: int = 4) -> list[str]:
    """Token-sized chunks."""
    return [text[i : i + size] for i in range(0, len(text), size)]
