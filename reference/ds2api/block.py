"""One complete tool block to calls: ``<tool_calls>…</tool_calls>`` → ``[(name, input)]``.

The block's recognised shells are first rewritten to canonical XML (``<invoke name="x">``),
leaving prose, parameter bodies and CDATA untouched; then every ``<invoke>`` with a non-empty
``name`` and well-formed ``<parameter>`` children (or no body at all, or a JSON body) is a
call (seed 003 §1 and §4, research notes §3.1 and §3.5). A block that yields no call is
rejected by the caller and released as text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from .chars import GO_SPACE, IGNORABLE, ascii_at, go_trim
from .sections import has_cdata_opener, sanitize_loose_cdata, skip_opaque
from .shell import Tag, Window, name_attribute, scan_tag
from .values import append_value, json_value, parameter_value

_TAG_START = re.compile("[<＜﹤〈]")
_ATTRIBUTE = re.compile(
    r"""\b([a-z0-9_:-]+)\s*=\s*("([^"]*)"|'([^']*)')""", re.IGNORECASE | re.DOTALL | re.ASCII
)

Call = tuple[str, dict[str, Any]]


def parse_block(block: str) -> list[Call]:
    """The calls of one complete block; ``[]`` means the block is not a valid call."""
    canonical, wrappers = canonicalize(go_trim(block))
    calls = _calls(canonical, wrappers)
    if not calls and has_cdata_opener(canonical):
        recovered = sanitize_loose_cdata(canonical)
        if recovered != canonical:
            calls = _calls(recovered, list(iter_tags(recovered)))
    return calls


def iter_tags(text: str, start: int = 0) -> Iterator[Tag]:
    """Every recognised tool tag of a complete text from ``start``, skipping CDATA and comments."""
    i = start
    while (match := _TAG_START.search(text, i)) is not None:
        j = match.start()
        after = skip_opaque(text, j)
        if after < 0:
            return
        if after > j:
            i = after
            continue
        tag = scan_tag(text, j, True)
        if tag is None:
            i = j + 1
        else:
            yield tag
            i = tag.end


def canonicalize(text: str) -> tuple[str, list[Tag]]:
    """Rewrite each recognised shell as plain XML, keeping only its ``name`` attribute.

    Also returns the ``tool_calls`` tags of the rewritten text, which is all that wrapper
    matching needs.
    """
    out: list[str] = []
    wrappers: list[Tag] = []
    copied = 0
    length = 0
    for tag in iter_tags(text):
        start = tag.start
        while start > copied and text[start - 1] in IGNORABLE:
            start -= 1
        out.append(text[copied:start])
        length += start - copied
        shell = _canonical_shell(text, tag)
        if tag.name == "tool_calls":
            wrappers.append(replace(tag, start=length, end=length + len(shell)))
        out.append(shell)
        length += len(shell)
        copied = tag.end
    out.append(text[copied:])
    return "".join(out), wrappers


def _canonical_shell(text: str, tag: Tag) -> str:
    attributes = "".join(
        ' name="' + value.replace('"', "&quot;") + '"' for value in name_attribute(text, tag)
    )
    slash, self_closing = "/" if tag.closing else "", "/" if tag.self_closing else ""
    return f"<{slash}{tag.name}{attributes}{self_closing}>"


def _calls(canonical: str, tags: list[Tag]) -> list[Call]:
    calls: list[Call] = []
    for body in _wrapper_bodies(canonical, [tag for tag in tags if tag.name == "tool_calls"]):
        for attributes, invoke_body in _element_blocks(body, "invoke"):
            call = _call(attributes, invoke_body)
            if call is not None:
                calls.append(call)
    return calls


def _wrapper_bodies(text: str, tags: list[Tag]) -> list[str]:
    """Bodies of the depth-matched ``tool_calls`` wrappers, given the wrapper tags in order."""
    bodies: list[str] = []
    k = 0
    while k < len(tags):
        opener = tags[k]
        k += 1
        if opener.closing:
            continue
        depth = 1
        for m in range(k, len(tags)):
            tag = tags[m]
            if tag.closing:
                depth -= 1
                if depth == 0:
                    bodies.append(text[opener.end : tag.start])
                    k = m + 1
                    break
            elif not tag.self_closing:
                depth += 1
    return bodies


def _call(attributes: str, body: str) -> Call | None:
    name = go_trim(html.unescape(_attributes(attributes).get("name", "")))
    if not name:
        return None
    inner = go_trim(body)
    if inner.startswith("{"):
        payload = json_value(inner)
        if isinstance(payload, dict):
            arguments = payload.get("input")
            if not isinstance(arguments, dict) or not arguments:
                parameters = payload.get("parameters")
                arguments = parameters if isinstance(parameters, dict) else arguments
            return name, arguments if isinstance(arguments, dict) else {}
    arguments: dict[str, Any] = {}
    for parameter_attributes, parameter_body in _element_blocks(inner, "parameter"):
        key = go_trim(html.unescape(_attributes(parameter_attributes).get("name", "")))
        if key:
            append_value(arguments, key, parameter_value(key, parameter_body))
    if not arguments and inner:
        return None  # a body that is not parameters: <param>, <tool_name>, broken markup
    return name, arguments


def _attributes(raw: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(raw):
        out[match.group(1).lower()] = match.group(3) or match.group(4) or ""
    return out


# ---------------------------------------------------------------- literal element search


def _element_blocks(text: str, name: str) -> list[tuple[str, str]]:
    """``(attributes, body)`` of each depth-matched ``<name …>…</name>`` outside CDATA.

    Start tags are taken in order; one without a matching end tag is skipped and the search
    goes on inside it (ds2api ``findXMLElementBlocks``). Matching ends are found for all of
    them in one pass (next lower nesting depth), so that a body full of unmatched start tags
    costs linear time, not a scan to the end per start tag. (Unlike ds2api, a start tag
    written inside a closing tag's attributes, ``</invoke x="<invoke">``, is not seen.)
    """
    tags = _literal_tags(text, name)
    depth = 0
    depths: list[int] = []
    for tag in tags:
        if tag.closing and not tag.barrier:
            depth -= 1
        elif not tag.closing and not tag.self_closing:
            depth += 1
        depths.append(depth)
    match: list[int] = [-1] * len(tags)  # the tag that ends the element opened at k
    lower: list[int] = []  # stack of later tags with increasing depth
    barrier = -1  # the nearest later tag that depth matching cannot cross
    for k in range(len(tags) - 1, -1, -1):
        while lower and depths[lower[-1]] >= depths[k]:
            lower.pop()
        if lower and (barrier < 0 or lower[-1] < barrier):
            match[k] = lower[-1]
        lower.append(k)
        if tags[k].barrier:
            barrier = k
    blocks: list[tuple[str, str]] = []
    k = 0
    while k < len(tags):
        tag = tags[k]
        if tag.closing or match[k] < 0:
            k += 1
            continue
        blocks.append((tag.attributes, text[tag.end : tags[match[k]].start]))
        k = match[k] + 1
    return blocks


@dataclass(frozen=True, slots=True)
class _LiteralTag:
    closing: bool
    start: int
    end: int
    attributes: str = ""
    self_closing: bool = False
    barrier: bool = False  # a tag without an end, or a section that never closes


def _literal_tags(text: str, name: str) -> list[_LiteralTag]:
    """The literal ``<name`` and ``</name`` tags outside CDATA and comments, in order, up to
    where ds2api's start-tag search would give up."""
    tags: list[_LiteralTag] = []
    i = 0
    while (found := _TAG_START.search(text, i)) is not None:
        j = found.start()
        after = skip_opaque(text, j)
        if after < 0:
            tags.append(_LiteralTag(True, j, j, barrier=True))
            break
        if after > j:
            i = after
            continue
        name_end = _literal(text, j, "</" + name)
        if name_end >= 0:
            end = _tag_end(text, name_end)
            tags.append(
                _LiteralTag(True, j, j, barrier=True) if end < 0 else _LiteralTag(True, j, end + 1)
            )
            i = j + 1 if end < 0 else end + 1
            continue
        name_end = _literal(text, j, "<" + name)
        if name_end >= 0:
            end = _tag_end(text, name_end)
            if end < 0:
                tags.append(_LiteralTag(True, j, j, barrier=True))
                break
            self_closing = _self_closing(text, end)
            tags.append(_LiteralTag(False, j, end + 1, text[name_end:end], self_closing))
            i = end + 1
            continue
        i = j + 1
    return tags


def _literal(text: str, i: int, word: str) -> int:
    """End of ``word`` at ``i`` (ASCII case and width folded) followed by a tag boundary, or -1."""
    for letter in word:
        if i >= len(text) or ascii_at(text, i).lower() != letter:
            return -1
        i += 1
    if i < len(text) and text[i] not in " \t\n\r>/" and ascii_at(text, i) != ">":
        return -1
    return i


def _tag_end(text: str, i: int) -> int:
    return Window(text, i, True, limit=len(text)).tag_end(i, stop_at_lt=False)


def _self_closing(text: str, end: int) -> bool:
    k = end - 1
    while k >= 0 and text[k] in GO_SPACE:
        k -= 1
    return k >= 0 and text[k] == "/"
