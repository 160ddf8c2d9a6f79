"""The reference parser: the suite's oracle and its performance yardstick.

Pure standard library. ``get_dialect(name).new_parser(request)`` gives a fresh streaming
parser for one response; ``stream_chunk`` routes each engine chunk and ``parse_complete`` is
the same machine fed the whole text at once.
"""

from .json_scanner import JsonValueScanner
from .reasoning import ReasoningParser, ThinkingFlagReasoningParser
from .registry import Dialect, dialect_names, get_dialect, register
from .response_parser import ResponseParser
from .tool_parser import ToolParser
from .types import DeltaMessage, DeltaToolCall, FinalResult, Request, ToolCall, build_tool_calls

__all__ = [
    "DeltaMessage",
    "DeltaToolCall",
    "Dialect",
    "FinalResult",
    "JsonValueScanner",
    "ReasoningParser",
    "Request",
    "ResponseParser",
    "ThinkingFlagReasoningParser",
    "ToolCall",
    "ToolParser",
    "build_tool_calls",
    "dialect_names",
    "get_dialect",
    "register",
]
