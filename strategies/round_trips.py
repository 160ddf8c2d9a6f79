"""Round trips: generated response → rendered text → engine chunks → parser → same response.

This is the suite's golden generator: the expected result of a rendered response needs no
hand-written oracle, because the response is the oracle. ``round_trips(dialect)`` draws
the tools, the response and the request that a parser of ``dialect`` reads it under;
``stream_parse`` runs the reference parser over chunks and coalesces what it streamed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hypothesis import strategies as st

from ..harness.cases import Expectation
from ..reference import FinalResult, Request, get_dialect
from .renderers import get_renderer
from .responses import Response, responses
from .values import tools as tool_lists


@dataclass(frozen=True)
class RoundTrip:
    """One generated case: the tools offered, the response, and what follows from them.

    ``variant`` is the layout the renderer writes (``None``: its default).
    """

    dialect: str
    tools: list[dict[str, Any]]
    response: Response
    variant: str | None = None

    @cached_property
    def text(self) -> str:
        """The model output."""
        return get_renderer(self.dialect).render(self.response, self.variant)

    @cached_property
    def request(self) -> Request:
        """The chat request the parser reads the output under."""
        return get_renderer(self.dialect).request(self.response, self.tools)

    @cached_property
    def expected(self) -> Expectation:
        """What a conforming parser returns (unknown tool names dropped where filtered)."""
        filters = get_dialect(self.dialect).filters_unknown_names
        return self.response.expected(self.request.allowed_tool_names() if filters else None)


def round_trips(dialect: str, *, max_calls: int = 3) -> st.SearchStrategy[RoundTrip]:
    """Cases for ``dialect``: tools, a response calling them (and unknown tools), rendered.

    ``round_trips("qwen3").example().text`` → ``'<think>東京</think><tool_call>\\n{"name":
    "f", "arguments": {"a": 1}}\\n</tool_call>'``.
    """
    renderer = get_renderer(dialect)  # validate eagerly: one precise error if unrendered
    variants = st.sampled_from(renderer.variants) if renderer.variants else st.none()
    return tool_lists().flatmap(
        lambda tools: st.builds(
            RoundTrip,
            st.just(dialect),
            st.just(tools),
            responses(dialect, tools, max_calls=max_calls),
            variants,
        )
    )


def stream_parse(dialect: str, chunks: Iterable[str], request: Request) -> FinalResult:
    """Feed ``chunks`` to a fresh reference parser of ``dialect``; coalesce the deltas."""
    return get_dialect(dialect).new_parser(request).parse_stream(chunks)


def as_result(parsed: FinalResult) -> Expectation:
    """A parse as ``RoundTrip.expected`` is written: ids and argument spacing dropped,
    arguments compared as JSON values."""
    return Expectation.from_result(parsed, raw=False)
