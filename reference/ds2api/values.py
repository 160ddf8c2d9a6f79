"""Parameter values: from the text of a ``<parameter>`` body to a JSON value (seed 003 §3-4).

A value that is a JSON literal becomes typed (``123``, ``true``, ``[1,2]``); a body made of
``<item>`` children becomes an array and other child elements an object; a CDATA body is kept
verbatim unless it holds a JSON literal or a clearly structured XML fragment, and never
becomes structure for the raw-text fields (``content``, ``command``, ``path``, …). The rules
and their order follow ds2api's Go implementation (research notes §3.7, §3.9, §3.10),
including its repairs of loose JSON lists, unquoted keys and Windows backslashes.
"""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any
from xml.parsers import expat

from .chars import go_trim
from .sections import CLOSER_LENGTH, find_cdata_end
from .shell import cdata_open_end

#: Parameters whose CDATA text is never turned into structure.
RAW_TEXT_FIELDS = frozenset(
    {
        *("content", "file_content", "text", "prompt", "query", "command", "cmd"),
        *("script", "code", "old_string", "new_string", "pattern", "path", "file_path"),
    }
)

_JSON_LITERAL_START = frozenset('{["-0123456789tfn')
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE | re.ASCII)
_UNQUOTED_KEY = re.compile(r"([{,]\s*)([a-zA-Z_][a-zA-Z0-9_]*)\s*:", re.ASCII)
_OBJECT = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_MISSING_BRACKETS = re.compile(rf"(:\s*)({_OBJECT}(?:\s*,\s*{_OBJECT})+)", re.ASCII)
_MARKUP_PAIR = re.compile(
    r"<(?:[a-z0-9_:-]+:)?([a-z0-9_\-.]+)\b[^>]*>(.*?)</(?:[a-z0-9_:-]+:)?([a-z0-9_\-.]+)>",
    re.IGNORECASE | re.DOTALL | re.ASCII,
)
_CLOSING_TAG = re.compile(r"</(?:[a-z0-9_:-]+:)?[a-z0-9_\-.]+>", re.IGNORECASE | re.ASCII)
_MISSING = object()


# ---------------------------------------------------------------- JSON as Go decodes it


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _go_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(text)
    return value


def _go_int(text: str) -> int | float:
    value = int(text)
    return value if abs(value) < 2**53 else _go_float(text)


_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant, parse_float=_go_float, parse_int=_go_int
)


def json_value(text: str) -> Any:
    """The JSON value of ``text`` or ``_MISSING`` (no NaN/Infinity, overflow is an error)."""
    try:
        value, end = _DECODER.raw_decode(text, _skip_json_space(text, 0))
    except (ValueError, RecursionError):
        return _MISSING
    return value if _skip_json_space(text, end) == len(text) else _MISSING


def _skip_json_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


def json_literal(raw: str) -> Any:
    """A trimmed value that is a JSON literal (``123``, ``"x"``, ``{…}``), or ``_MISSING``."""
    trimmed = go_trim(raw)
    if not trimmed or trimmed[0] not in _JSON_LITERAL_START:
        return _MISSING
    return json_value(trimmed)


# ---------------------------------------------------------------- XML fragments


def _xml_events(fragment: str) -> tuple[list[tuple[str, str]], bool]:
    """Start / end / text events of ``<root>fragment</root>``; ``False`` on a syntax error.

    Text runs are split at CDATA boundaries, like the tokens of Go's ``encoding/xml``.
    """
    parser = expat.ParserCreate()
    events: list[tuple[str, str]] = []
    pieces: list[str] = []

    def flush(*_: object) -> None:
        if pieces:
            events.append(("text", "".join(pieces)))
            pieces.clear()

    def start(name: str, _attributes: object) -> None:
        flush()
        events.append(("start", _local_name(name)))

    def end(name: str) -> None:
        flush()
        events.append(("end", _local_name(name)))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = pieces.append
    parser.StartCdataSectionHandler = flush
    parser.EndCdataSectionHandler = flush
    try:
        parser.Parse(f"<root>{fragment}</root>", True)
    except expat.ExpatError:
        flush()
        return events, False
    flush()
    return events, True


def _local_name(name: str) -> str:
    prefix, colon, local = name.partition(":")
    return local if colon and prefix and local else name


def xml_fragment_value(fragment: str) -> Any:
    """The JSON shape of an XML fragment (ds2api ``parseXMLFragmentValue``) or ``_MISSING``.

    Repeated children become arrays, a leaf's text becomes a JSON literal when it is one,
    and a node whose only children are ``<item>`` becomes an array.
    """
    trimmed = go_trim(fragment)
    if not trimmed:
        return ""
    events, ok = _xml_events(trimmed)
    if not ok:
        return _MISSING
    try:
        value, _ = _node_value(events, 1)
    except RecursionError:
        return _MISSING  # nested deeper than Python's stack: not a parameter value
    return value


def _node_value(events: list[tuple[str, str]], i: int) -> tuple[Any, int]:
    children: dict[str, Any] = {}
    text: list[str] = []
    has_child = False
    while True:
        kind, payload = events[i]
        i += 1
        if kind == "text":
            if not (has_child and not go_trim(payload)):
                text.append(payload)
        elif kind == "start":
            if not has_child and not go_trim("".join(text)):
                text = []
            has_child = True
            child, i = _node_value(events, i)
            _append(children, payload, child)
        else:
            joined = "".join(text)
            if not children:
                literal = json_literal(joined)
                return (joined if literal is _MISSING else literal), i
            if go_trim(joined):
                literal = json_literal(joined)
                children["_text"] = joined if literal is _MISSING else literal
            if len(children) == 1 and "item" in children:
                items = children["item"]
                return (items if isinstance(items, list) else [items]), i
            return children, i


def _append(target: dict[str, Any], key: str, value: Any) -> None:
    """A repeated key collects its values in an array (ds2api ``appendMarkupValue``)."""
    if not key:
        return
    if key not in target:
        target[key] = value
    elif isinstance(target[key], list):
        target[key].append(value)
    else:
        target[key] = [target[key], value]


def _looks_structured(fragment: str) -> bool:
    """Several top-level elements, an ``<item>``, or nested children: not inline markup."""
    events, _ = _xml_events(go_trim(fragment))
    depth = 0
    top_level = 0
    first_name = ""
    nested = False
    for kind, payload in events[1:]:
        if kind == "start":
            if depth == 0:
                top_level += 1
                if top_level > 1:
                    return True
                first_name = payload.lower()
            elif top_level == 1 and depth == 1:
                nested = True
            depth += 1
        elif kind == "end":
            if payload.lower() == "root":
                return top_level == 1 and (first_name == "item" or nested)
            depth = max(depth - 1, 0)
    return False


# ---------------------------------------------------------------- repairs


def _repair_backslashes(text: str) -> str:
    """Double backslashes that do not start a JSON escape (Windows paths)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        following = text[i + 1] if i + 1 < len(text) else ""
        if following and following in '"\\/bfnrt':
            out.append(ch + following)
            i += 2
            continue
        if following == "u" and i + 5 < len(text) and _is_hex(text[i + 2 : i + 6]):
            out.append(text[i : i + 6])
            i += 6
            continue
        out.append("\\\\")
        i += 1
    return "".join(out)


def _is_hex(text: str) -> bool:
    return len(text) == 4 and all(ch in "0123456789abcdefABCDEF" for ch in text)


def _repair_loose_json(text: str) -> str:
    """Quote bare keys; bracket a bare list of objects after a colon."""
    text = go_trim(text)
    if not text:
        return text
    text = _UNQUOTED_KEY.sub(r'\1"\2":', text)
    return _MISSING_BRACKETS.sub(r"\1[\2]", text)


def _escape_path_controls(value: dict[str, Any]) -> None:
    """Re-escape control characters that JSON decoding put into path-like strings."""
    for key, item in value.items():
        if isinstance(item, dict):
            _escape_path_controls(item)
        elif isinstance(item, list):
            for element in item:
                if isinstance(element, dict):
                    _escape_path_controls(element)
        elif isinstance(item, str):
            lowered = go_trim(key).lower()
            if ("path" in lowered or "file" in lowered) and any(_is_control(c) for c in item):
                value[key] = item.translate(_CONTROL_ESCAPES)


_CONTROL_ESCAPES = str.maketrans({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _is_control(ch: str) -> bool:
    return ch < " " or "\x7f" <= ch <= "\x9f"


def _object_from_text(raw: str) -> dict[str, Any]:
    """ds2api ``parseToolCallInput`` on a string: a JSON object, repaired if need be."""
    text = go_trim(html.unescape(raw))
    if not text:
        return {}
    for candidate in (text, _repair_backslashes(text), _repair_loose_json(text)):
        value = json_value(candidate)
        if isinstance(value, dict):
            _escape_path_controls(value)
            return value
    return {"_raw": text}


# ---------------------------------------------------------------- markup objects


def _structured_input(raw: str) -> dict[str, Any]:
    """ds2api ``parseStructuredToolCallInput``: markup or JSON text to an object."""
    trimmed = go_trim(raw)
    if not trimmed:
        return {}
    if trimmed.startswith("<"):
        value = xml_fragment_value(trimmed)
        if isinstance(value, dict):
            return value
        if isinstance(value, str):
            text = go_trim(value)
            if not text:
                return {}
            parsed = _object_from_text(text)
            raw = parsed.get("_raw")
            only_raw = len(parsed) == 1 and isinstance(raw, str) and go_trim(raw) == text
            if parsed and not only_raw:
                return parsed
            return {"_raw": value}
    pairs = _markup_pairs(trimmed)
    if pairs:
        return pairs
    parsed = _object_from_text(trimmed)
    if parsed:
        return parsed
    return {"_raw": html.unescape(trimmed)}


def _markup_pairs(text: str) -> dict[str, Any]:
    """``<key>value</key>`` pairs (ds2api ``parseMarkupKVObject``)."""
    text = go_trim(text)
    out: dict[str, Any] = {}
    # A pair ends with a closing tag: searching beyond the last one could only fail, and a
    # backtracking engine (unlike Go's) would pay for each failure with a scan to the end.
    end = max((match.end() for match in _CLOSING_TAG.finditer(text)), default=0)
    for match in _MARKUP_PAIR.finditer(text, 0, end):
        key, inner, end_key = go_trim(match.group(1)), match.group(2), go_trim(match.group(3))
        if key and key.lower() == end_key.lower():
            value = _markup_value(inner)
            if value is not None:
                _append(out, key, value)
    return out


def _markup_value(inner: str) -> Any:
    cdata = standalone_cdata(inner)
    if cdata is not None:
        return cdata
    value = go_trim(_raw_tag_value(inner))
    if not value:
        return ""
    if "<" in value and ">" in value:
        parsed = _structured_input(value)
        if parsed:
            if len(parsed) == 1 and isinstance(parsed.get("_raw"), str):
                return parsed["_raw"]
            return parsed
    decoded = json_value(value)
    return value if decoded is _MISSING else decoded


def _raw_tag_value(inner: str) -> str:
    if not go_trim(inner):
        return ""
    cdata = standalone_cdata(inner)
    return cdata if cdata is not None else html.unescape(inner)


def standalone_cdata(inner: str) -> str | None:
    """The content of a body that starts with a CDATA section, or ``None``."""
    trimmed = go_trim(inner)
    if not trimmed:
        return None
    content = cdata_open_end(trimmed, 0, True)
    if content < 0:
        return None
    if trimmed.endswith(("]]>", "]]＞", "]]〉")) and len(trimmed) - CLOSER_LENGTH >= content:
        return trimmed[content : len(trimmed) - CLOSER_LENGTH]
    end = find_cdata_end(trimmed, content)
    return trimmed[content:end] if end >= 0 else trimmed[content:]


# ---------------------------------------------------------------- arrays


def _as_array(value: Any, name: str) -> list[Any] | None:
    """``{"item": …}`` and ``{name: [...]}`` are arrays in disguise (``coerceArrayValue``)."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and len(value) == 1:
        if "item" in value:
            items = value["item"]
            array = _as_array(items, "")
            return [items] if array is None else array
        if name and name in value:
            return _as_array(value[name], "")
    return None


def _loose_array(raw: str, name: str) -> list[Any] | None:
    """``"a", "b"`` (and other comma-separated JSON values) as an array."""
    if go_trim(name).lower() in RAW_TEXT_FIELDS:
        return None
    trimmed = go_trim(html.unescape(raw))
    if not trimmed:
        return None
    whole = _loose_element(trimmed)
    if whole is not _MISSING:
        array = _as_array(whole, name)
        if array is not None:
            return array
    segments = _split_top_level(trimmed)
    if segments is None:
        return None
    out = []
    for segment in segments:
        element = _loose_element(segment)
        if element is _MISSING:
            return None
        out.append(element)
    return out


def _loose_element(raw: str) -> Any:
    trimmed = go_trim(html.unescape(raw))
    if not trimmed:
        return _MISSING
    for candidate in (trimmed, _repair_backslashes(trimmed), _repair_loose_json(trimmed)):
        value = json_value(candidate)
        if value is not _MISSING:
            return value
    if "<" in trimmed and ">" in trimmed:
        return xml_fragment_value(trimmed)
    return _MISSING


def _split_top_level(text: str) -> list[str] | None:
    values: list[str] = []
    start = depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth = max(depth - 1, 0)
        elif ch == "," and depth == 0:
            segment = go_trim(text[start:i])
            if not segment:
                return None
            values.append(segment)
            start = i + 1
    last = go_trim(text[start:])
    if not last:
        return None
    values.append(last)
    return values if len(values) > 1 else None


# ---------------------------------------------------------------- parameter bodies


def parameter_value(name: str, body: str) -> Any:
    """The JSON value of one ``<parameter name=…>`` body (ds2api ``parseInvokeParameterValue``)."""
    trimmed = go_trim(body)
    if not trimmed:
        return ""
    cdata = standalone_cdata(trimmed)
    if cdata is not None:
        return _cdata_value(name, cdata)
    decoded = html.unescape(_raw_tag_value(trimmed))
    if "<" in decoded and ">" in decoded:
        value = _markup_parameter(name, decoded)
        if value is not _MISSING:
            return value
    literal = json_literal(decoded)
    if literal is not _MISSING:
        array = _as_array(literal, name)
        return literal if array is None else array
    array = _loose_array(decoded, name)
    return decoded if array is None else array


def _cdata_value(name: str, cdata: str) -> Any:
    literal = json_literal(cdata)
    if literal is not _MISSING:
        array = _as_array(literal, name)
        return literal if array is None else array
    if go_trim(name).lower() not in RAW_TEXT_FIELDS:
        normalized = html.unescape(go_trim(_BR.sub("\n", cdata)))
        if "<" in normalized and ">" in normalized and _looks_structured(normalized):
            value = xml_fragment_value(normalized)
            if isinstance(value, list) or (isinstance(value, dict) and value):
                return value
    array = _loose_array(cdata, name)
    return cdata if array is None else array


def _markup_parameter(name: str, decoded: str) -> Any:
    value = xml_fragment_value(decoded)
    if value is not _MISSING:
        if isinstance(value, dict):
            if value:
                array = _as_array(value, name)
                return value if array is None else array
        elif isinstance(value, str):
            text = go_trim(value)
            if not text:
                return ""
            literal = json_literal(text)
            if literal is not _MISSING:
                array = _as_array(literal, name)
                return literal if array is None else array
            array = _loose_array(text, name)
            return value if array is None else array
        else:
            return value
    parsed = _structured_input(decoded)
    if not parsed:
        return _MISSING
    if len(parsed) == 1 and isinstance(parsed.get("_raw"), str):
        array = _loose_array(parsed["_raw"], name)
        return parsed["_raw"] if array is None else array
    array = _as_array(parsed, name)
    return parsed if array is None else array


def append_value(target: dict[str, Any], key: str, value: Any) -> None:
    """Add one parameter; a repeated name collects its values in an array."""
    _append(target, key, value)
