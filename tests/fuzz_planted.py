"""Copies of a dialect with one planted bug each, for showing that the fuzzer finds it.

``fuzz_planted_off_by_one`` is Qwen2.5's hermes format with ``<tool_call>`` spelled in
several tokens (so a chunk may end after ``<``, ``<tool`` or ``<tool_call``), parsed by a
response parser whose pending-suffix handling is off by one: it releases the first
character of a held tag prefix as content — a wrong result, which the cheap oracles see.
``fuzz_planted_quadratic`` parses correctly but looks at all the text seen so far once per
new character: only the expensive linear-time oracle, which the fuzzing loop runs on a
sample, can see it. ``fuzz_planted_control`` is the same dialect without a bug. Importing
this module registers the three (unlisted); ``factory`` makes them usable as
``TOOLCONFORM_FUZZ_ADAPTER=tests.fuzz_planted:factory`` for an atheris run.
"""

from __future__ import annotations

from typing import Any

from toolconform.harness.adapters.reference import ReferenceSession
from toolconform.reference import Dialect, register
from toolconform.reference.dialects.hermes import HermesToolParser
from toolconform.reference.response_parser import ResponseParser
from toolconform.reference.tags import find_first, stable_prefix_end
from toolconform.reference.types import DeltaMessage

PLANTED = "fuzz_planted_off_by_one"
QUADRATIC = "fuzz_planted_quadratic"
CONTROL = "fuzz_planted_control"


class MultiTokenHermes(HermesToolParser):
    open_prefixes = ("<tool_call", "<tool", "<")
    close_prefixes = ("</tool_call", "</tool", "</")


class OffByOneResponseParser(ResponseParser):
    """Plain mode holds back one character less than the tag prefix it must hold."""

    def _consume_plain(self, pending, pos, final, out):  # type: ignore[no-untyped-def]
        _, tag = find_first(pending, self._plain_tags, pos)
        if tag is not None or final:
            return super()._consume_plain(pending, pos, final, out)
        end = stable_prefix_end(pending, self._plain_prefixes, pos)
        if end < len(pending):
            end += 1  # the planted bug
        if end > pos:
            out.append((DeltaMessage(content=pending[pos:end]), False))
        return end, False


class QuadraticResponseParser(ResponseParser):
    """Right results, but every new character costs a scan of all the text seen so far."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seen = ""

    def stream_chunk(self, text, token_ids=(), *, final=False):  # type: ignore[no-untyped-def]
        self._seen += text
        for _ in text:
            for _ in self._seen[::8]:  # the planted bug
                pass
        return super().stream_chunk(text, token_ids, final=final)


for name, parser in (
    (PLANTED, OffByOneResponseParser),
    (QUADRATIC, QuadraticResponseParser),
    (CONTROL, ResponseParser),
):
    register(
        Dialect(
            name=name,
            description="hermes tool blocks with multi-token tags (fuzzing tests only)",
            tool_parser=MultiTokenHermes,
            response_parser=parser,
        ),
        listed=False,
    )


def factory(dialect: str, request: dict[str, Any]) -> ReferenceSession:
    """The reference adapter, reachable by a module path that registers the dialects."""
    return ReferenceSession(dialect, request)
