"""Resolving ``--adapter SPEC`` into an ``Adapter``.

``SPEC`` is a built-in name (``reference``, ``noop`` and the engine adapters),
``module:callable`` for any importable factory, or ``cmd:COMMAND`` for a program that speaks
the JSON-lines protocol.

``load_adapter`` is what certification uses: the parser runs in a program of its own — the
``cmd:`` program, or for a Python factory the adapter host (``adapters.host``) — and this
process only ever sees JSON. ``load_in_process`` imports the factory here; only the host, the
throughput benchmarks and the fuzzer (which time or drive the parser call by call) use it.
Every way loading can fail becomes an ``AdapterError`` with one line saying why.
"""

from __future__ import annotations

import importlib
import os
import shlex
import sys

from ..engines import ENGINE_ADAPTERS
from .base import Adapter, AdapterError

#: Built-in adapters: name → "module:callable" of their factory.
BUILTIN = {
    "reference": "toolconform.harness.adapters.reference:reference_factory",
    "noop": "toolconform.harness.adapters.noop:noop_factory",
    **ENGINE_ADAPTERS,
}
#: The module that serves a Python factory over the protocol (``python -m HOST SPEC``).
HOST_MODULE = "toolconform.harness.adapters.host"


def check_spec(spec: str) -> None:
    """Fail early, in one line, on a spec that cannot name an adapter at all."""
    if spec.startswith("cmd:"):
        if not spec[len("cmd:") :].strip():
            raise AdapterError("adapter 'cmd:' needs a command, e.g. cmd:'node adapter.mjs'")
        return
    module_name, _, attribute = BUILTIN.get(spec, spec).partition(":")
    if not module_name or not attribute:
        known = ", ".join(sorted(BUILTIN))
        raise AdapterError(
            f"unknown adapter {spec!r}: use a built-in name ({known}), module:callable, "
            "or cmd:COMMAND"
        )


def program_argv(spec: str) -> list[str]:
    """The command line of the program that runs ``spec``'s parser."""
    check_spec(spec)
    if spec.startswith("cmd:"):
        try:
            return shlex.split(spec[len("cmd:") :])
        except ValueError as error:
            raise AdapterError(f"adapter {spec!r}: cannot split the command: {error}") from None
    return [sys.executable, "-m", HOST_MODULE, spec]


def load_adapter(spec: str, launch: object | None = None) -> Adapter:
    """The adapter named by ``spec``, its parser in a program of its own.

    ``launch`` (a ``subprocess.Launch``) says how the program is started: scratch
    directory, limits, sandbox. The program is started and greeted now; a program that
    cannot start or fails the handshake is an ``AdapterError``.
    """
    from .subprocess import Launch, start_program_adapter

    return start_program_adapter(spec, program_argv(spec), launch or Launch())


def load_in_process(spec: str) -> Adapter:
    """The adapter named by ``spec``, its factory imported into this process."""
    if spec.startswith("cmd:"):
        return load_adapter(spec)
    check_spec(spec)
    target = BUILTIN.get(spec, spec)
    module_name, _, attribute = target.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # ``mymodule:factory`` from the directory it is run in
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
