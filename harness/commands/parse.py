"""``toolconform parse``: parse one model output with the reference parser and show it.

This is how a person debugs one output: which content, reasoning and calls the oracle sees,
and, with ``--events``, what it streams chunk by chunk.
"""

from __future__ import annotations

import argparse
import json
import sys

from ...reference import Request, get_dialect
from ...reference.runner import ChatRunner, EngineChunk
from ...reference.types import DeltaMessage, ParsedResponse
from ...strategies.chunking import fixed_size, tag_aligned_boundaries
from ..errors import UsageError
from ..inputs import read_chunks, read_text, read_tools


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="parse one model output with the reference parser",
        description=(
            "Parse a model output with the reference parser of one dialect and print the "
            "result as one JSON object: content, reasoning_content, tool_calls and "
            "finish_reason (and the per-chunk stream with --events)."
        ),
    )
    parser.add_argument(
        "--dialect", required=True, help="dialect name (see 'toolconform dialects')"
    )
    parser.add_argument(
        "--tools",
        metavar="FILE",
        help="JSON list of OpenAI tool objects; without it no name is filtered",
    )
    parser.add_argument(
        "--thinking",
        choices=("on", "off"),
        help="the request's thinking flag (default: not set, the dialect's default applies)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--chunks", metavar="FILE", help="JSON list of strings: the engine chunks (replaces INPUT)"
    )
    source.add_argument(
        "--chunking",
        default="whole",
        metavar="SPEC",
        help=(
            "how to cut INPUT into chunks: 'whole' (default), 'chars:N' (every N characters, "
            "tags may be cut anywhere) or 'aligned:N' (about N characters, tags cut only where "
            "a tokenizer can cut them)"
        ),
    )
    parser.add_argument("--events", action="store_true", help="also print the deltas of each chunk")
    parser.add_argument(
        "input", nargs="?", default="-", metavar="INPUT", help="model output file, or - for stdin"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        dialect = get_dialect(args.dialect)
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    tools = read_tools(args.tools) if args.tools else None
    thinking = {"on": True, "off": False}.get(args.thinking)
    request = Request(tools=tools, thinking=thinking)
    if args.chunks:
        chunks = read_chunks(args.chunks)
    else:
        chunks = _cut(read_text(args.input), args.chunking, dialect.protocol_tags())

    runner = ChatRunner(dialect.new_parser(request))
    messages: list[DeltaMessage] = []
    events = []
    finish_reason = "stop"
    for position, text in enumerate(chunks):
        last = position == len(chunks) - 1
        deltas = runner.feed(EngineChunk(text, finish_reason="stop" if last else None))
        messages.extend(delta.message for delta in deltas)
        if last and deltas:
            finish_reason = deltas[-1].finish_reason or finish_reason
        events.append({"chunk": text, "deltas": [d.message.to_openai() for d in deltas]})
    if not chunks:
        finish_reason = runner.finish_reason("stop") or "stop"

    output = ParsedResponse.from_deltas(messages).to_json()
    output["finish_reason"] = finish_reason
    if args.events:
        output["events"] = events
    sys.stdout.write(_as_json(output) + "\n")
    return 0


def _as_json(output: dict) -> str:
    """The result as readable JSON; escaped throughout when it holds a lone surrogate (a name
    or text the output spelt ``"\\ud83d"``), which has no UTF-8 form to print."""
    text = json.dumps(output, ensure_ascii=False, indent=2)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(output, indent=2)
    return text


def _cut(text: str, spec: str, protocol_tags: dict[str, tuple[str, ...]]) -> list[str]:
    if spec == "whole":
        return [text]
    kind, _, size_text = spec.partition(":")
    if kind in ("chars", "aligned") and size_text.isdigit() and int(size_text) > 0:
        size = int(size_text)
        if kind == "chars":
            return fixed_size(text, size)
        return fixed_size(text, size, tag_aligned_boundaries(text, protocol_tags))
    raise UsageError(
        f"--chunking {spec!r} is not understood; use 'whole', 'chars:N' or 'aligned:N' with N ≥ 1"
    )
