"""Gemma's call grammar: ``call:NAME{key:value,…}`` between dedicated tokens.

``functiongemma`` (google/functiongemma-270m-it):
``<start_function_call>call:get_weather{city:<escape>Oslo<escape>,days:3}<end_function_call>``.
``gemma4`` (Gemma 4): ``<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>,days:3}<tool_call|>``,
and reasoning in a channel, ``<|channel>thought\\n…<channel|>``.

Keys are bare words; a string is delimited by a dedicated token (``<escape>``,
``<|"|>``) and taken verbatim between two of them (no escapes); a bare value is a number,
``true`` / ``false`` / ``null`` (JSON), or else its text as a string; ``{…}`` nests an
object with the same ``key:value`` syntax and ``[…]`` an array. These are the values
Gemma's chat templates write (SGLang's Gemma 4 detector reads them so; vLLM keeps a bare
value as text unless the tool's schema types it). They run on the pythonic driver, with
Gemma's punctuation. One block per call; a chunk never ends inside a marker or a
delimiter (all special tokens), and no Gemma tokenizer ships in a wheel: both dialects are
cut with the tag-aligned model.

Gemma 4's reasoning: the output starts as content (vLLM's ``gemma4`` parser starts there
unless the prompt ended inside an open channel; SGLang's detector does not force
reasoning), and ``<|channel>thought\\n`` opens the thought channel, ``<channel|>`` closes it.
A tool call inside the channel ends it, as vLLM reads it.
"""

from __future__ import annotations

from ..pythonic_tool_parser import PythonicToolParser
from ..reasoning import ModelOpensReasoningParser
from ..registry import Dialect, register


class GemmaCallToolParser(PythonicToolParser):
    """``call:NAME{key:value}``: the pythonic driver with Gemma's punctuation."""

    closes_list = False
    call_prefix = "call:"
    call_open = "{"
    call_close = "}"
    key_separator = ":"


class FunctionGemmaToolParser(GemmaCallToolParser):
    open_tag = "<start_function_call>"
    close_tag = "<end_function_call>"
    string_delimiter = "<escape>"


class Gemma4ToolParser(GemmaCallToolParser):
    open_tag = "<|tool_call>"
    close_tag = "<tool_call|>"
    string_delimiter = '<|"|>'


class Gemma4ReasoningParser(ModelOpensReasoningParser):
    """Content first; the thought channel opens with its name and a newline."""

    open_tag = "<|channel>thought\n"
    close_tag = "<channel|>"
    open_prefixes = ("<|channel>thought", "<|channel>")
    tool_open_ends_reasoning = True


register(
    Dialect(
        name="functiongemma",
        description="FunctionGemma: <start_function_call>call:NAME{k:<escape>v<escape>}"
        "<end_function_call>",
        tool_parser=FunctionGemmaToolParser,
    )
)
register(
    Dialect(
        name="gemma4",
        description='Gemma 4: <|tool_call>call:NAME{k:<|"|>v<|"|>,n:42}<tool_call|>, '
        "<|channel>thought reasoning",
        tool_parser=Gemma4ToolParser,
        reasoning_parser=Gemma4ReasoningParser,
    )
)
