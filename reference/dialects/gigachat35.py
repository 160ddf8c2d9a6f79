"""GigaChat 3.5 (SGLang's ``gigachat35``): DSML's markup with the ``｜GCML｜`` marker.

::

    <｜GCML｜tool_calls>
    <｜GCML｜invoke name="get_weather">
    <｜GCML｜parameter name="city" string="true">Oslo</｜GCML｜parameter>
    </｜GCML｜invoke>
    </｜GCML｜tool_calls>

SGLang 0.5.23's ``GigaChat35Detector`` reads exactly DeepSeek-V4's DSML with ``GCML`` for
``DSML``: ``string="true"`` values are text, others JSON (the text itself when it is not
JSON). Unlike DeepSeek's, its open tag has no blank line in front, and the detector finds
the block wherever it starts. vLLM 0.33 has no GigaChat 3.5 parser. The DSML rules for a
missing close tag (``｜GCML｜`` being one token) apply.

Reasoning: SGLang's ``gigachat35`` reasoning detector is DeepSeek-R1's: the output starts
inside ``<think>`` (the template opens it) and ``</think>`` ends it.

No PyPI wheel ships the GigaChat tokenizer: the dialect is cut with the tag-aligned model,
with prefixes shaped like DeepSeek-V4's (``｜GCML｜`` one token).
"""

from __future__ import annotations

from ..dsml_tool_parser import DsmlToolParser, marker_inner_tags
from ..reasoning import ReasoningParser
from ..registry import Dialect, register

GCML = "｜GCML｜"


class GigaChat35ToolParser(DsmlToolParser):
    marker = GCML
    open_tag = f"<{GCML}tool_calls>"
    close_tag = f"</{GCML}tool_calls>"
    open_prefixes = (f"<{GCML}tool_calls", f"<{GCML}tool", f"<{GCML}", "<")
    close_prefixes = (f"</{GCML}tool_calls", f"</{GCML}tool", f"</{GCML}", "</")
    inner_tags = marker_inner_tags(GCML)


register(
    Dialect(
        name="gigachat35",
        description="GigaChat 3.5: <｜GCML｜tool_calls> DSML invokes, <think> that starts open",
        tool_parser=GigaChat35ToolParser,
        reasoning_parser=ReasoningParser,
    )
)
