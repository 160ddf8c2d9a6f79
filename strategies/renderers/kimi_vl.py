"""Kimi's thinking models (``kimi_vl``): the model writes ``◁think▷`` … ``◁/think▷`` before
its answer (the template does not open it). No tool syntax in this dialect."""

from __future__ import annotations

from ..responses import Response
from . import REASONING, Renderer, register


class KimiVlRenderer(Renderer):
    dialect = "kimi_vl"
    layout = "`◁think▷…◁/think▷`, content"
    grammar = "reasoning"
    supports = frozenset({REASONING})

    def render(self, response: Response, variant: str | None = None) -> str:
        if response.reasoning is None:
            return response.content
        return "◁think▷" + response.reasoning + "◁/think▷" + response.content


register(KimiVlRenderer())
