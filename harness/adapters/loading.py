"""Resolving ``--adapter SPEC`` into an ``Adapter``.

``SPEC`` is a built-in name (``reference`` and the engine adapters), ``module:callable`` for
any importable factory, or ``cmd:COMMAND`` for a program that speaks the JSON-lines
protocol. Every way it can fail becomes an ``AdapterError`` with one line saying why.
"""

from __future__ import annotations

import importlib

from ..engines import ENGINE_ADAPTERS
from .base import Adapter, AdapterError

#: Built-in adapters: name → "module:callable" of their factory.
BUILTIN = {
    "reference": "toolconform.harness.adapters.reference:reference_factory",
    "noop": "toolconform.harness.adapters.noop:noop_factory",
    **ENGINE_ADAPTERS,
}


def load_adapter(spec: str) -> Adapter:
    """The adapter named by ``spec``."""
    if spec.startswith("cmd:"):
        from .subprocess import start_subprocess_adapter

        command = spec[len("cmd:") :].strip()
        if not command:
            raise AdapterError("adapter 'cmd:' needs a command, e.g. cmd:'node adapter.mjs'")
        return start_subprocess_adapter(spec, command)
    target = BUILTIN.get(spec, spec)
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        known = ", ".join(sorted(BUILTIN))
        raise AdapterError(
            f"unknown adapter {spec!r}: use a built-in name ({known}), module:callable, "
            "or cmd:COMMAND"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise AdapterError(f"cannot import adapter module {module_name!r}: {error}") from None
    except Exception as error:  # a broken module: report its own error, not a traceback
        raise AdapterError(
            f"importing adapter module {module_name!r} failed: {type(error).__name__}: {error}"
        ) from None
    factory = getattr(module, attribute, None)
    if factory is None:
        raise AdapterError(f"module {module_name!r} has no attribute {attribute!r}")
    if not callable(factory):
        raise AdapterError(f"{target} is not callable (it should be a session factory)")
    load = getattr(factory, "load", None)
    if callable(load):  # engines import lazily: fail here, in one line, if one is missing
        try:
            load()
        except ImportError as error:
            raise AdapterError(str(error)) from None
    return Adapter.from_factory(spec, factory)
