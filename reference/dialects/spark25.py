"""Spark 2.5 (SGLang's ``spark25``): GLM's pairs after a name line, no reasoning channel.

::

    <tool_call>get_weather
    <arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>

SGLang 0.5.23's ``spark25`` detector reads this GLM-4.5 layout (the name on its own line,
then ``<arg_key>`` / ``<arg_value>`` pairs) and emits each block whole when it closes;
vLLM 0.33 has no Spark 2.5 parser, nor SGLang a Spark 2.5 reasoning detector, so the
dialect has no reasoning channel (``<think>`` is content). GLM's rules for a missing close
tag and schema typing apply.

No PyPI wheel ships the Spark 2.5 tokenizer: the dialect is cut with the tag-aligned model,
its tags declared single tokens, as GLM's are.
"""

from __future__ import annotations

from ..registry import Dialect, register
from .glm import Glm45ToolParser

register(
    Dialect(
        name="spark25",
        description="Spark 2.5: <tool_call>NAME\\n<arg_key>K</arg_key><arg_value>V…, no reasoning",
        tool_parser=Glm45ToolParser,
    )
)
