"""Adapters: how the harness drives a parser under test.

An adapter turns ``--adapter SPEC`` into sessions that take engine chunks and return what
the engine would stream. Built-in: ``reference`` (the oracle); any Python factory as
``module:callable``; any program speaking the JSON-lines protocol as ``cmd:COMMAND``. For
certification every parser runs in a program of its own (a Python factory in the adapter
host): ``load_adapter``. ``load_in_process`` is for benchmarks and the fuzzer.
"""

from .base import Adapter, AdapterCrash, AdapterError, Session, SessionSkipped
from .loading import load_adapter, load_in_process

__all__ = [
    "Adapter",
    "AdapterCrash",
    "AdapterError",
    "Session",
    "SessionSkipped",
    "load_adapter",
    "load_in_process",
]
