"""DeepSeek V3.2 and V4 DSML tool blocks, opened by a blank line.

DeepSeek's encoders write a tool block as ``"\\n\\n<｜DSML｜function_calls>\\n…"`` (V3.2) and
``"\\n\\n<｜DSML｜tool_calls>\\n…"`` (V4), and their own output parsers
(``parse_message_from_completion_text``) look for the block with that leading blank line:
``tool_calls_start_token = "\\n\\n<｜DSML｜" + block name``. LMDeploy's open tags are the
same strings. So the blank line is part of the open tag here: a DSML block without it, even
at the very start of the output, is not a tool block and stays content. (The encoders
always write it, after content, after ``</think>``, and at the start of a non-thinking
answer alike; SGLang and vLLM also accept a block without it, which makes that case
implementation-defined for the suite.)

Tokens: ``｜DSML｜`` is one token (special in V3.2, so engines must keep special tokens;
ordinary in V4). The tags around it are plain text cut at ``<`` · ``｜DSML｜`` · ``function``
· ``_c`` · ``alls`` · ``>``, and the blank line is one ``\\n\\n`` token, so every prefix below
can end a chunk (offline-tokenizers §4). ``<think>`` and ``</think>`` are single tokens.

Reasoning follows the request's thinking flag: the template ends the prompt with
``<think>`` in thinking mode and with ``</think>`` otherwise.
"""

from __future__ import annotations

from ..dsml_tool_parser import DSML, DsmlToolParser
from ..reasoning import ThinkingFlagReasoningParser
from ..registry import Dialect, register


class DeepSeekV32ToolParser(DsmlToolParser):
    open_tag = f"\n\n<{DSML}function_calls>"
    close_tag = f"</{DSML}function_calls>"
    open_prefixes = (
        f"\n\n<{DSML}function_calls",
        f"\n\n<{DSML}function_c",
        f"\n\n<{DSML}function",
        f"\n\n<{DSML}",
        "\n\n<",
        "\n\n",
    )
    close_prefixes = (
        f"</{DSML}function_calls",
        f"</{DSML}function_c",
        f"</{DSML}function",
        f"</{DSML}",
        "</",
    )


class DeepSeekV4ToolParser(DsmlToolParser):
    open_tag = f"\n\n<{DSML}tool_calls>"
    close_tag = f"</{DSML}tool_calls>"
    open_prefixes = (
        f"\n\n<{DSML}tool_calls",
        f"\n\n<{DSML}tool_c",
        f"\n\n<{DSML}tool",
        f"\n\n<{DSML}",
        "\n\n<",
        "\n\n",
    )
    close_prefixes = (
        f"</{DSML}tool_calls",
        f"</{DSML}tool_c",
        f"</{DSML}tool",
        f"</{DSML}",
        "</",
    )


register(
    Dialect(
        name="deepseek_v32",
        description="DeepSeek-V3.2: \\n\\n<｜DSML｜function_calls> invokes, reasoning on request",
        tool_parser=DeepSeekV32ToolParser,
        reasoning_parser=ThinkingFlagReasoningParser,
        tokenizer_families=("deepseek-v3.2",),
    )
)
register(
    Dialect(
        name="deepseek_v4",
        description="DeepSeek-V4: \\n\\n<｜DSML｜tool_calls> invokes, reasoning on request",
        tool_parser=DeepSeekV4ToolParser,
        reasoning_parser=ThinkingFlagReasoningParser,
        tokenizer_families=("deepseek-v4",),
    )
)
