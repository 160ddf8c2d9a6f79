"""The normalized event model: every parser's output in one language.

Adapters return what an engine streams (OpenAI chat-completion-chunk deltas as plain dicts,
or whole-message snapshots for parsers that re-parse the prefix); this module reduces both to
events, so that any two parsers can be compared and checked with one set of rules:

- ``content(text)``, ``reasoning(text)``;
- ``call_begin(index, id, name)``, ``call_args(index, fragment)``, ``call_end(index)``;
- ``rewrite(field)`` when a snapshot takes back text it had already shown (never valid);
- ``finish(reason)`` where the adapter reports the client-visible ``finish_reason`` (an
  adapter that models the serving layer: a delta, or the snapshot, carries it).

Nothing is repaired here: a parser that sends a name twice produces two ``call_begin``
events, and the checks say so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..reference.types import FinalResult, ToolCall

CONTENT = "content"
REASONING = "reasoning"
CALL_BEGIN = "call_begin"
CALL_ARGS = "call_args"
CALL_END = "call_end"
REWRITE = "rewrite"
FINISH = "finish"


@dataclass(frozen=True, slots=True)
class Event:
    """One normalized event; which fields are set depends on ``kind``."""

    kind: str
    text: str = ""
    index: int | None = None
    id: str | None = None
    name: str | None = None
    type: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("text", "index", "id", "name", "type"):
            value = getattr(self, key)
            if value not in (None, ""):
                out[key] = value
        return out


class AdapterOutputError(ValueError):
    """The adapter returned something that is not a delta in the expected shape."""


def events_from_deltas(deltas: Any) -> list[Event]:
    """Events of a list of OpenAI delta dicts, in order; ``AdapterOutputError`` names the
    offending value and the rule it breaks when the output is not in the contract's shape.

    ``reasoning`` is accepted as a synonym of ``reasoning_content`` (newer vLLM); a tool-call
    fragment that carries a name opens a call, one that carries arguments extends it.
    """
    if not isinstance(deltas, list | tuple):
        raise AdapterOutputError(
            f"feed and finish must return a list of deltas, got {_short(deltas)}"
        )
    events: list[Event] = []
    for delta in deltas:
        if not isinstance(delta, Mapping):
            raise AdapterOutputError(f"a delta must be a JSON object, got {_short(delta)}")
        reasoning = _text(delta, "reasoning_content")
        if reasoning is None:
            reasoning = _text(delta, "reasoning")
        if reasoning:
            events.append(Event(REASONING, reasoning))
        content = _text(delta, "content")
        if content:
            events.append(Event(CONTENT, content))
        calls = delta.get("tool_calls")
        if calls is not None:
            if not isinstance(calls, list | tuple):
                raise AdapterOutputError(f"tool_calls must be a list, got {_short(calls)}")
            for call in calls:
                events.extend(_call_events(call))
        reason = _text(delta, "finish_reason")
        if reason is not None:  # after the delta's own text, as a server sends it
            events.append(Event(FINISH, reason))
    return events


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _text(container: Mapping[str, Any], key: str) -> str | None:
    """A field that must be a string when present (``null`` counts as absent)."""
    value = container.get(key)
    if value is not None and not isinstance(value, str):
        raise AdapterOutputError(f"{key} must be a string, got {_short(value)}")
    return value


def _call_events(call: Any) -> list[Event]:
    if not isinstance(call, Mapping):
        raise AdapterOutputError(f"a tool_calls entry must be a JSON object, got {_short(call)}")
    index = call.get("index")
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise AdapterOutputError(
            f"a tool_calls entry needs a non-negative integer index, got {_short(index)}"
        )
    function = call.get("function")
    if function is None:
        function = {}
    if not isinstance(function, Mapping):
        raise AdapterOutputError(f"tool_calls[].function must be an object, got {_short(function)}")
    call_id, call_type = _text(call, "id"), _text(call, "type")
    name, arguments = _text(function, "name"), _text(function, "arguments")
    events: list[Event] = []
    if name is not None or call_id is not None:
        events.append(Event(CALL_BEGIN, index=index, id=call_id, name=name, type=call_type))
    if arguments:
        events.append(Event(CALL_ARGS, arguments, index=index))
    return events


@dataclass
class Snapshot:
    """A whole message as a snapshot-style parser reports it after each prefix."""

    content: str = ""
    reasoning: str = ""
    calls: list[tuple[str | None, str | None, str]] = field(default_factory=list)
    finish_reason: str | None = None

    @classmethod
    def from_json(cls, message: Any) -> Snapshot:
        """The snapshot of a message; ``AdapterOutputError`` when it is not one."""
        if not isinstance(message, Mapping):
            raise AdapterOutputError(f"a message must be a JSON object, got {_short(message)}")
        calls = []
        tool_calls = message.get("tool_calls") or ()
        if not isinstance(tool_calls, list | tuple):
            raise AdapterOutputError(f"tool_calls must be a list, got {_short(tool_calls)}")
        for call in tool_calls:
            if not isinstance(call, Mapping):
                raise AdapterOutputError(f"a tool call must be an object, got {_short(call)}")
            function = call.get("function") or {}
            if not isinstance(function, Mapping):
                raise AdapterOutputError(f"function must be an object, got {_short(function)}")
            calls.append(
                (_text(call, "id"), _text(function, "name"), _text(function, "arguments") or "")
            )
        reasoning = _text(message, "reasoning_content")
        if reasoning is None:
            reasoning = _text(message, "reasoning")
        return cls(
            _text(message, "content") or "",
            reasoning or "",
            calls,
            _text(message, "finish_reason"),
        )


class Normalizer:
    """Turns one session's successive outputs (delta lists, or snapshots) into events."""

    def __init__(self, *, snapshots: bool) -> None:
        self.snapshots = snapshots
        self._previous = Snapshot()

    def events(self, output: Any) -> list[Event]:
        if self.snapshots:
            current = Snapshot.from_json(output)
            events = events_from_snapshots(self._previous, current)
            self._previous = current
            return events
        return events_from_deltas(output)


def events_from_snapshots(previous: Snapshot, current: Snapshot) -> list[Event]:
    """The events that turn ``previous`` into ``current`` (llama.cpp-style parsers).

    Text may only grow; a snapshot that changes text already shown yields a ``rewrite``
    event naming the field, which the append-only check reports.
    """
    events: list[Event] = []
    for kind, before, after in (
        (REASONING, previous.reasoning, current.reasoning),
        (CONTENT, previous.content, current.content),
    ):
        if not after.startswith(before):
            events.append(Event(REWRITE, kind))
        elif len(after) > len(before):
            events.append(Event(kind, after[len(before) :]))
    for index, (call_id, name, arguments) in enumerate(current.calls):
        if index < len(previous.calls):
            _, old_name, old_arguments = previous.calls[index]
            if (old_name or "") != (name or "") and old_name:
                events.append(Event(REWRITE, f"tool_calls[{index}].name", index=index))
            elif name and not old_name:
                events.append(Event(CALL_BEGIN, index=index, id=call_id, name=name))
            if not arguments.startswith(old_arguments):
                events.append(Event(REWRITE, f"tool_calls[{index}].arguments", index=index))
            elif len(arguments) > len(old_arguments):
                events.append(Event(CALL_ARGS, arguments[len(old_arguments) :], index=index))
        else:
            if name:
                events.append(Event(CALL_BEGIN, index=index, id=call_id, name=name))
            if arguments:
                events.append(Event(CALL_ARGS, arguments, index=index))
    for index in range(len(current.calls), len(previous.calls)):
        events.append(Event(REWRITE, f"tool_calls[{index}]", index=index))
    if current.finish_reason is not None and current.finish_reason != previous.finish_reason:
        events.append(Event(FINISH, current.finish_reason))
    return events


def coalesce(chunks: Sequence[Sequence[Event]]) -> FinalResult:
    """Join the events of all chunks into the final result (first name and id of an index win)."""
    content: list[str] = []
    reasoning: list[str] = []
    saw_reasoning = False
    calls: dict[int, ToolCall] = {}
    arguments: dict[int, list[str]] = {}
    finish_reason: str | None = None
    for events in chunks:
        for event in events:
            if event.kind == FINISH:
                finish_reason = event.text
            elif event.kind == CONTENT:
                content.append(event.text)
            elif event.kind == REASONING:
                saw_reasoning = True
                reasoning.append(event.text)
            elif event.kind in (CALL_BEGIN, CALL_ARGS):
                index = event.index
                assert index is not None
                call = calls.get(index)
                if call is None:
                    call = calls[index] = ToolCall(index, None, None, "")
                    arguments[index] = []
                if event.kind == CALL_BEGIN:
                    call.name = call.name or event.name
                    call.id = call.id or event.id
                else:
                    arguments[index].append(event.text)
    for index, call in calls.items():
        call.arguments = "".join(arguments[index])
    return FinalResult(
        "".join(content),
        "".join(reasoning) if saw_reasoning else None,
        [calls[index] for index in sorted(calls)],
        finish_reason,
    )
