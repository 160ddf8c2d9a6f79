"""``toolconform parse``: parse one model output, with the reference parser or any adapter.

This is how a person debugs one output: which content, reasoning and calls the oracle sees
and, with ``--events``, what it streams chunk by chunk. With ``--adapter SPEC`` the same
chunks go through any parser the harness can drive (a built-in engine, ``module:factory``,
``cmd:PROGRAM`` speaking the protocol): its result is printed, its normalized events per
chunk with ``--events``, and how it differs from the reference's result (exit status 1 when
it does). A failure's minimal chunking from a report replays with ``--chunks FILE``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from typing import Any

from ...reference import Request, get_dialect
from ...reference.transport import ChatRunner, EngineChunk
from ...reference.types import DeltaMessage, FinalResult
from ...strategies.chunking import fixed_size, tag_aligned_boundaries
from ..adapters import AdapterCrash, AdapterError, SessionSkipped, load_adapter
from ..chunkings import Family
from ..errors import UsageError
from ..events import AdapterOutputError, coalesce
from ..inputs import read_chunks, read_text, read_tools


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="parse one model output with the reference parser, or replay it through an adapter",
        description=(
            "Parse a model output with the reference parser of one dialect and print the "
            "result as one JSON object: content, reasoning_content, tool_calls and "
            "finish_reason (and the per-chunk stream with --events). With --adapter the "
            "chunks go through that parser instead; its result is printed and compared with "
            "the reference's (exit status 1 when they differ)."
        ),
    )
    parser.add_argument(
        "--dialect", required=True, help="dialect name (see 'toolconform dialects')"
    )
    parser.add_argument(
        "--adapter",
        metavar="SPEC",
        help="replay through this parser: a built-in name, module:callable or cmd:COMMAND",
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
    parser.add_argument(
        "--events",
        action="store_true",
        help="also print each chunk's deltas (the reference) or normalized events (--adapter)",
    )
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

    reference = _reference(dialect, request, chunks)
    if not args.adapter:
        if not args.events:
            del reference["events"]
        sys.stdout.write(_as_json(reference) + "\n")
        return 0
    try:
        result = _replay(args.adapter, args.dialect, request.to_openai(), chunks)
    except ReplayFailed as failure:
        print(f"toolconform: {failure}", file=sys.stderr)
        return 1
    if not args.events:
        del result["events"]
    sys.stdout.write(_as_json(result) + "\n")
    difference = _difference(reference, result, args.adapter)
    if difference:
        sys.stderr.write(f"the result differs from the reference parser's:\n{difference}")
        return 1
    print("the same result as the reference parser", file=sys.stderr)
    return 0


class ReplayFailed(Exception):
    """The parser under test raised, crashed or broke the contract on this output."""


def _reference(dialect: Any, request: Request, chunks: list[str]) -> dict[str, Any]:
    """The reference's result, and the OpenAI deltas of each chunk under ``events``."""
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
    return _output(FinalResult.from_deltas(messages), finish_reason, events)


def _replay(spec: str, dialect: str, body: dict[str, Any], chunks: list[str]) -> dict[str, Any]:
    """The adapter's result for ``chunks``, and its normalized events per chunk."""
    try:
        adapter = load_adapter(spec)
    except AdapterError as error:
        raise UsageError(str(error)) from None
    try:
        if not adapter.supports(dialect):
            raise UsageError(f"adapter {spec!r} does not support dialect {dialect!r}")
        steps: list[dict[str, Any]] = []
        try:
            session = adapter.open(dialect, body)
            for text in chunks:
                steps.append({"chunk": text, "events": session.feed(text)})
            steps.append({"finish": True, "events": session.finish()})
        except SessionSkipped as error:
            raise UsageError(f"adapter {spec!r} skips this request: {error}") from None
        except (AdapterCrash, AdapterOutputError) as error:
            raise ReplayFailed(f"adapter {spec!r} failed: {error}") from None
        except Exception as error:  # the parser's own exception is what is being debugged
            at = f" at chunk {len(steps)}" if len(steps) < len(chunks) else " at the end"
            raise ReplayFailed(
                f"adapter {spec!r} raised {type(error).__name__}{at}: {error}"
            ) from None
    finally:
        adapter.close()
    final = coalesce([step["events"] for step in steps])
    for step in steps:
        step["events"] = [event.to_json() for event in step["events"]]
    return _output(final, "tool_calls" if final.calls else "stop", steps)


def _output(final: FinalResult, finish_reason: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``parse`` prints: the result in the OpenAI message's words, and the events."""
    return {
        "content": final.content,
        "reasoning_content": final.reasoning,
        "tool_calls": [call.to_json() for call in final.calls],
        "finish_reason": finish_reason,
        "events": events,
    }


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    """What the contract compares: text, and calls by name and arguments as JSON values."""
    calls = []
    for call in result["tool_calls"]:
        try:
            arguments = json.loads(call["arguments"] or "{}")
        except ValueError:
            arguments = call["arguments"]
        calls.append({"name": call["name"], "arguments": arguments})
    return {
        "content": result["content"] or "",
        "reasoning_content": result["reasoning_content"] or "",
        "tool_calls": calls,
    }


def _difference(reference: dict[str, Any], result: dict[str, Any], spec: str) -> str:
    """A unified diff, reference → adapter, of what the contract compares; empty if equal."""
    theirs, mine = _comparable(reference), _comparable(result)
    if theirs == mine:
        return ""
    diff = difflib.unified_diff(
        _as_json(theirs).splitlines(keepends=True),
        _as_json(mine).splitlines(keepends=True),
        fromfile="reference",
        tofile=spec,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in diff)


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
    if spec == Family.WHOLE:
        return [text]
    kind, _, size_text = spec.partition(":")
    if kind in (Family.CHARS, Family.ALIGNED) and size_text.isdigit() and int(size_text) > 0:
        size = int(size_text)
        allowed = tag_aligned_boundaries(text, protocol_tags)
        if kind == Family.ALIGNED:
            return fixed_size(text, size, allowed)
        chunks = fixed_size(text, size)
        _warn_cut_tags(text, chunks, set(allowed), protocol_tags, size)
        return chunks
    raise UsageError(
        f"--chunking {spec!r} is not understood; use 'whole', 'chars:N' or 'aligned:N' with N ≥ 1"
    )


def _warn_cut_tags(
    text: str,
    chunks: list[str],
    allowed: set[int],
    protocol_tags: dict[str, tuple[str, ...]],
    size: int,
) -> None:
    """Say so when character chunks cut a tag where no tokenizer cuts it: the reference
    then reads that tag as text (seed 000 lets a parser assume token-aligned tags)."""
    cuts, position = [], 0
    for chunk in chunks[:-1]:
        position += len(chunk)
        if position not in allowed:
            cuts.append(position)
    if not cuts:
        return
    tags = sorted(
        {
            tag
            for tag in protocol_tags
            for cut in cuts
            if any(
                start < cut < start + len(tag)
                for start in _occurrences(text, tag, cut - len(tag), cut)
            )
        }
    )
    print(
        f"toolconform: note: --chunking chars:{size} cuts inside protocol tags {len(cuts)} time(s) "
        f"({', '.join(map(repr, tags))}) where no tokenizer cuts them; the reference parser "
        "then treats a cut single-token tag as text (seed 000: parsers may assume tags arrive "
        f"at token boundaries). Use --chunking aligned:{size} to keep tags whole, or cut at a "
        "real tokenizer's boundaries: toolconform tokenizers split --family FAMILY INPUT > "
        "chunks.json, then --chunks chunks.json.",
        file=sys.stderr,
    )


def _occurrences(text: str, tag: str, start: int, end: int) -> list[int]:
    """Where ``tag`` starts in ``text`` between ``start`` and ``end``."""
    found, index = [], text.find(tag, max(0, start))
    while 0 <= index <= end:
        found.append(index)
        index = text.find(tag, index + 1)
    return found
