"""OLMo 3: ``<function_calls>f(a=1)\\ng(b=null)</function_calls>``, and plain-text ``<think>``.

OLMo 3's system prompt asks for calls "within <function_calls></function_calls> XML tags";
the calls are Python call literals, one per line, without a list, and the model writes
JSON literals (``null``, ``true``) as often as Python ones: vLLM's ``olmo3`` parser reads
both. Calls are separated by newlines (commas are read too).

Reasoning (OLMo 3 Think): ``<think>`` … ``</think>`` in plain text, and the output starts
inside reasoning (vLLM's ``olmo3`` reasoning parser starts there; the open tag is
optional); ``thinking: false`` turns the channel off, as for Instruct models. OLMo's
tokenizer ships in no wheel, so the dialect is cut with the tag-aligned model. vLLM's
parser spells out how ``</think>`` tokenizes in OLMo's vocabulary (``</`` or ``Ġ</``, then
``think``, ``>``), so a chunk may end after ``</`` or ``</think``; nothing is known for the
other tags, which are kept whole.
"""

from __future__ import annotations

from ..pythonic_tool_parser import PythonicToolParser
from ..reasoning import ReasoningParser
from ..registry import Dialect, register


class Olmo3ToolParser(PythonicToolParser):
    open_tag = "<function_calls>"
    close_tag = "</function_calls>"
    closes_list = False


class Olmo3ReasoningParser(ReasoningParser):
    close_prefixes = ("</think", "</")


register(
    Dialect(
        name="olmo3",
        description="OLMo 3: newline-separated Python calls in <function_calls>, "
        "plain-text <think> that starts open",
        tool_parser=Olmo3ToolParser,
        reasoning_parser=Olmo3ReasoningParser,
    )
)
