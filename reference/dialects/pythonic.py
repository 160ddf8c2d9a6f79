"""Pythonic call lists: Llama 3.2 / ToolACE (``pythonic``), Llama 4 (``llama4_pythonic``), LFM2.

``pythonic``: the model answers with a bare Python list of calls,
``[get_weather(city="Oslo"), now()]`` (Meta's Llama 3.2 zero-shot function-calling prompt,
ToolACE's format). There is no marker: the ``[`` is the open tag, and an ``[`` that is not
followed by a call (``[1]``, ``[note]``, ``[See below]``) is prose, decided at the first
character that cannot continue ``NAME(``. The list's ``]`` ends the block; text after it
is content again. vLLM's ``pythonic`` parser reads calls only when the output starts with
``[`` (anything else is content), SGLang's reads the first list anywhere; the reference
reads every list that begins with a call, as the other dialects read every block.

``llama4_pythonic``: Llama 4 writes the same list, and sometimes wraps it in
``<|python_start|>`` … ``<|python_end|>``. Both markers are special tokens that the server
strips by default (``skip_special_tokens``), which leaves the bare list of ``pythonic``;
this dialect is the wrapped output as it reaches a parser that keeps them (vLLM's and
SGLang's parsers strip them themselves). The payload is the list inside the markers.

Tokenizers: ``pythonic`` is Llama 3.2's vocabulary (``llama3.1`` family), where the list
is plain text. Llama 4's tokenizer ships in no wheel, so ``llama4_pythonic`` is cut with
the tag-aligned model; its markers are single tokens (no prefixes).

``lfm2`` (LiquidAI LFM2 / LFM2.5): the list between two special tokens,
``<|tool_call_start|>[f(a=1), g()]<|tool_call_end|>`` (LFM2's chat template writes the
assistant's calls that way). SGLang's ``lfm2`` detector also accepts a JSON array of
``{"name", "arguments"}`` objects there; vLLM's parser and LFM2's template do not, so the
reference reads a payload that is no call list as prose (``lfm2/impl/json-array-payload``).
No reasoning channel in this dialect. LFM2's tokenizer ships in no wheel: the tag-aligned
model, the markers whole.
"""

from __future__ import annotations

from ..pythonic_tool_parser import PythonicToolParser
from ..registry import Dialect, register


class PythonicListToolParser(PythonicToolParser):
    open_tag = "["
    close_tag = None


class Llama4PythonicToolParser(PythonicToolParser):
    open_tag = "<|python_start|>"
    close_tag = "<|python_end|>"
    opens_list = True


class Lfm2ToolParser(PythonicToolParser):
    open_tag = "<|tool_call_start|>"
    close_tag = "<|tool_call_end|>"
    opens_list = True


register(
    Dialect(
        name="pythonic",
        description="Llama 3.2 / ToolACE: a bare Python list of calls [f(a=1), g()]",
        tool_parser=PythonicListToolParser,
        tokenizer_families=("llama3.1",),
    )
)
register(
    Dialect(
        name="llama4_pythonic",
        description="Llama 4: a Python list of calls inside <|python_start|> … <|python_end|>",
        tool_parser=Llama4PythonicToolParser,
    )
)
register(
    Dialect(
        name="lfm2",
        description="LFM2: a Python list of calls inside <|tool_call_start|> … <|tool_call_end|>",
        tool_parser=Lfm2ToolParser,
    )
)
