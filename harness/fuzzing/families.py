"""Fuzz targets: dialect families, the fragments they are fuzzed with, and their policies.

One target per family of wire formats that share a grammar (and so share the fragments
worth splicing into an input): the JSON-envelope dialects, the section-token dialects,
Mistral, Harmony, the XML-like dialects, DSML and ds2api. A family lists its dialects by
name; those not registered in this build are left out, so a family whose dialects have not
landed yet simply has none.

Each family also says what happens to a malformed tool block, since the two seeds differ:

- ``DROP`` (seed 000): the tool parser consumes the block; an invalid block yields no call
  and its text is gone. What the fuzzer can hold it to: no call is invented (every name is
  in the text) and no text is invented (content and reasoning are subsequences of the text).
- ``RELEASE`` (seed 003, ds2api): a wrapper that does not parse is released whole, as text,
  never half-swallowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...reference import dialect_names

DROP = "drop"
RELEASE = "release"

_JSON = (
    "{",
    "}",
    "[",
    "]",
    '"',
    ":",
    ",",
    " ",
    '"name"',
    '"arguments"',
    '"parameters"',
    '"city"',
    '"Paris"',
    '\\"',
    "\\\\",
    "\\u00e9",
    "\\ud83d",
    "\\n",
    "true",
    "null",
    "-0.5e+3",
    "1e999",
    '{"name": "',
    '", "arguments": {',
    '", "parameters": {',
    "}}",
    '{"a": [1, {"b": "}"}]}',
)
_SECTION = ("```json\n", "\n```", "```", "function", "functions.", ":0", ":12", "\n")
_MISTRAL = ("[ARGS]", "[CALL_ID]", "a1b2c3d4e", "[{", "}]", "}, {", "[TOOL_CALLS]")
_HARMONY = (
    "assistant",
    "analysis",
    "commentary",
    "final",
    " to=functions.",
    " to=browser.search",
    "json",
    " <|constrain|>json",
    "<|start|>assistant",
    "<|channel|>final<|message|>",
)
_XML = (
    "<function=",
    "</function>",
    "<parameter=",
    "</parameter>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    '<invoke name="',
    "</invoke>",
    '<parameter name="',
    '">',
    ">",
    "<",
    "</",
    "/>",
    "<![CDATA[",
    "]]>",
    "<!--",
    "-->",
    "&lt;",
    "&amp;",
    "\n",
    'string="true"',
    'string="false"',
    "<tool_call>",
    "</tool_call>",
)
_DSML = (
    '<｜DSML｜invoke name="',
    "</｜DSML｜invoke>",
    '<｜DSML｜parameter name="',
    "</｜DSML｜parameter>",
    "｜DSML｜",
    "<|DSML|",
    "|DSML|",
    "</|DSML|",
    '<|DSML|invoke name="',
    '<|DSML|parameter name="',
    "</|DSML|parameter>",
    "</|DSML|invoke>",
    "\n\n",
)
_MARKDOWN = ("```", "`", "``", "~~~", "```xml\n", "\n```\n", "    ", "> ")
#: Characters models drift into tag shells (seed 003 §1), and other Unicode oddities.
DRIFT = (
    "｜", "！", "、", "␂", "\x02", "〈", "〉", "＜", "＞", "\u200b", "\u200d", "\ufeff", "▁",
    "“", "”", "＝", "／", "│", "\u3000", "\u00a0", "＂", "﹤", "﹥", "\ufffd", "\r",
)  # fmt: skip


@dataclass(frozen=True)
class Family:
    """One fuzz target's dialects, what it splices in, and its malformed-block policy."""

    name: str
    description: str
    dialect_candidates: tuple[str, ...]
    fragments: tuple[str, ...]
    invalid_policy: str = DROP

    @property
    def dialects(self) -> tuple[str, ...]:
        """The family's dialects registered in this build, in declaration order."""
        registered = set(dialect_names())
        return tuple(name for name in self.dialect_candidates if name in registered)


FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (
        Family("json", "JSON envelopes in outer tags (hermes, InternLM, Llama 3)",
               ("qwen3", "qwen25", "internlm", "llama3_json"), _JSON),
        Family("section", "section special tokens (DeepSeek V3/V3.1, Kimi K2)",
               ("deepseek_v3", "deepseek_v31", "kimi_k2"), _JSON + _SECTION),
        Family("mistral", "Mistral [TOOL_CALLS] lists and NAME[ARGS] calls",
               ("mistral",), _JSON + _MISTRAL),
        Family("harmony", "OpenAI Harmony channels (gpt-oss)", ("gpt_oss",), _JSON + _HARMONY),
        Family("xml", "XML-like tool blocks (Qwen3-Coder, Qwen3.5, GLM-4.5/4.7, MiniMax-M2)",
               ("qwen3_coder", "qwen35", "glm45", "glm47", "minimax_m2"), _XML + _JSON[:12]),
        Family("dsml", "DSML tool blocks (DeepSeek V3.2, V4)", ("deepseek_v32", "deepseek_v4"),
               _DSML + _XML + _JSON[:12]),
        Family("ds2api", "ds2api: drift-tolerant DSML and XML wrappers (seed 003)", ("ds2api",),
               _DSML + _XML + _MARKDOWN + _JSON[:12], invalid_policy=RELEASE),
    )
}  # fmt: skip

#: The generic target: every registered dialect an adapter supports, every fragment.
ADAPTER_TARGET = "adapter"
ALL_FRAGMENTS = tuple(dict.fromkeys(f for family in FAMILIES.values() for f in family.fragments))


def family_of(dialect: str) -> Family | None:
    """The family a dialect belongs to (its malformed-block policy), if any."""
    for family in FAMILIES.values():
        if dialect in family.dialect_candidates:
            return family
    return None


def target_names() -> list[str]:
    """Targets that have at least one registered dialect, then the generic adapter target."""
    return [name for name, family in FAMILIES.items() if family.dialects] + [ADAPTER_TARGET]
