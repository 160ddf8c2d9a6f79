"""Hand-written model outputs per dialect, shared by the engine adapter tests.

Each case is a response a model of the family could emit, with the request it answers and
the result the dialect's specification (issue 3) gives it. The tests compare an engine with
the reference parser where the dialect is registered, and with ``expected`` until then, so
the cases can be written before every reference dialect has landed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        },
    },
}
TIME = {
    "type": "function",
    "function": {
        "name": "get_time",
        "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}},
    },
}
TOOLS = {"tools": [WEATHER, TIME]}
THINKING = {**TOOLS, "chat_template_kwargs": {"thinking": True, "enable_thinking": True}}
NOT_THINKING = {**TOOLS, "chat_template_kwargs": {"thinking": False, "enable_thinking": False}}


@dataclass(frozen=True)
class Result:
    """A coalesced response: content, reasoning, and ``(name, arguments value)`` calls."""

    content: str = ""
    reasoning: str = ""
    calls: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Case:
    dialect: str
    name: str
    text: str
    expected: Result
    request: dict[str, Any] = field(default_factory=lambda: TOOLS)

    @property
    def id(self) -> str:
        return f"{self.dialect}/{self.name}"


def _call(name: str, **arguments: Any) -> tuple[str, Any]:
    return (name, arguments)


CASES: tuple[Case, ...] = (
    # --- hermes JSON + <think> (Qwen3) -------------------------------------------------
    Case(
        "qwen3",
        "reasoning-content-call",
        "<think>\nCheck the weather.\n</think>\n\nLet me look.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}\n</tool_call>',
        Result(
            "\n\nLet me look.\n",
            "\nCheck the weather.\n",
            (_call("get_weather", city="Paris", days=2),),
        ),
    ),
    Case(
        "qwen3",
        "two-calls",
        '<think>ok</think><tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n'
        '</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {"zone": "CET"}}\n'
        "</tool_call>",
        Result("", "ok", (_call("get_weather", city="Oslo"), _call("get_time", zone="CET"))),
    ),
    Case(
        "qwen3",
        "unknown-name-filtered",
        '<think>x</think>Hi<tool_call>\n{"name": "launch", "arguments": {"n": 1}}\n</tool_call>'
        '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
        Result("Hi", "x", (_call("get_time"),)),
    ),
    Case(
        "qwen3",
        "template-opened-reasoning",
        "Thinking quietly.</think>The answer is 4.",
        Result("The answer is 4.", "Thinking quietly."),
    ),
    Case(
        "qwen3",
        "thinking-off",
        'Just content <tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n'
        "</tool_call>",
        Result("Just content ", "", (_call("get_weather", city="Rome"),)),
        NOT_THINKING,
    ),
    Case(
        "qwen3",
        "call-inside-reasoning",
        '<think>Plan\n<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n'
        "</tool_call>\nmore</think>Done.",
        Result("Done.", "Plan\n\nmore", (_call("get_time", zone="UTC"),)),
    ),
    Case(
        "qwen3",
        "truncated-call",
        '<think>x</think><tool_call>\n{"name": "get_weather", "arguments": {"city": "Bei',
        Result("", "x", (("get_weather", '{"city": "Bei'),)),
    ),
    # --- hermes JSON, no reasoning (Qwen2.5) ----------------------------------------------
    Case(
        "qwen25",
        "content-call",
        'I\'ll check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n'
        "</tool_call>",
        Result("I'll check.\n", "", (_call("get_weather", city="Lima"),)),
    ),
    Case(
        "qwen25",
        "content-only",
        "Hello there, <b>friend</b>.",
        Result("Hello there, <b>friend</b>."),
    ),
    Case(
        "qwen25",
        "call-then-content",
        '<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n</tool_call>\nDone.',
        Result("\nDone.", "", (_call("get_time", zone="UTC"),)),
    ),
    Case(
        "qwen25",
        "no-arguments-field",
        '<tool_call>\n{"name": "get_time"}\n</tool_call>',
        Result("", "", (_call("get_time"),)),
    ),
    # --- InternLM2 ---------------------------------------------------------------------------
    Case(
        "internlm",
        "content-call",
        'Sure<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Kyiv"}}'
        "<|action_end|>",
        Result("Sure", "", (_call("get_weather", city="Kyiv"),)),
    ),
    Case("internlm", "content-only", "No tools needed.", Result("No tools needed.")),
    # --- Llama 3 JSON ------------------------------------------------------------------------
    Case(
        "llama3_json",
        "call",
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Tokyo"}}',
        Result("", "", (_call("get_weather", city="Tokyo"),)),
    ),
    Case("llama3_json", "content-only", "It is sunny.", Result("It is sunny.")),
    # --- reasoning only (DeepSeek-R1) -------------------------------------------------------
    Case(
        "deepseek_r1",
        "template-opened-reasoning",
        "Let me think.</think>It is 4.",
        Result("It is 4.", "Let me think."),
    ),
    Case(
        "deepseek_r1",
        "explicit-open",
        "<think>\nHmm.\n</think>\n\nDone.",
        Result("\n\nDone.", "\nHmm.\n"),
    ),
    # --- Qwen3-Coder XML ---------------------------------------------------------------------
    Case(
        "qwen3_coder",
        "content-call",
        "I'll check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
        Result("I'll check.\n", "", (_call("get_weather", city="Paris", days=3),)),
    ),
    Case(
        "qwen3_coder",
        "two-blocks",
        "<tool_call>\n<function=get_time>\n<parameter=zone>\nUTC\n</parameter>\n</function>\n"
        "</tool_call>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nNew York\n"
        "</parameter>\n</function>\n</tool_call>",
        Result("", "", (_call("get_time", zone="UTC"), _call("get_weather", city="New York"))),
    ),
    Case(
        "qwen3_coder",
        "multiline-value",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nSan\nJosé\n</parameter>\n"
        "</function>\n</tool_call>",
        Result("", "", (_call("get_weather", city="San\nJosé"),)),
    ),
    # --- Qwen3.5: Coder XML + <think> ----------------------------------------------------------
    Case(
        "qwen35",
        "reasoning-call",
        "<think>\nPlan.\n</think>\n\n<tool_call>\n<function=get_time>\n<parameter=zone>\nUTC\n"
        "</parameter>\n</function>\n</tool_call>",
        Result("\n\n", "\nPlan.\n", (_call("get_time", zone="UTC"),)),
    ),
    Case(
        "qwen35",
        "reasoning-content",
        "<think>\nEasy.\n</think>\n\nIt is 4.",
        Result("\n\nIt is 4.", "\nEasy.\n"),
    ),
    # --- GLM-4.5 (newlines between elements) and GLM-4.7 (none) -------------------------------
    Case(
        "glm45",
        "reasoning-call",
        "<think>Look it up.</think>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Berlin</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n"
        "</tool_call>",
        Result("\n", "Look it up.", (_call("get_weather", city="Berlin", days=2),)),
    ),
    Case(
        "glm47",
        "reasoning-call",
        "<think>Look it up.</think><tool_call>get_weather<arg_key>city</arg_key>"
        "<arg_value>Berlin</arg_value><arg_key>days</arg_key><arg_value>2</arg_value></tool_call>",
        Result("", "Look it up.", (_call("get_weather", city="Berlin", days=2),)),
    ),
    Case(
        "glm47",
        "no-arguments",
        "<think>Time.</think>Checking.<tool_call>get_time</tool_call>",
        Result("Checking.", "Time.", (_call("get_time"),)),
    ),
    # --- MiniMax-M2 ----------------------------------------------------------------------------
    Case(
        "minimax_m2",
        "reasoning-call",
        '<think>Plan.</think>\n<minimax:tool_call>\n<invoke name="get_weather">\n'
        '<parameter name="city">Madrid</parameter>\n<parameter name="days">1</parameter>\n'
        "</invoke>\n</minimax:tool_call>",
        Result("\n", "Plan.", (_call("get_weather", city="Madrid", days=1),)),
    ),
    # --- DSML (DeepSeek V3.2, V4) --------------------------------------------------------------
    Case(
        "deepseek_v32",
        "content-call",
        'Let me check.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
        '<｜DSML｜parameter name="city" string="true">Seoul</｜DSML｜parameter>\n'
        '<｜DSML｜parameter name="days" string="false">2</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        Result("Let me check.", "", (_call("get_weather", city="Seoul", days=2),)),
    ),
    Case(
        "deepseek_v32",
        "thinking",
        "Reason here.</think>Answer.",
        Result("Answer.", "Reason here."),
        THINKING,
    ),
    Case(
        "deepseek_v4",
        "content-call",
        'Let me check.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_time">\n'
        '<｜DSML｜parameter name="zone" string="true">KST</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
        Result("Let me check.", "", (_call("get_time", zone="KST"),)),
    ),
    Case(
        "deepseek_v4",
        "thinking",
        "Reason here.</think>Answer.",
        Result("Answer.", "Reason here."),
        THINKING,
    ),
    # --- section tokens (DeepSeek V3, V3.1, Kimi K2) ------------------------------------------
    Case(
        "deepseek_v3",
        "content-call",
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
        '```json\n{"city": "Cairo"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        Result("Checking.", "", (_call("get_weather", city="Cairo"),)),
    ),
    Case(
        "deepseek_v31",
        "content-call",
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Cairo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        Result("Checking.", "", (_call("get_weather", city="Cairo"),)),
    ),
    Case(
        "kimi_k2",
        "reasoning-call",
        "Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "Nairobi"}<|tool_call_end|>'
        "<|tool_calls_section_end|>",
        Result("", "Let me check.", (_call("get_weather", city="Nairobi"),)),
        THINKING,  # K2 Thinking / K2.5: the template opened <think>
    ),
    Case(
        "kimi_k2",
        "two-calls",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_time:0"
        '<|tool_call_argument_begin|>{"zone": "EAT"}<|tool_call_end|><|tool_call_begin|>'
        'functions.get_weather:1<|tool_call_argument_begin|>{"city": "Lagos"}<|tool_call_end|>'
        "<|tool_calls_section_end|>",
        Result("", "", (_call("get_time", zone="EAT"), _call("get_weather", city="Lagos"))),
    ),
    # --- Mistral -------------------------------------------------------------------------------
    Case(
        "mistral",
        "json-array",
        '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Lyon"}}]',
        Result("", "", (_call("get_weather", city="Lyon"),)),
    ),
    Case(
        "mistral",
        "name-args",
        '[TOOL_CALLS]get_weather[ARGS]{"city": "Lyon"}',
        Result("", "", (_call("get_weather", city="Lyon"),)),
    ),
    # --- Harmony (gpt-oss) --------------------------------------------------------------------
    Case(
        "gpt_oss",
        "analysis-call",
        "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant"
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
        '{"city":"Paris"}<|call|>',
        Result("", "Need the weather.", (_call("get_weather", city="Paris"),)),
    ),
    Case(
        "gpt_oss",
        "analysis-final",
        "<|channel|>analysis<|message|>Simple.<|end|><|start|>assistant<|channel|>final"
        "<|message|>It is 4.<|return|>",
        Result("It is 4.", "Simple."),
    ),
)

#: Tags of dialects not yet in the reference, with the proper prefixes that can end a chunk
#: in the family's tokenizer (research: offline-tokenizers.md §4); a registered dialect's own
#: ``protocol_tags()`` take precedence.
FALLBACK_TAGS: dict[str, dict[str, tuple[str, ...]]] = {
    "qwen3_coder": {
        "<tool_call>": (),
        "</tool_call>": (),
        "<function=": ("<function", "<"),
        "</function>": ("</function", "</"),
        "<parameter=": ("<parameter", "<"),
        "</parameter>": ("</parameter", "</"),
    },
    "glm45": {
        tag: ()
        for tag in (
            "<think>",
            "</think>",
            "<tool_call>",
            "</tool_call>",
            "<arg_key>",
            "</arg_key>",
            "<arg_value>",
            "</arg_value>",
        )
    },
    "minimax_m2": {
        "<think>": (),
        "</think>": (),
        "<minimax:tool_call>": (),
        "</minimax:tool_call>": (),
        "<invoke name=": ("<invoke name", "<invoke", "<"),
        "</invoke>": ("</invoke", "</"),
        "<parameter name=": ("<parameter name", "<parameter", "<"),
        "</parameter>": ("</parameter", "</"),
    },
    "deepseek_v32": {
        "<think>": (),
        "</think>": (),
        "<｜DSML｜function_calls>": (
            "<｜DSML｜function_calls",
            "<｜DSML｜function_c",
            "<｜DSML｜function",
            "<｜DSML｜",
            "<",
        ),
        "<｜DSML｜invoke name=": (
            "<｜DSML｜invoke name",
            "<｜DSML｜invoke",
            "<｜DSML｜inv",
            "<｜DSML｜",
            "<",
        ),
        "<｜DSML｜parameter name=": (
            "<｜DSML｜parameter name",
            "<｜DSML｜parameter",
            "<｜DSML｜",
            "<",
        ),
        "</｜DSML｜parameter>": ("</｜DSML｜parameter", "</｜DSML｜", "</"),
        "</｜DSML｜invoke>": ("</｜DSML｜invoke", "</｜DSML｜inv", "</｜DSML｜", "</"),
        "</｜DSML｜function_calls>": (
            "</｜DSML｜function_calls",
            "</｜DSML｜function_c",
            "</｜DSML｜function",
            "</｜DSML｜",
            "</",
        ),
    },
    "deepseek_v3": {
        tag: ()
        for tag in (
            "<｜tool▁calls▁begin｜>",
            "<｜tool▁call▁begin｜>",
            "<｜tool▁sep｜>",
            "<｜tool▁call▁end｜>",
            "<｜tool▁calls▁end｜>",
            "```json\n",
            "\n```",
        )
    },
    "kimi_k2": {
        tag: ()
        for tag in (
            "<think>",
            "</think>",
            "<|tool_calls_section_begin|>",
            "<|tool_call_begin|>",
            "<|tool_call_argument_begin|>",
            "<|tool_call_end|>",
            "<|tool_calls_section_end|>",
        )
    },
    "mistral": {"[TOOL_CALLS]": (), "[ARGS]": ("[ARGS", "[AR", "[")},
    "gpt_oss": {
        tag: ()
        for tag in (
            "<|start|>",
            "<|channel|>",
            "<|message|>",
            "<|constrain|>",
            "<|call|>",
            "<|end|>",
            "<|return|>",
        )
    },
}
FALLBACK_TAGS["qwen35"] = {"<think>": (), "</think>": (), **FALLBACK_TAGS["qwen3_coder"]}
FALLBACK_TAGS["glm47"] = FALLBACK_TAGS["glm45"]
FALLBACK_TAGS["deepseek_v31"] = {**FALLBACK_TAGS["deepseek_v3"], "<think>": (), "</think>": ()}
FALLBACK_TAGS["deepseek_v4"] = {
    tag.replace("function_calls", "tool_calls"): tuple(
        prefix.replace("function_calls", "tool_calls")
        .replace("function_c", "tool_c")
        .replace("function", "tool")
        for prefix in prefixes
    )
    for tag, prefixes in FALLBACK_TAGS["deepseek_v32"].items()
}
