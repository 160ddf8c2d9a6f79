"""IBM Granite: hermes blocks (Granite 4.0), JSON after a marker with no close tag (3.x, 20B-FC).

- ``granite4`` (Granite 4.0): its chat template writes hermes blocks,
  ``<tool_call>\\n{"name", "arguments"}\\n</tool_call>``, one per call, and vLLM's ``granite4``
  parser reads them so; ``<tool_call>`` and ``</tool_call>`` are added tokens of Granite 4's
  vocabulary. Granite 4.0 (the model vLLM's parser is named after) does not think: no
  reasoning channel.
- ``granite`` (Granite 3.0 – 3.3 Instruct): ``<|tool_call|>[{"name", "arguments"}, …]``, one
  array of envelopes after the marker, a special token of Granite's vocabulary; the block
  ends with the array (vLLM's ``granite`` parser: the marker, then the array, nothing
  closes it).
- ``granite_20b_fc`` (granite-20b-functioncalling): ``<function_call> {"name", "arguments"}``,
  one envelope per marker, repeated for several calls; the block ends with the envelope,
  and the spaces or newlines before the next marker are dropped as the separator.
  The marker is text in that model's StarCoder-style vocabulary: a chunk can end after
  ``<``, ``<function`` or ``<function_call`` (the ASCII-tag splits of offline-tokenizers
  §4, finding 1).

Text after the JSON is content again, as after Llama 3's ``<|python_tag|>`` block. Neither
model thinks in these formats (Granite 3.2's "Here is my thought process:" reasoning is a
separate vLLM reasoning parser, not bound here). No PyPI wheel ships any of the three
tokenizers: the tag-aligned model.
"""

from __future__ import annotations

from ..json_tool_parser import JsonToolParser
from ..registry import Dialect, register
from .hermes import HermesToolParser


class GraniteToolParser(JsonToolParser):
    open_tag = "<|tool_call|>"
    close_tag = None
    accepts_envelope_list = True
    payload_starts = ("[", "{")


class Granite20bFCToolParser(JsonToolParser):
    open_tag = "<function_call>"
    close_tag = None
    open_prefixes = ("<function_call", "<function", "<")
    #: The model writes one marker per call after a space (``} <function_call> {``).
    block_separators = " \r\n"


register(
    Dialect(
        name="granite4",
        description="IBM Granite 4.0: hermes JSON tool blocks, no reasoning",
        tool_parser=HermesToolParser,
    )
)
register(
    Dialect(
        name="granite",
        description="IBM Granite 3.x: <|tool_call|> then a JSON array of envelopes",
        tool_parser=GraniteToolParser,
    )
)
register(
    Dialect(
        name="granite_20b_fc",
        description="granite-20b-functioncalling: <function_call> then one JSON envelope, repeated",
        tool_parser=Granite20bFCToolParser,
    )
)
