"""K2 Horizon (IFM): every call of a turn in one ``<ifm|tool_calls>`` block.

``render("k2_horizon", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<ifm|tool_calls><ifm|tool_call>f<ifm|arg_key>a</ifm|arg_key><ifm|arg_value>1
</ifm|arg_value></ifm|tool_call></ifm|tool_calls>'`` (one line).

Hunyuan's layout (Hy4's: the name runs into the first key) with IFM's tags, in the default
``xml`` format (no ``<ifm|arg_type>``). The template opens ``<ifm|think>``; a block inside
reasoning ends it.
"""

from __future__ import annotations

from . import register
from .hunyuan import Hy4Renderer


class K2HorizonRenderer(Hy4Renderer):
    dialect = "k2_horizon"
    layout = (
        "reasoning, content, every call of a turn in one `<ifm|tool_calls>` block (typed "
        "`<ifm|arg_type>`)"
    )
    open_tag = "<ifm|tool_calls>"
    close_tag = "</ifm|tool_calls>"
    call_tags = ("<ifm|tool_call>", "</ifm|tool_call>")
    arg_key_tags = ("<ifm|arg_key>", "</ifm|arg_key>")
    arg_value_tags = ("<ifm|arg_value>", "</ifm|arg_value>")
    reasoning_close = "</ifm|think>"


register(K2HorizonRenderer())
