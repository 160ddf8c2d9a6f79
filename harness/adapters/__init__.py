"""Adapters: how the harness drives a parser under test.

An adapter turns ``--adapter SPEC`` into sessions that take engine chunks and return what
the engine would stream. Built-in: ``reference`` (the oracle); any in-process factory as
``module:callable``; any program speaking the JSON-lines protocol as ``cmd:COMMAND``.
"""

from .base import Adapter, AdapterCrash, AdapterError, Session, SessionSkipped
from .loading import load_adapter

__all__ = ["Adapter", "AdapterCrash", "AdapterError", "Session", "SessionSkipped", "load_adapter"]
