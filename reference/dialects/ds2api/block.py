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
from dataclasses import replace
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
    """``(attributes, body)`` of each depth-matched ``<name …>…</name>`` outside CDATA."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        found = _start_tag(text, name, pos)
        if found is None:
            break
        body_start, attributes = found
        close = _matching_end(text, name, body_start)
        if close is None:
            pos = body_start
            continue
        close_start, close_end = close
        blocks.append((attributes, text[body_start:close_start]))
        pos = close_end
    return blocks


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


def _start_tag(text: str, name: str, i: int) -> tuple[int, str] | None:
    while (match := _TAG_START.search(text, i)) is not None:
        j = match.start()
        after = skip_opaque(text, j)
        if after < 0:
            return None
        if after > j:
            i = after
            continue
        name_end = _literal(text, j, "<" + name)
        if name_end >= 0:
            end = _tag_end(text, name_end)
            return None if end < 0 else (end + 1, text[name_end:end])
        i = j + 1
    return None


def _matching_end(text: str, name: str, i: int) -> tuple[int, int] | None:
    depth = 1
    while (match := _TAG_START.search(text, i)) is not None:
        j = match.start()
        after = skip_opaque(text, j)
        if after < 0:
            return None
        if after > j:
            i = after
            continue
        for closing, word in ((True, "</" + name), (False, "<" + name)):
            name_end = _literal(text, j, word)
            if name_end < 0:
                continue
            end = _tag_end(text, name_end)
            if end < 0:
                return None
            if closing:
                depth -= 1
                if depth == 0:
                    return j, end + 1
            elif not _self_closing(text, end):
                depth += 1
            i = end + 1
            break
        else:
            i = j + 1
    return None


def _self_closing(text: str, end: int) -> bool:
    k = end - 1
    while k >= 0 and text[k] in GO_SPACE:
        k -= 1
    return k >= 0 and text[k] == "/"
