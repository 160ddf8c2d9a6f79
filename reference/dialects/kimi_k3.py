"""Kimi K3 (vLLM's and SGLang's ``kimi_k3``): XTML channels built from three special tokens.

::

    <|open|>think<|sep|>R<|close|>think<|sep|>
    <|open|>response<|sep|>Checking.<|close|>response<|sep|>
    <|open|>tools<|sep|>
    <|open|>call tool="get_weather" index="1"<|sep|>
    <|open|>argument key="city" type="string"<|sep|>Oslo<|close|>argument<|sep|>
    <|open|>argument key="days" type="integer"<|sep|>3<|close|>argument<|sep|>
    <|close|>call<|sep|>
    <|close|>tools<|sep|>

(without the newlines, which are layout here). ``<|open|>``, ``<|close|>`` and ``<|sep|>``
are special tokens; the words and attributes between them are ordinary text, so a chunk may
end after ``<|open|>`` or ``<|close|>think``. The tools channel is DSML's structure in other
words (``DsmlToolParser``): a ``call`` names its function in ``tool=``, an ``argument`` its
key in ``key=``; a value typed ``string`` (or untyped) is raw text, any other type JSON (the
text itself as a string when it is not JSON, as both engines fall back). Attribute values
are escaped by the template (``&`` → ``&amp;``, ``"`` → ``&quot;``) and unescaped here; the
``index`` attribute counts calls from 1 and is not read (the response's own order is).

The answer is wrapped in the ``response`` channel, whose markers are protocol and dropped
wherever they stand (the server may already have written the open marker in the prompt), as
is ``<|close|>message<|sep|>``, with which the model may end a plain answer.
Reasoning is the ``think`` channel; in thinking mode (the default) the template opens it, so
the output starts inside it, and a request that turns thinking off starts as content.

No PyPI wheel ships Kimi K3's tokenizer: the dialect is cut with the tag-aligned model.
"""

from __future__ import annotations

import re

from ..dsml_tool_parser import DsmlToolParser
from ..reasoning import ReasoningParser
from ..registry import Dialect, register

OPEN, CLOSE, SEP = "<|open|>", "<|close|>", "<|sep|>"


def _opener(word: str) -> tuple[str, tuple[str, ...]]:
    """``<|open|>word<|sep|>`` with the prefixes that can end a chunk."""
    return f"{OPEN}{word}{SEP}", (f"{OPEN}{word}", OPEN)


def _closer(word: str) -> tuple[str, tuple[str, ...]]:
    return f"{CLOSE}{word}{SEP}", (f"{CLOSE}{word}", CLOSE)


_ESCAPED = re.compile("&(quot|amp);")


class KimiK3ToolParser(DsmlToolParser):
    open_tag, open_prefixes = _opener("tools")
    close_tag, close_prefixes = _closer("tools")
    header_end = SEP
    function_attribute = "tool"
    key_attribute = "key"
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        f"{OPEN}call": (OPEN,),
        f"{CLOSE}call{SEP}": (f"{CLOSE}call", CLOSE),
        f"{OPEN}argument": (OPEN,),
        f"{CLOSE}argument{SEP}": (f"{CLOSE}argument", CLOSE),
        SEP: (),
    }

    @classmethod
    def markup(cls) -> tuple[str, str, str, str]:
        return f"{OPEN}call", f"{CLOSE}call{SEP}", f"{OPEN}argument", f"{CLOSE}argument{SEP}"

    def attributes(self, header: str) -> dict[str, str]:
        return {
            key: _ESCAPED.sub(lambda m: '"' if m[1] == "quot" else "&", value)
            for key, value in super().attributes(header).items()
        }

    def is_string(self, attributes: dict[str, str]) -> bool:
        return attributes.get("type", "string") == "string"


class KimiK3ReasoningParser(ReasoningParser):
    """The channel markers are special tokens, protocol in every mode: with thinking off
    the output starts as content, and a think channel the model opens anyway is still
    reasoning, a response channel still the answer."""

    open_tag, open_prefixes = _opener("think")
    close_tag, close_prefixes = _closer("think")
    # The model sometimes leaves the think channel by opening the tools channel without
    # closing it (vllm-project/vllm#53246, #54273): the channel that opens ends reasoning.
    tool_open_ends_reasoning = True
    # It may also end a plain answer with the message's close marker, protocol too.
    answer_tags = dict((_opener("response"), _closer("response"), _closer("message")))  # noqa: RUF012

    def enabled(self) -> bool:
        return True

    def starts_in_reasoning(self) -> bool:
        return self.request.thinking is not False


register(
    Dialect(
        name="kimi_k3",
        description="Kimi K3: XTML <|open|>tools<|sep|> calls with typed arguments, the answer "
        "in a response channel, think-channel reasoning that starts open",
        tool_parser=KimiK3ToolParser,
        reasoning_parser=KimiK3ReasoningParser,
    )
)
