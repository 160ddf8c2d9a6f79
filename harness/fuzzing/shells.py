"""Well-formed tool blocks per dialect, and the arguments and names the fuzzer fills them with.

A structure-aware fuzzer needs the wire format's shells to reach deep states quickly: a
well-formed block is the seed of every interesting malformation (cut it, drop a tag, double
a character), and an input made only of prose and well-formed blocks has a known answer
(those calls, no protocol text in content). One small function per dialect writes a call
the way the model does; ``toolconform.strategies`` renderers cover a few dialects with the
same aim, but the fuzzer needs every dialect and several layouts of some (Mistral's two
generations, ds2api's DSML and legacy XML).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

Arguments = Mapping[str, Any]
Shell = Callable[[str, Arguments], str]

#: Tools offered by requests the decoder builds (the corpus' own tool files).
KNOWN_NAMES = ("get_weather", "search", "now")
#: Names no request offers: filtered by seed-000 dialects, kept by ds2api.
UNKNOWN_NAMES = ("delete_files", "get_weather_v2")
NAMES = KNOWN_NAMES + UNKNOWN_NAMES

#: Arguments any JSON-payload dialect carries verbatim.
JSON_ARGUMENTS: tuple[Arguments, ...] = (
    {},
    {"city": "Paris"},
    {"city": "東京", "days": 3, "unit": "c"},
    {"query": 'say "hi"\n\\ done', "tags": ["a", "b"], "filters": {"recent": True}},
    {"query": "x", "limit": None, "score": -1.5e3},
)
#: Arguments whose values are plain strings: the markup dialects type values by schema or
#: attribute, and a string survives every one of those conversions unchanged.
TEXT_ARGUMENTS: tuple[Arguments, ...] = (
    {},
    {"city": "Paris"},
    {"city": "東京 tower", "unit": "c"},
    {"query": "it's 3 o'clock, a/b?c=d"},
    {"query": "line one\nline two"},
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _hermes(name: str, arguments: Arguments) -> str:
    return f'<tool_call>\n{{"name": {_json(name)}, "arguments": {_json(arguments)}}}\n</tool_call>'


def _internlm(name: str, arguments: Arguments) -> str:
    envelope = f'{{"name": {_json(name)}, "parameters": {_json(arguments)}}}'
    return f"<|action_start|><|plugin|>\n{envelope}<|action_end|>"


def _llama3(name: str, arguments: Arguments) -> str:
    return f'<|python_tag|>{{"name": {_json(name)}, "parameters": {_json(arguments)}}}'


def _deepseek_v3(name: str, arguments: Arguments) -> str:
    return (
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        f"{name}\n```json\n{_json(arguments)}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    )


def _deepseek_v31(name: str, arguments: Arguments) -> str:
    return (
        f"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>{name}<｜tool▁sep｜>{_json(arguments)}"
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    )


def _kimi_k2(name: str, arguments: Arguments) -> str:
    return (
        f"<|tool_calls_section_begin|><|tool_call_begin|>functions.{name}:0"
        f"<|tool_call_argument_begin|>{_json(arguments)}<|tool_call_end|>"
        "<|tool_calls_section_end|>"
    )


def _mistral_v11(name: str, arguments: Arguments) -> str:
    return f"[TOOL_CALLS]{name}[ARGS]{_json(arguments)}"


def _mistral_list(name: str, arguments: Arguments) -> str:
    return f'[TOOL_CALLS][{{"name": {_json(name)}, "arguments": {_json(arguments)}}}]'


def _harmony(name: str, arguments: Arguments) -> str:
    return (
        f"<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json"
        f"<|message|>{_json(arguments)}<|call|>"
    )


def _harmony_recipient_first(name: str, arguments: Arguments) -> str:
    return (
        f"<|start|>assistant to=functions.{name}<|channel|>commentary <|constrain|>json"
        f"<|message|>{_json(arguments)}<|call|>"
    )


def _qwen3_coder(name: str, arguments: Arguments) -> str:
    parameters = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in arguments.items())
    return f"<tool_call>\n<function={name}>\n{parameters}</function>\n</tool_call>"


def _glm45(name: str, arguments: Arguments) -> str:
    pairs = "".join(
        f"<arg_key>{k}</arg_key>\n<arg_value>{v}</arg_value>\n" for k, v in arguments.items()
    )
    return f"<tool_call>{name}\n{pairs}</tool_call>"


def _glm47(name: str, arguments: Arguments) -> str:
    pairs = "".join(
        f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in arguments.items()
    )
    return f"<tool_call>{name}{pairs}</tool_call>"


def _minimax_m2(name: str, arguments: Arguments) -> str:
    parameters = "".join(f'<parameter name="{k}">{v}</parameter>\n' for k, v in arguments.items())
    invoke = f'<invoke name="{name}">\n{parameters}</invoke>'
    return f"<minimax:tool_call>\n{invoke}\n</minimax:tool_call>"


def _dsml(block: str) -> Shell:
    def shell(name: str, arguments: Arguments) -> str:
        parameters = "".join(
            f'<｜DSML｜parameter name="{k}" string="true">{v}</｜DSML｜parameter>\n'
            for k, v in arguments.items()
        )
        return (
            f'\n\n<｜DSML｜{block}>\n<｜DSML｜invoke name="{name}">\n{parameters}'
            f"</｜DSML｜invoke>\n</｜DSML｜{block}>"
        )

    return shell


def _ds2api_dsml(name: str, arguments: Arguments) -> str:
    parameters = "".join(
        f'<|DSML|parameter name="{k}"><![CDATA[{v}]]></|DSML|parameter>\n'
        for k, v in arguments.items()
    )
    return (
        f'<|DSML|tool_calls>\n<|DSML|invoke name="{name}">\n{parameters}'
        "</|DSML|invoke>\n</|DSML|tool_calls>"
    )


def _ds2api_xml(name: str, arguments: Arguments) -> str:
    parameters = "".join(
        f'<parameter name="{k}"><![CDATA[{v}]]></parameter>\n' for k, v in arguments.items()
    )
    return f'<tool_calls>\n<invoke name="{name}">\n{parameters}</invoke>\n</tool_calls>'


#: dialect → (layouts of one call, the arguments its values carry unchanged).
SHELLS: dict[str, tuple[tuple[Shell, ...], tuple[Arguments, ...]]] = {
    "qwen3": ((_hermes,), JSON_ARGUMENTS),
    "qwen25": ((_hermes,), JSON_ARGUMENTS),
    "internlm": ((_internlm,), JSON_ARGUMENTS),
    "llama3_json": ((_llama3,), JSON_ARGUMENTS),
    "deepseek_v3": ((_deepseek_v3,), JSON_ARGUMENTS),
    "deepseek_v31": ((_deepseek_v31,), JSON_ARGUMENTS),
    "kimi_k2": ((_kimi_k2,), JSON_ARGUMENTS),
    "mistral": ((_mistral_v11, _mistral_list), JSON_ARGUMENTS),
    "gpt_oss": ((_harmony, _harmony_recipient_first), JSON_ARGUMENTS),
    "qwen3_coder": ((_qwen3_coder,), TEXT_ARGUMENTS),
    "qwen35": ((_qwen3_coder,), TEXT_ARGUMENTS),
    "glm45": ((_glm45,), TEXT_ARGUMENTS),
    "glm47": ((_glm47,), TEXT_ARGUMENTS),
    "minimax_m2": ((_minimax_m2,), TEXT_ARGUMENTS),
    "deepseek_v32": ((_dsml("function_calls"),), TEXT_ARGUMENTS),
    "deepseek_v4": ((_dsml("tool_calls"),), TEXT_ARGUMENTS),
    "ds2api": ((_ds2api_dsml, _ds2api_xml), TEXT_ARGUMENTS),
}


def shells_for(dialect: str) -> tuple[tuple[Shell, ...], tuple[Arguments, ...]]:
    """The layouts and argument pool of a dialect; none for a dialect without tool calls."""
    return SHELLS.get(dialect, ((), ()))
