"""MiniMax-M3 (vLLM's ``minimax_m3``, SGLang's ``minimax-m3``): namespaced, nested elements.

::

    <mm:think>plan</mm:think>Sure.]<]minimax[>[<tool_call>
    ]<]minimax[>[<invoke name="create_order">]<]minimax[>[<user_id>42]<]minimax[>[</user_id>
    ]<]minimax[>[<items>]<]minimax[>[<item>]<]minimax[>[<sku>b-1]<]minimax[>[</sku>
    ]<]minimax[>[</item>]<]minimax[>[</items>]<]minimax[>[</invoke>
    ]<]minimax[>[</tool_call>

(broken across lines here; nothing separates the elements of an invoke).

Every tag begins with the namespace marker ``]<]minimax[>[`` (one token of the vocabulary,
written by nothing but the protocol). A call is MiniMax-M2's invoke, read with the same
driver; an argument is an element named after its key and closed by a tag of that name.
The chat template writes a value as its ``to_xml`` macro does (MiniMax-M3's
``chat_template.jinja``): a string verbatim, nothing escaped; a number as Python writes it,
a boolean as ``true`` / ``false``; a mapping as one element per key, a list as ``<item>``
elements, each nested in turn; ``[]``, ``{}`` and ``""`` alike as an empty element; a
``None`` left out. The template puts a newline after ``<tool_call>`` and after each
``</invoke>``, layout between tags.

So the schema decides what a value is, as in the other XML-like formats
(``schema_values``): a value that may only be a string, or has no schema, streams verbatim,
unless its first visible text is a child element; any other value is held until its close
tag and read as a tree (``_convert``): children under an array schema are its items, under
any other schema the members of an object, in order, a repeated name kept twice (policy
``repeated-parameters``); children without a schema are an array when every one is an
``<item>`` (the template's list), an object otherwise; a leaf is typed by its schema, an
empty one under a container schema that does not allow strings is that empty container.
Text between child elements is layout, dropped. A string value ends at the first tag that
is not its own: when its close is missing, the next element begins.

Reasoning is ``<mm:think>`` … ``</mm:think>`` (one token each). The template's
``thinking_mode`` decides the start: ``enabled`` prefills ``<mm:think>`` (the output starts
in reasoning), ``disabled`` closes it in the prompt, ``adaptive`` (the default) leaves both
to the model. A turn without reasoning is written with a bare ``</mm:think>`` before its
answer, so a model that does not think may open with one: it is protocol, dropped (both
engines). The reasoning channel is always listening, as both engines' parsers are.

No PyPI wheel ships MiniMax-M3's tokenizer (its BPE is MiniMax-M2's, its markers are added
tokens M2's file lacks): the tag-aligned model. The marker is never cut; the words after it
are plain text, cut where M2's BPE cuts them (``<`` · ``tool`` · ``_call`` · ``>``, ``</`` ·
``invoke`` · ``>``, ``<`` · ``invoke`` · `` name`` · ``="``); an argument's own tags are text,
cut anywhere after the marker's ``<``, or after its ``</`` (one token: never between the two).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..markup import ValueTags, skip_stray_text, skip_whitespace, tag_at, unquote
from ..reasoning import ReasoningParser
from ..registry import Dialect, register
from ..schema_values import convert_value, value_types
from ..types import DeltaToolCall, Request
from ..xml_tool_parser import _HOLD, _STREAM, _UNDECIDED, ARG_NAME, ARG_START, DONE, FUNCTION
from .minimax_m2 import MiniMaxM2ToolParser

NS = "]<]minimax[>["
ELEMENT_OPEN = NS + "<"
ELEMENT_CLOSE = NS + "</"
BLOCK_OPEN = NS + "<tool_call>"
BLOCK_CLOSE = NS + "</tool_call>"
INVOKE_OPEN = NS + "<invoke name="
INVOKE_CLOSE = NS + "</invoke>"
#: The tags that end a value whose own close is missing (and any other element's tag ends a
#: string value): they belong to what follows.
_VALUE_END_TAGS = (INVOKE_CLOSE, BLOCK_CLOSE, INVOKE_OPEN)

# A value read as a tree of elements (``_STREAM`` and ``_HOLD`` are the driver's modes).
_TREE = 3

_CONTAINERS = frozenset(("array", "object"))
#: How deep elements nest before further tags are read as text: the tree is typed
#: recursively, and no template writes values this deep (vLLM stops at 128).
MAX_DEPTH = 128


class MiniMaxM3ToolParser(MiniMaxM2ToolParser):
    open_tag = BLOCK_OPEN
    close_tag = BLOCK_CLOSE
    open_prefixes = (NS + "<tool_call", NS + "<tool", ELEMENT_OPEN, NS)
    close_prefixes = (NS + "</tool_call", NS + "</tool", ELEMENT_CLOSE, NS)
    invoke_open = INVOKE_OPEN
    invoke_close = INVOKE_CLOSE
    parameter_open = ELEMENT_OPEN
    payload_starts = (INVOKE_OPEN,)
    tag_lead = NS
    inner_tags = {  # noqa: RUF012  (read-only declaration)
        INVOKE_OPEN: (NS + "<invoke name", NS + "<invoke", ELEMENT_OPEN, NS),
        INVOKE_CLOSE: (NS + "</invoke", ELEMENT_CLOSE, NS),
        # The marker before an argument's own tags: one token, never cut; an element's close
        # begins with the one token ``</`` after it.
        NS: (),
        ELEMENT_CLOSE: (NS,),
    }

    def __init__(self, request: Request) -> None:
        super().__init__(request)
        self._tree = _TreeState()
        self._tags_by_key: dict[str, ValueTags] = {}

    # ------------------------------------------------------------ calls and arguments

    def _invoke_header(
        self, payload: str, pos: int, final: bool
    ) -> tuple[int, str | None, str] | None:
        found = self._header(payload, pos)
        if found is None:
            return (len(payload), None, DONE) if final else None
        end, name = found
        return (end, None, FUNCTION) if name is None else (end, unquote(name), ARG_START)

    def _consume_arg_start(self, payload: str, pos: int) -> tuple[int, str] | None:
        pos = skip_whitespace(payload, pos)
        tag = tag_at(payload, pos, (INVOKE_CLOSE, BLOCK_CLOSE, INVOKE_OPEN))
        if tag == INVOKE_CLOSE:
            return pos + len(tag), DONE
        if tag:  # the block's end or the next invoke: this invoke's close is missing
            return pos, DONE
        if tag is None:
            if payload.startswith(ELEMENT_CLOSE, pos):  # a close without its element
                return skip_stray_text(payload, pos, self.tag_lead), ARG_START
            if payload.startswith(ELEMENT_OPEN, pos):
                return pos + len(ELEMENT_OPEN), ARG_NAME
            if not ELEMENT_OPEN.startswith(payload[pos:]):
                return skip_stray_text(payload, pos, self.tag_lead), ARG_START
        return None

    def _consume_arg_name(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        found = self._header(payload, pos)
        if found is None:
            return None
        end, name = found
        name = name.strip() if name is not None else None
        return end, name or None

    def _header(self, payload: str, pos: int) -> tuple[int, str | None] | None:
        """The text up to a tag's ``>``: ``(after it, text)``; ``(the marker, None)`` when
        the next tag begins first; ``None`` while neither has come."""
        position, tag, text = self._search.first(payload, (">", NS), pos)
        if tag is None:
            return None
        if tag == NS:
            return position, None
        return position + 1, text

    # ------------------------------------------------------------ values

    def _start_value(self, name: str) -> None:
        super()._start_value(name)
        tags = self._tags_by_key.get(name)
        if tags is None:
            close = f"{ELEMENT_CLOSE}{name}>"
            # Any element's tag ends a string value (``ELEMENT_OPEN``, the head of them all);
            # the value's own close is consumed with it.
            tags = ValueTags(close, (ELEMENT_OPEN,), self.protocol_tags())
            self._tags_by_key[name] = tags
        self._value_tags = tags
        state = self._state
        if state.value_mode == _HOLD:
            state.value_mode = _TREE
        self._tree = _TreeState(f"{ELEMENT_OPEN}{name}>", tags.close_tag)

    def _consume_arg_value(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        state = self._state
        if state.value_mode == _UNDECIDED:
            # A string, unless its first visible text is a child element.
            first = skip_whitespace(text, pos)
            head = text[first : first + len(ELEMENT_CLOSE)]
            if not final and len(head) < len(ELEMENT_CLOSE) and ELEMENT_CLOSE.startswith(head):
                if first > pos:  # nothing visible yet, or a tag that may be either
                    state.held.append(text[pos:first])
                return first, False
            if head.startswith(ELEMENT_OPEN) and head != ELEMENT_CLOSE:
                state.value_mode = _TREE
                state.held = []  # layout before the first child
                pos = first
            else:
                state.value_mode = _STREAM
                return self._consume_streamed_value(text, pos, deltas, final)
        return self._consume_tree(text, pos, deltas, final)

    def _consume_tree(
        self, text: str, pos: int, deltas: list[DeltaToolCall], final: bool
    ) -> tuple[int, bool]:
        """A held value: up to its own close at its own depth (an element of the same name
        nested in it counts) or a tag that ends the call; then read and typed whole. What
        is scanned waits in ``state.held``: only a tag that has not fully arrived stays
        unconsumed, so the scan is linear."""
        state = self._state
        tree = self._tree
        scan = pos
        marker = text.find(NS, scan)
        while marker >= 0:
            if text.startswith(tree.close, marker):
                if tree.depth == 0:
                    self._end_tree(deltas, text[pos:marker], ended=True)
                    return marker + len(tree.close), True
                tree.depth -= 1
            elif text.startswith(tree.open, marker):
                tree.depth += 1
            else:
                ending = tag_at(text, marker, _VALUE_END_TAGS)
                if ending:  # the value's own close is missing
                    self._end_tree(deltas, text[pos:marker], ended=True)
                    return marker, True
                # Only a tail shorter than the value's close can still become one of its
                # tags: a bounded slice, not the rest of the text at every marker.
                rest = text[marker : marker + len(tree.close)]
                if not final and (
                    ending == "" or _begins(tree.close, rest) or _begins(tree.open, rest)
                ):
                    if marker > pos:  # a tag that has not fully arrived
                        state.held.append(text[pos:marker])
                    return marker, False
            marker = text.find(NS, marker + len(NS))
        if final:
            self._end_tree(deltas, text[pos:], ended=False)
            return len(text), True
        if len(text) > pos:
            state.held.append(text[pos:] if pos else text)
        return len(text), False

    def _end_tree(self, deltas: list[DeltaToolCall], rest: str, *, ended: bool) -> None:
        """Emit the held value; ``ended``: a tag ended it (else the input did)."""
        state = self._state
        body = "".join(state.held) + rest if state.held else rest
        state.held = []
        if ended or body:  # at the end of the input before any of the value: invent none
            schema = self._parameter_schema(state.argument_name)
            self._emit_value(deltas, _convert(_parse(body), schema))

    def _parameter_schema(self, name: str) -> Any:
        properties = self._schemas.get(self._state.function_name or "")
        return properties.get(name) if properties else None


# ---------------------------------------------------------------------- the value tree


@dataclass(slots=True)
class _TreeState:
    """The held value's own tags, and how many elements of its name are open inside it."""

    open: str = ""
    close: str = ""
    depth: int = 0


@dataclass(slots=True)
class _Element:
    name: str
    texts: list[str] = field(default_factory=list)
    children: list[_Element] = field(default_factory=list)


def _parse(body: str) -> _Element:
    """The elements of a value's text, nested; unclosed ones end with the text, a close
    without its element is text, and so are tags nested deeper than ``MAX_DEPTH``."""
    root = _Element("")
    stack = [root]
    open_names: dict[str, int] = {}
    pieces = body.split(NS)
    root.texts.append(pieces[0])
    for piece in pieces[1:]:
        end = piece.find(">")
        if piece.startswith("</") and end > 2 and open_names.get(piece[2:end]):
            name = piece[2:end]
            while True:
                element = stack.pop()
                open_names[element.name] -= 1
                if element.name == name:
                    break
            stack[-1].texts.append(piece[end + 1 :])
        elif (
            piece.startswith("<")
            and not piece.startswith("</")
            and end > 1
            and len(stack) <= MAX_DEPTH
        ):
            child = _Element(piece[1:end].strip(), [piece[end + 1 :]])
            stack[-1].children.append(child)
            stack.append(child)
            open_names[child.name] = open_names.get(child.name, 0) + 1
        else:
            stack[-1].texts.append(NS + piece)
    return root


def _convert(element: _Element, schema: Any) -> str:
    """The JSON text of ``element`` typed by ``schema`` (duplicates and order kept)."""
    types = value_types(schema)
    children = element.children
    if not children:
        return _leaf("".join(element.texts), types)
    all_items = all(child.name == "item" for child in children)
    if "array" in types and ("object" not in types or all_items):
        kind = "array"
    elif types:
        kind = "object"
    else:
        kind = "array" if all_items else "object"
    member = _member(schema, kind)
    if kind == "array":
        items = member.get("items")
        prefix = member.get("prefixItems")
        values = []
        for index, child in enumerate(children):
            if isinstance(prefix, list) and index < len(prefix):
                values.append(_convert(child, prefix[index]))
            else:
                values.append(_convert(child, items))
        return "[" + ", ".join(values) + "]"
    properties = member.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    additional = member.get("additionalProperties")
    members = (
        f"{json.dumps(child.name, ensure_ascii=False)}: "
        + _convert(child, properties.get(child.name, additional))
        for child in children
    )
    return "{" + ", ".join(members) + "}"


def _begins(tag: str, text: str) -> bool:
    """Whether ``text`` is a proper prefix of ``tag``: the tag may still arrive."""
    return len(text) < len(tag) and tag.startswith(text)


def _leaf(text: str, types: frozenset[str]) -> str:
    if not types or types == {"string"}:
        return json.dumps(text, ensure_ascii=False)
    if not text.strip() and "string" not in types and types & _CONTAINERS:
        return "[]" if "array" in types else "{}"
    return convert_value(text, types)


def _member(schema: Any, kind: str) -> Mapping[str, Any]:
    """The part of ``schema`` that describes a value of JSON type ``kind`` (an ``anyOf`` /
    ``oneOf`` member, or the schema itself); empty when none does."""
    if not isinstance(schema, Mapping):
        return {}
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or ():
            if kind in value_types(option):
                return _member(option, kind)
    return schema if kind in value_types(schema) else {}


# ---------------------------------------------------------------------- reasoning


class MiniMaxM3ReasoningParser(ReasoningParser):
    open_tag = "<mm:think>"
    close_tag = "</mm:think>"
    close_may_lead = True

    def enabled(self) -> bool:
        return True

    def starts_in_reasoning(self) -> bool:
        mode = self.request.chat_template_kwargs.get("thinking_mode")
        return self.request.thinking is True or mode == "enabled"


register(
    Dialect(
        name="minimax_m3",
        description="MiniMax-M3: ]<]minimax[>[-namespaced <tool_call><invoke name=…> with "
        "arguments as nested elements typed by the schema, <mm:think> reasoning",
        tool_parser=MiniMaxM3ToolParser,
        reasoning_parser=MiniMaxM3ReasoningParser,
    )
)
