"""Structured model responses: reasoning, content and tool calls, before any rendering.

A ``Response`` is what a parser should recover from a model output: the generated data of a
round trip. Its channels are kept verbatim (a renderer adds only protocol text), so the
expected parse follows from the response alone: content and reasoning are joined, calls
are listed in output order, and calls to tools the request did not offer are dropped when
the dialect filters unknown names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from ..harness.cases import Expectation, ExpectedCall
from .values import arguments, identifiers, texts


@dataclass(frozen=True)
class Call:
    """One tool call: a function name and its arguments object."""

    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class Response:
    """One assistant response in output order.

    ``reasoning`` (``None``: no reasoning channel) may contain tool blocks
    (``reasoning_calls``) and go on after them (``reasoning_tail``); then ``content``, the
    ``calls`` and the text after the blocks (``content_tail``).
    """

    reasoning: str | None = None
    reasoning_calls: tuple[Call, ...] = ()
    reasoning_tail: str = ""
    content: str = ""
    calls: tuple[Call, ...] = ()
    content_tail: str = ""

    @property
    def all_calls(self) -> tuple[Call, ...]:
        return self.reasoning_calls + self.calls

    def expected(self, allowed_names: frozenset[str] | None) -> Expectation:
        """What the reference parser must return (arguments compared as JSON values, as
        ``as_result`` reads a parse); ``allowed_names=None`` keeps every call."""
        reasoning = None
        if self.reasoning is not None:
            reasoning = (self.reasoning + self.reasoning_tail) or None
        calls = tuple(
            ExpectedCall(call.name, dict(call.arguments))
            for call in self.all_calls
            if allowed_names is None or call.name in allowed_names
        )
        return Expectation(
            self.content + self.content_tail,
            reasoning,
            calls,
            "tool_calls" if calls else "stop",
        )


def tool_calls(
    tools: Sequence[Mapping[str, Any]],
    *,
    unknown_names: bool = True,
    look_alikes: Sequence[str] = (),
) -> st.SearchStrategy[Call]:
    """A call to one of ``tools`` with arguments valid for its schema, or (when
    ``unknown_names``) to a tool the request does not offer.

    ``tool_calls(tools)`` → ``Call(name='get_weather', arguments={'city': '東京'})``.
    """
    known = {tool.get("function", tool)["name"]: tool.get("function", tool) for tool in tools}
    options: list[st.SearchStrategy[Call]] = [
        arguments(function.get("parameters") or {"type": "object"}, look_alikes=look_alikes).map(
            lambda values, name=name: Call(name, values)
        )
        for name, function in known.items()
    ]
    if unknown_names or not options:
        options.append(
            st.builds(
                Call,
                identifiers().filter(lambda name: name not in known),
                st.dictionaries(identifiers(), st.integers() | st.text(max_size=5), max_size=2),
            )
        )
    return st.one_of(options)


def responses(
    dialect: str,
    tools: Sequence[Mapping[str, Any]],
    *,
    max_calls: int = 3,
    unknown_names: bool = True,
) -> st.SearchStrategy[Response]:
    """Responses that ``dialect``'s renderer can write, calling ``tools`` (and unknown ones).

    Only the features the renderer ``supports`` are drawn, and only calls, text and
    responses the format carries (the renderer's ``fit_call``, ``fit_text`` and
    ``carries``); free text never contains one of the dialect's protocol tags, but argument
    strings may (parsers must carry them through).
    ``responses("qwen3", tools)`` → ``Response(reasoning='\\n東京', content='',
    calls=(Call('get_weather', {'city': '</tool_call>'}),))``.
    """
    from hypothesis.errors import InvalidArgument

    from ..reference import get_dialect
    from .renderers import (
        CALLS,
        CONTENT_TAIL,
        MULTIPLE_CALLS,
        REASONING,
        REASONING_CALLS,
        REASONING_TAIL,
        get_renderer,
    )

    if max_calls < 0:
        raise InvalidArgument(f"max_calls={max_calls} must be at least 0")
    renderer = get_renderer(dialect)
    tags = tuple(get_dialect(dialect).protocol_tags())
    look_alikes = tuple(lookalike for tag in tags for lookalike in near_misses(tag))
    supports = renderer.supports
    free = texts(avoid=tags, look_alikes=look_alikes).map(renderer.fit_text)
    nothing = st.just("")
    per_block = max_calls if MULTIPLE_CALLS in supports else min(max_calls, 1)
    parameters = {
        tool.get("function", tool)["name"]: tool.get("function", tool).get("parameters") or {}
        for tool in tools
    }
    carried_calls = (
        tool_calls(tools, unknown_names=unknown_names, look_alikes=look_alikes)
        .map(lambda call: renderer.fit_call(call, parameters.get(call.name)))
        .filter(lambda call: call is not None)
    )
    call_lists = st.lists(carried_calls, max_size=per_block).map(tuple)
    no_calls = st.just(())

    @st.composite
    def draw_response(draw: st.DrawFn) -> Response:
        reasoning = draw(st.none() | free) if REASONING in supports else None
        with_reasoning_calls = reasoning is not None and REASONING_CALLS in supports
        reasoning_calls = draw(call_lists if with_reasoning_calls else no_calls)
        reasoning_tail = draw(free if reasoning_calls and REASONING_TAIL in supports else nothing)
        content = draw(free)
        calls = draw(call_lists if CALLS in supports else no_calls)
        content_tail = draw(free if calls and CONTENT_TAIL in supports else nothing)
        return Response(reasoning, reasoning_calls, reasoning_tail, content, calls, content_tail)

    def no_tag_across_free_text(response: Response) -> bool:
        joined = [response.content + response.content_tail]
        if response.reasoning is not None:
            joined.append(response.reasoning + response.reasoning_tail)
        return not any(tag in text for tag in tags for text in joined)

    return draw_response().filter(no_tag_across_free_text).filter(renderer.carries)


def near_misses(tag: str) -> tuple[str, ...]:
    """Strings that resemble ``tag`` without being it: truncated, spaced, upper-cased."""
    if len(tag) < 2:
        return ()
    misses = {tag[:-1], tag[: len(tag) // 2], tag[:1] + " " + tag[1:], tag.upper(), tag.lower()}
    return tuple(sorted(miss for miss in misses if miss != tag))
