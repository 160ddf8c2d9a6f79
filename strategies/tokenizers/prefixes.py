"""Which proper prefixes of a protocol tag can end an engine chunk, derived from a tokenizer.

A parser may hold back a chunk's tail only when it could be the beginning of a tag; for
token-aligned chunks that is exactly the set of tag prefixes that end at a token boundary.
That set depends on the text around the tag (``>`` glues onto a following newline, ``=``
onto a following quote), so the tag is tokenized canonically in many left and right
contexts, streamed as an engine would, and every chunk boundary that falls strictly inside
the tag contributes the prefix before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tokenizers import Tokenizer

from .detokenize import encode, stream_decode

#: Text that commonly precedes a tag in model output (prose, JSON, XML, CJK, emoji, tags).
LEFT_CONTEXTS: tuple[str, ...] = (
    "",
    "a",
    "text",
    "Hello world",
    "x ",
    " ",
    "\n",
    "\n\n",
    ".",
    ".\n",
    "。",
    "东京",
    "🙂",
    "1",
    "123",
    "}",
    "}\n",
    '"}}\n',
    "]",
    '"',
    '">',
    ">",
    ">\n",
    '">\n',
    "```",
    "\t",
    "=",
    "é",
    ":",
)

#: Text that commonly follows a tag: names, values, quotes, braces, newlines, other tags.
RIGHT_CONTEXTS: tuple[str, ...] = (
    "",
    "a",
    "get_weather",
    "city",
    "\n",
    "\n\n",
    " ",
    ">",
    '"',
    '="get',
    '"get_weather">',
    '{"',
    "{}",
    "[",
    "<",
    "\n<",
    "\n</",
    "东京",
    "🙂",
    "1",
    "functions",
    ".get",
)


def chunk_end_prefixes(
    tokenizer: Tokenizer,
    tag: str,
    *,
    skip_special_tokens: bool = False,
    left_contexts: Sequence[str] = LEFT_CONTEXTS,
    right_contexts: Sequence[str] = RIGHT_CONTEXTS,
) -> tuple[str, ...]:
    """The proper prefixes of ``tag`` after which some context's token stream is cut.

    Longest first, like a dialect's declared prefix tuples. Contexts whose decoded text is
    not the input (normalization, vanished special tokens) say nothing about the tag and
    are skipped.
    """
    prefixes: set[str] = set()
    for left in left_contexts:
        for right in right_contexts:
            text = left + tag + right
            chunks = stream_decode(
                tokenizer, encode(tokenizer, text), skip_special_tokens=skip_special_tokens
            )
            if "".join(chunks) != text:
                continue
            start, end = len(left), len(left) + len(tag)
            position = 0
            for chunk in chunks[:-1]:
                position += len(chunk)
                if start < position < end:
                    prefixes.add(tag[: position - start])
    return tuple(sorted(prefixes, key=lambda prefix: (-len(prefix), prefix)))
