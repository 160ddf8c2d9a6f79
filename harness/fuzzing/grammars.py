"""Fuzz targets: the grammars, the fragments their dialects are fuzzed with, and their policies.

One target per *grammar*, a family of wire formats whose dialects share the fragments worth
splicing into an input: the JSON-envelope dialects, the section-token dialects, Mistral,
Harmony, the XML-like dialects, DSML, ds2api, Python call literals, and the reasoning-only
dialects. A grammar does not list its dialects: each dialect's renderer names its
``grammar``, and the target is every registered dialect of that grammar. So a new dialect
is fuzzed as soon as its renderer lands, and a test fails when a dialect's grammar has no
target.

Each grammar also says what happens to a malformed tool block, since the two seeds differ:

- ``DROP`` (seed 000): the tool parser consumes the block; an invalid block yields no call
  and its text is gone. What the fuzzer can hold it to: no call is invented (every name is
  in the text) and no text is invented (content and reasoning are subsequences of the text).
- ``RELEASE`` (seed 003, ds2api): a wrapper that does not parse is released whole, as text,
  never half-swallowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis.errors import InvalidArgument

from ...reference import dialect_names
from ...strategies.renderers import get_renderer, renderer_names

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
_PYTHON = (
    "[", "]", "(", ")", "=", ", ", "'", '"', "\\'", "True", "None", "False", "1.5", "get_weather(",
    "city=", "city='Paris'", ")]", "[{", "}]", "{", "}", ":", "call:", "<escape>",
    "<|python_start|>", "<|python_end|>", "<|tool_call_start|>", "<|tool_call_end|>",
    "<function_calls>", "</function_calls>", "\n",
)  # fmt: skip
_MARKDOWN = ("```", "`", "``", "~~~", "```xml\n", "\n```\n", "    ", "> ")
_REASONING = ("<think>", "</think>", "<think", "</think", "think>", "</", "<", ">", "\n\n")
#: Characters models drift into tag shells (seed 003 §1), and other Unicode oddities.
DRIFT = (
    "｜", "！", "、", "␂", "\x02", "〈", "〉", "＜", "＞", "\u200b", "\u200d", "\ufeff", "▁",
    "“", "”", "＝", "／", "│", "\u3000", "\u00a0", "＂", "﹤", "﹥", "\ufffd", "\r",
)  # fmt: skip


def grammar_name(dialect: str) -> str | None:
    """The grammar a dialect's renderer declares (``None``: a dialect without a renderer,
    such as a test's private variant)."""
    try:
        return get_renderer(dialect).grammar
    except InvalidArgument:
        return None


@dataclass(frozen=True)
class Grammar:
    """One fuzz target: the grammar its dialects share, what it splices in, and its
    malformed-block policy. ``name`` is the grammar, as the renderers spell it."""

    name: str
    description: str
    fragments: tuple[str, ...]
    invalid_policy: str = DROP

    @property
    def dialects(self) -> tuple[str, ...]:
        """The registered dialects of this grammar, by name."""
        rendered = set(renderer_names())
        return tuple(
            name for name in dialect_names() if name in rendered and grammar_name(name) == self.name
        )


GRAMMARS: dict[str, Grammar] = {
    grammar.name: grammar
    for grammar in (
        Grammar("json", "JSON envelopes in outer tags (hermes, InternLM, Llama 3)", _JSON),
        Grammar("section", "section special tokens (DeepSeek V3/V3.1, Kimi K2)",
               _JSON + _SECTION),
        Grammar("mistral", "Mistral [TOOL_CALLS] lists and NAME[ARGS] calls", _JSON + _MISTRAL),
        Grammar("harmony", "OpenAI Harmony channels (gpt-oss)", _JSON + _HARMONY),
        Grammar("xml", "XML-like tool blocks (Qwen3-Coder, Qwen3.5, GLM-4.5/4.7, MiniMax-M2)",
               _XML + _JSON[:12]),
        Grammar("dsml", "DSML tool blocks (DeepSeek V3.2, V4)", _DSML + _XML + _JSON[:12]),
        Grammar("ds2api", "ds2api: drift-tolerant DSML and XML wrappers (seed 003)",
               _DSML + _XML + _MARKDOWN + _JSON[:12], invalid_policy=RELEASE),
        Grammar("pythonic", "Python call literals and Gemma's call:NAME{…} (Llama 3.2/4, LFM2, "
               "OLMo 3, FunctionGemma, Gemma 4)", _PYTHON + _JSON[:12] + _REASONING),
        Grammar("reasoning", "reasoning channels without tool calls (DeepSeek-R1)",
               _REASONING + _MARKDOWN),
    )
}  # fmt: skip

#: The generic target: every registered dialect an adapter supports, every fragment.
ADAPTER_TARGET = "adapter"
ALL_FRAGMENTS = tuple(dict.fromkeys(f for grammar in GRAMMARS.values() for f in grammar.fragments))


def grammar_of(dialect: str) -> Grammar | None:
    """The grammar a dialect belongs to (its fragments, its malformed-block policy), if any."""
    name = grammar_name(dialect)
    return GRAMMARS.get(name) if name is not None else None


def target_names() -> list[str]:
    """Targets that have at least one registered dialect, then the generic adapter target."""
    return [name for name, grammar in GRAMMARS.items() if grammar.dialects] + [ADAPTER_TARGET]
