"""The OpenAI-shaped values the reference parser produces, and the request it reads.

The parser speaks exactly the delta vocabulary of an OpenAI chat-completion stream
(``content``, ``reasoning_content``, ``tool_calls[i].function.{name,arguments}``) so that its
output can be compared field by field with what any serving engine streams. These classes are
plain slotted dataclasses: they sit on the parser's hot path, where a pydantic model would
cost more than the parsing itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class DeltaToolCall:
    """One streamed tool-call fragment: ``choices[0].delta.tool_calls[k]`` of a chunk.

    The first fragment of a call carries ``id``, ``type`` and ``name``; later ones carry only
    an ``arguments`` piece. ``index`` is the dense output index of the call.
    """

    index: int
    id: str | None = None
    type: str | None = None
    name: str | None = None
    arguments: str | None = None

    def to_openai(self) -> dict[str, Any]:
        """The fragment as it appears on the wire."""
        function: dict[str, str] = {}
        if self.name is not None:
            function["name"] = self.name
        if self.arguments is not None:
            function["arguments"] = self.arguments
        out: dict[str, Any] = {"index": self.index}
        if self.id is not None:
            out["id"] = self.id
        if self.type is not None:
            out["type"] = self.type
        out["function"] = function
        return out


@dataclass(slots=True)
class DeltaMessage:
    """One delta of the assistant message; exactly one field is set by the reference parser."""

    content: str | None = None
    reasoning_content: str | None = None
    tool_calls: list[DeltaToolCall] | None = None

    def to_openai(self) -> dict[str, Any]:
        """The delta as it appears on the wire (fields that are unset are left out)."""
        out: dict[str, Any] = {}
        if self.content is not None:
            out["content"] = self.content
        if self.reasoning_content is not None:
            out["reasoning_content"] = self.reasoning_content
        if self.tool_calls is not None:
            out["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        return out


@dataclass(slots=True)
class ToolCall:
    """A complete tool call: the aggregation of all fragments with one index.

    ``id`` and ``name`` stay ``None`` when no fragment carried one: the reference always
    names its calls, a parser under test may not, and the checks must see that.
    """

    index: int
    id: str | None
    name: str | None
    arguments: str
    type: str = "function"

    def to_openai(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "id": self.id,
            "type": self.type,
            "function": {"name": self.name, "arguments": self.arguments},
        }

    def to_json(self) -> dict[str, Any]:
        """The call as reports and ``toolconform parse`` print it."""
        return {"index": self.index, "id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(slots=True)
class Request:
    """What a parser needs from the chat request: the tools, the tool choice, thinking.

    ``tools`` are OpenAI tool objects (``{"type": "function", "function": {"name",
    "parameters"}}``); ``None`` means the request did not restrict tool names (the
    ``toolconform parse`` default), while an empty list means no tool may be called.
    ``thinking`` is the request's thinking flag (``chat_template_kwargs.enable_thinking`` or
    ``thinking``); ``None`` means the request did not say.
    """

    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] = "auto"
    thinking: bool | None = None
    chat_template_kwargs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_openai(cls, body: Mapping[str, Any]) -> Request:
        """Read the parser-relevant fields of an OpenAI chat-completion request body."""
        kwargs = dict(body.get("chat_template_kwargs") or {})
        thinking = body.get("thinking", kwargs.get("enable_thinking", kwargs.get("thinking")))
        if isinstance(thinking, Mapping):  # Anthropic style {"type": "enabled"}
            thinking = thinking.get("type") == "enabled"
        return cls(
            tools=list(body["tools"]) if body.get("tools") is not None else None,
            tool_choice=body.get("tool_choice", "auto"),
            thinking=thinking,
            chat_template_kwargs=kwargs,
        )

    def to_openai(self) -> dict[str, Any]:
        """The request body that ``from_openai`` reads back as this request: how generated
        cases, bench workloads and ``parse`` hand a drawn request to an adapter."""
        body: dict[str, Any] = {"tool_choice": self.tool_choice}
        if self.tools is not None:
            body["tools"] = self.tools
        if self.thinking is not None:
            body["thinking"] = self.thinking
        if self.chat_template_kwargs:
            body["chat_template_kwargs"] = dict(self.chat_template_kwargs)
        return body

    def allowed_tool_names(self) -> frozenset[str] | None:
        """Names a call may carry to be emitted; ``None`` when any name is accepted.

        A named ``tool_choice`` narrows the set to that one function, as servers do.
        """
        choice = self.tool_choice
        if isinstance(choice, Mapping):
            function = choice.get("function") or {}
            if "name" in function:
                return frozenset((function["name"],))
            allowed = (choice.get("allowed_tools") or {}).get("tools")
            if allowed is not None:
                return frozenset(_function_name(tool) for tool in allowed)
        if self.tools is None:
            return None
        return frozenset(_function_name(tool) for tool in self.tools)

    def parameter_schemas(self) -> dict[str, dict[str, Any]]:
        """``{function name: its parameters' JSON Schema "properties"}`` for typed formats."""
        schemas: dict[str, dict[str, Any]] = {}
        for tool in self.tools or ():
            function = tool.get("function", tool)
            properties = (function.get("parameters") or {}).get("properties") or {}
            schemas[function["name"]] = dict(properties)
        return schemas


def _function_name(tool: Mapping[str, Any]) -> str:
    function = tool.get("function", tool)
    return function["name"]


def build_tool_calls(fragments: Sequence[DeltaToolCall]) -> list[ToolCall]:
    """Aggregate streamed fragments into complete calls, as an OpenAI client does.

    Fragments are grouped by index; the first id and name of an index win and argument
    pieces are concatenated in order.
    """
    calls: dict[int, ToolCall] = {}
    pieces: dict[int, list[str]] = {}
    for fragment in fragments:
        call = calls.get(fragment.index)
        if call is None:
            call = calls[fragment.index] = ToolCall(fragment.index, fragment.id, fragment.name, "")
            pieces[fragment.index] = []
        else:
            call.id = call.id or fragment.id
            call.name = call.name or fragment.name
        if fragment.arguments:
            pieces[fragment.index].append(fragment.arguments)
    for index, call in calls.items():
        call.arguments = "".join(pieces[index])
    return [calls[index] for index in sorted(calls)]


@dataclass(slots=True)
class FinalResult:
    """The coalesced result of one response: what a non-streaming client receives.

    The one result type of the project: the reference's complete and streamed parses and
    the coalesced events of any adapter's run (``harness.events.coalesce``) are all this, so
    a workload's verification and a generated case's expectation start from it.
    ``reasoning`` is ``None`` when the response had no reasoning channel at all (``""``: it
    had one, empty); ``finish_reason`` is set where the producer reports one (an adapter
    that models the serving layer).
    """

    content: str = ""
    reasoning: str | None = None
    calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None

    @classmethod
    def from_deltas(cls, messages: Sequence[DeltaMessage]) -> FinalResult:
        """Coalesce streamed deltas: join content and reasoning, aggregate the calls."""
        content: list[str] = []
        reasoning: list[str] = []
        fragments: list[DeltaToolCall] = []
        saw_reasoning = False
        for message in messages:
            if message.content:
                content.append(message.content)
            if message.reasoning_content is not None:
                saw_reasoning = True
                reasoning.append(message.reasoning_content)
            if message.tool_calls:
                fragments.extend(message.tool_calls)
        return cls(
            "".join(content),
            "".join(reasoning) if saw_reasoning else None,
            build_tool_calls(fragments),
        )

    def to_json(self) -> dict[str, Any]:
        """The result as reports print it (``finish_reason`` only where one was reported)."""
        out: dict[str, Any] = {
            "content": self.content,
            "reasoning": self.reasoning,
            "tool_calls": [call.to_json() for call in self.calls],
        }
        if self.finish_reason is not None:
            out["finish_reason"] = self.finish_reason
        return out
