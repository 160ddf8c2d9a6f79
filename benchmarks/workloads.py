"""Benchmark inputs for the reference parser: real grammar, engine-like chunkings.

Seed 000's benchmark section asks for small and large chunks (1, 4, 8, 16, 256 characters)
and inputs with many short strings, in each dialect's real grammar, with the reconstruction
verified before any throughput is reported. Protocol tags are kept whole (as a tokenizer
does); ``token`` is one real-sized token (~4 characters) per chunk.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from toolconform.reference import ParsedResponse, Request, get_dialect
from toolconform.strategies.chunking import fixed_size, tag_aligned_boundaries

CHUNK_SIZES = (1, 4, 8, 16, 256)
LONG_SIZES = (1_000, 8_000, 64_000)

# A realistic argument alphabet: words, punctuation, escapes that JSON must carry.
_ALPHABET = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:!?-_/()"


@dataclass(frozen=True)
class Workload:
    """One benchmark input: a dialect, a model output and its chunks."""

    dialect: str
    text: str
    chunks: tuple[str, ...]
    expected_arguments: object

    def stream(self) -> ParsedResponse:
        parser = get_dialect(self.dialect).new_parser(Request(thinking=False))
        messages = []
        last = len(self.chunks) - 1
        for position, chunk in enumerate(self.chunks):
            messages.extend(m for m, _ in parser.stream_chunk(chunk, final=position == last))
        return ParsedResponse.from_deltas(messages)

    def stream_only(self) -> int:
        """What is timed: a fresh parser streams every chunk, as a server forwards deltas.

        The deltas are counted and dropped rather than kept: a server serializes each one and
        lets it go, and keeping hundreds of thousands alive would time the garbage collector.
        """
        parser = get_dialect(self.dialect).new_parser(Request(thinking=False))
        stream_chunk = parser.stream_chunk
        count = 0
        for chunk in self.chunks[:-1]:
            count += len(stream_chunk(chunk))
        return count + len(stream_chunk(self.chunks[-1], final=True))

    def verify(self) -> None:
        """The streamed result must be the expected call before anything is timed."""
        result = self.stream()
        assert len(result.tool_calls) == 1, result
        assert json.loads(result.tool_calls[0].arguments) == self.expected_arguments
        complete = (
            get_dialect(self.dialect).new_parser(Request(thinking=False)).parse_complete(self.text)
        )
        assert complete == result


def long_string_text(size: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    chars = [rng.choice(_ALPHABET) for _ in range(size)]
    # Sprinkle characters that must be escaped in JSON.
    for position in range(0, size, 97):
        chars[position] = rng.choice('"\\\n')
    return "".join(chars)


def hermes_output(arguments: object) -> str:
    payload = json.dumps({"name": "write_file", "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{payload}\n</tool_call>"


def chunked(dialect: str, text: str, size: int) -> tuple[str, ...]:
    boundaries = tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags())
    return tuple(fixed_size(text, size, boundaries))


def hermes_long_string(size: int, chunk_size: int) -> Workload:
    arguments = {"path": "notes.txt", "content": long_string_text(size)}
    text = hermes_output(arguments)
    return Workload("qwen3", text, chunked("qwen3", text, chunk_size), arguments)


def hermes_short_strings(count: int, chunk_size: int) -> Workload:
    pieces = ["x", '"', "\\", "{", "}", "[", "]", "plain"]
    arguments = {"items": [pieces[k % len(pieces)] for k in range(count)]}
    text = hermes_output(arguments)
    return Workload("qwen3", text, chunked("qwen3", text, chunk_size), arguments)
