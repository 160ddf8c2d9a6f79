"""MiniCPM-4/5: ``<function name="…"><param name="…">…</param></function>`` per call.

``render("minicpm5", Response(calls=(Call("f", {"a": 1}),)))`` →
``'<function name="f"><param name="a">1</param></function>'``.

Calls are written one after the other, a newline between them; values are typed by the
tool's schema (``typed_values``) and written inline, except that a value holding markup
(any ``<``) is wrapped in a CDATA section, which carries it verbatim: only ``]]>`` cannot
be carried there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..responses import Call, Response
from . import CALLS, CONTENT_TAIL, MULTIPLE_CALLS, Renderer, register
from .typed_values import fit_typed_call, value_text


def _param(key: str, value: Any) -> str:
    text = value_text(value)
    if "<" in text:
        text = f"<![CDATA[{text}]]>"
    return f'<param name="{key}">{text}</param>'


class MiniCPM5Renderer(Renderer):
    dialect = "minicpm5"
    layout = 'content, `<function name="…"><param name="…">…</param></function>` per call'
    grammar = "xml"
    supports = frozenset({CALLS, MULTIPLE_CALLS, CONTENT_TAIL})

    def block(self, calls: Sequence[Call], variant: str | None = None) -> str:
        return "\n".join(
            f'<function name="{call.name}">'
            + "".join(_param(key, value) for key, value in call.arguments.items())
            + "</function>"
            for call in calls
        )

    def render(self, response: Response, variant: str | None = None) -> str:
        return response.content + self.block(response.calls) + response.content_tail

    def fit_call(self, call: Call, parameters: Mapping[str, Any] | None) -> Call | None:
        # Every value with markup is in CDATA, where nothing but "]]>" ends it.
        return fit_typed_call(call, parameters, value_end_tags=("]]>",))


register(MiniCPM5Renderer())
