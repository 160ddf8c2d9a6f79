"""Benchmark inputs for the XML-like and DSML dialects: one long string argument.

The same long string as the hermes workload (``workloads.long_string_text``), with a ``<``
every 89 characters so that the value scan meets markup-like text, written in each
dialect's real grammar and cut into ~N-character chunks that keep every tag whole.
"""

from __future__ import annotations

import json

from toolconform.reference import get_dialect
from toolconform.strategies.chunking import fixed_size, tag_aligned_boundaries

from .workloads import Workload, long_string_text

DSML = "｜DSML｜"


def markup_string(size: int) -> str:
    """A plain string value: it does not start with a quote, so it streams as it arrives."""
    chars = list(long_string_text(size))
    chars[0] = "T"
    for position in range(44, size, 89):
        chars[position] = "<"
    return "".join(chars)


def whole_tag_chunks(dialect: str, text: str, size: int) -> tuple[str, ...]:
    """~``size``-character chunks; no protocol tag is ever cut."""
    whole = {tag: () for tag in get_dialect(dialect).protocol_tags()}
    return tuple(fixed_size(text, size, tag_aligned_boundaries(text, whole)))


def qwen3_coder_output(value: str) -> str:
    return (
        "Let me write it.\n<tool_call>\n<function=write_file>\n"
        "<parameter=path>\nnotes.txt\n</parameter>\n"
        f"<parameter=content>\n{value}\n</parameter>\n</function>\n</tool_call>"
    )


def deepseek_v32_output(value: str) -> str:
    return (
        f'Let me write it.\n\n<{DSML}function_calls>\n<{DSML}invoke name="write_file">\n'
        f'<{DSML}parameter name="path" string="true">notes.txt</{DSML}parameter>\n'
        f'<{DSML}parameter name="content" string="true">{value}</{DSML}parameter>\n'
        f"</{DSML}invoke>\n</{DSML}function_calls>"
    )


OUTPUTS = {"qwen3_coder": qwen3_coder_output, "deepseek_v32": deepseek_v32_output}


def long_string(dialect: str, size: int, chunk_size: int = 4) -> Workload:
    """A ``write_file`` call whose ``content`` is a ``size``-character string."""
    value = markup_string(size)
    text = OUTPUTS[dialect](value)
    arguments = {"path": "notes.txt", "content": value}
    return Workload(dialect, text, whole_tag_chunks(dialect, text, chunk_size), arguments)


def held_long_string(size: int, chunk_size: int = 4) -> Workload:
    """qwen3_coder with a JSON-quoted value: held whole until its close tag, then decoded."""
    value = long_string_text(size)
    text = qwen3_coder_output(json.dumps(value))
    arguments = {"path": "notes.txt", "content": value}
    return Workload(
        "qwen3_coder", text, whole_tag_chunks("qwen3_coder", text, chunk_size), arguments
    )
