"""Phi-4-mini JSON tool calls: ``functools[{"name", "arguments"}, …]``.

The marker is the plain word ``functools`` followed by a JSON array of envelopes; the block
ends with the array (vLLM's ``phi4_mini_json`` parser reads ``functools\\[(.*?)\\]``). The
word is no protocol on its own: Python's module of that name in prose (``functools.partial``)
is text, decided at the character after the word. Phi-4-mini's vocabulary extends o200k,
whose merges split the word by its context (``fun`` ``ct`` ``ools`` at the start of the
output, ``.f`` ``unct`` ``ools`` after a dot, `` functools`` after a space): a chunk can end
after ``f``, ``fun``, ``funct`` or ``functool`` (``chunk_end_prefixes`` of the o200k ranks
that the ``gpt-oss`` family is built from). Envelopes may name the arguments
``parameters``, which vLLM reads too. No PyPI wheel ships Phi-4-mini's own tokenizer (its
added tokens differ from gpt-oss'): the tag-aligned model, with these prefixes.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register


class Phi4MiniJsonToolParser(JsonToolParser):
    open_tag = "functools"
    close_tag = None
    open_prefixes = ("functool", "funct", "fun", "f")
    accepts_envelope_list = True
    argument_field_aliases = ("parameters",)
    payload_starts = ("[",)


register(
    Dialect(
        name="phi4_mini_json",
        description="Phi-4-mini: functools then a JSON array of envelopes",
        tool_parser=Phi4MiniJsonToolParser,
    )
)
