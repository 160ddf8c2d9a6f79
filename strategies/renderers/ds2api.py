"""ds2api: the DSML shell it asks DeepSeek to write, string values in CDATA.

``render("ds2api", Response(calls=(Call("f", {"a": "x"}),)))`` →
``'<|DSML|tool_calls>\\n  <|DSML|invoke name="f">\\n    <|DSML|parameter name="a">
<![CDATA[x]]></|DSML|parameter>\\n  </|DSML|invoke>\\n</|DSML|tool_calls>'``.

The layout is the one ds2api's documentation recommends (seed 003 §1): one wrapper for all
the calls of a turn, indented invokes and parameters, string values in CDATA. The ``xml``
variant writes the same calls in the legacy wrapper ds2api still reads (``<tool_calls>``,
``<invoke>``, ``<parameter>``). Other values
are JSON, in CDATA too when their text holds ``<``, ``>`` or ``&`` (outside CDATA a body is
HTML-unescaped and read as markup when it looks like some). A value holding a code fence
(```` ``` ```` or ``~~~``) is not drawn: ds2api skips a CDATA closer inside a fence the
section opened, so the section would not end (as in ds2api's ``findToolCDATAEnd``).

ds2api types values on purpose (seed 003 §3-4, docs/ds2api.md "Values"): a JSON literal
becomes typed even in CDATA, comma-separated JSON values become an array, well-formed XML
becomes structure, ``{"item": …}`` an array, and integers pass through Go's float64. A value
is drawn only where none of that can apply; these rules are conservative and written from
the documentation, not taken from the reference.

Free text: ds2api reads tool tags with drift (any case, fullwidth and confusable letters,
arbitrary prefixes), so a tag-like look-alike in prose may be a real tag, and an unclosed
code span or fence before a block makes the block inert. The prose around blocks is
therefore drawn without tag starts (``<`` and its fullwidth and angle-bracket forms become
``‹``), backticks or tildes, and does not end in the zero-width or control noise that ds2api
folds into a following tag's shell; near-miss prose is the corpus's and the property
tests' job.
Calls to tools the request does not offer are returned (the dialect does not filter).
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any
from xml.parsers import expat

from ..responses import Call
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register

DSML_WRAPPER = "dsml"
XML_WRAPPER = "xml"
#: How each wrapper opens and closes its tags.
_TAG_STARTS = {DSML_WRAPPER: ("<|DSML|", "</|DSML|"), XML_WRAPPER: ("<", "</")}
#: Where a value's CDATA section ends (ds2api also reads the fullwidth forms).
_CDATA_CLOSERS = ("]]>", "]]＞", "]]〉")
#: First characters of a JSON literal, which ds2api types.
_JSON_START = frozenset('{["-0123456789tfn')
#: Characters that make a raw (non-CDATA) body read as markup or entities.
_MARKUP = frozenset("<>&")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
#: Prose characters that could begin a tag shell, an inline code span or a fence.
_PROSE_HAZARDS = str.maketrans({"<": "‹", "＜": "‹", "﹤": "‹", "〈": "‹", "`": "'", "~": "-"})
#: Go decodes JSON numbers as float64: integers beyond this lose precision.
_EXACT_INTEGERS = 2**53


def _value_body(value: Any) -> str:
    if isinstance(value, str):
        return f"<![CDATA[{value}]]>"
    text = json.dumps(value, ensure_ascii=False)
    return f"<![CDATA[{text}]]>" if _MARKUP & set(text) else text


def _invoke(call: Call, opening: str, closing: str) -> str:
    parameters = "".join(
        f'    {opening}parameter name="{key}">{_value_body(value)}{closing}parameter>\n'
        for key, value in call.arguments.items()
    )
    return f'  {opening}invoke name="{call.name}">\n{parameters}  {closing}invoke>\n'


class Ds2apiRenderer(Renderer):
    dialect = "ds2api"
    layout = (
        "content, one `<|DSML|tool_calls>` wrapper of indented invokes, strings in CDATA, "
        "other values as JSON"
    )
    grammar = "ds2api"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})
    variants = (DSML_WRAPPER, XML_WRAPPER)

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        """All the calls in one wrapper ("" for none)."""
        if not calls:
            return ""
        opening, closing = _TAG_STARTS[variant or DSML_WRAPPER]
        invokes = "".join(_invoke(call, opening, closing) for call in calls)
        return f"{opening}tool_calls>\n{invokes}{closing}tool_calls>"

    def fit_text(self, text: str) -> str:
        text = text.translate(_PROSE_HAZARDS)
        # Noise right before a tag belongs to the tag's shell: prose must not end in it.
        end = len(text)
        while end and _is_noise(text[end - 1]):
            end -= 1
        return text[:end]

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        carried = all(
            _string_carried(value) if isinstance(value, str) else _json_carried(key, value)
            for key, value in call.arguments.items()
        )
        return call if carried else None


def _is_noise(character: str) -> bool:
    """A format character or a control character that is not whitespace (``\u200b``,
    ``\ufeff``, ``\x02``): what ds2api skips inside a tag shell."""
    category = unicodedata.category(character)
    return category == "Cf" or (category == "Cc" and character not in "\t\n\v\f\r\x85")


def _string_carried(value: str) -> bool:
    """Whether ds2api reads this CDATA text back as the same string."""
    if "]]" in value or _has_fence(value):
        return False  # it would end the CDATA section early, or hide its end
    stripped = value.strip()
    if _is_json(stripped) or stripped[:1] in ('"', "[", "{"):
        return False  # a JSON literal (repairs included) would be typed
    unescaped = html.unescape(_BREAK.sub("\n", value)).strip()
    has_markup = "<" in unescaped and ">" in unescaped
    if "," in value and (stripped[:1] in _JSON_START or has_markup):
        return False  # a loose list of JSON values or fragments would become an array
    return not (has_markup and _well_formed_xml(unescaped))


def _json_carried(key: str, value: Any) -> bool:
    """Whether ds2api reads this JSON back as the same value."""
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("item", key):
        return False  # an array in disguise
    text = json.dumps(value, ensure_ascii=False)
    if any(closer in text for closer in _CDATA_CLOSERS) or _has_fence(text):
        return False
    return _exact_numbers(value)


def _has_fence(text: str) -> bool:
    """A code fence marker: ds2api skips a CDATA closer inside a fence the value opened
    (even on the fence's own line), so the section would not end."""
    return "```" in text or "~~~" in text


def _exact_numbers(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= _EXACT_INTEGERS
    if isinstance(value, list):
        return all(map(_exact_numbers, value))
    if isinstance(value, dict):
        return all(map(_exact_numbers, value.values()))
    return True


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _well_formed_xml(fragment: str) -> bool:
    parser = expat.ParserCreate()
    try:
        parser.Parse(f"<root>{fragment}</root>", True)
    except expat.ExpatError:
        return False
    return True


register(Ds2apiRenderer())
