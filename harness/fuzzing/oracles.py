"""What one fuzz execution must satisfy, besides not crashing.

Each oracle has a stable id; where it is the per-input form of a conformance check, it
keeps that check's id (``result.chunking-invariant`` …), so a finding reads the same in a
fuzz log, a triaged case and a certification report. A failed oracle raises ``Finding``:
atheris then records the input as a crash artifact, and triage replays it by id.

- ``run.no-error``: neither the complete parse nor the streamed run raises.
- ``result.complete-parse``: the whole text streamed in one chunk equals the complete parse.
- ``result.chunking-invariant``: the streamed result equals the complete parse under the
  input's token-aligned cuts (arbitrary cuts only have to run: seed 000 lets a parser
  assume token-aligned tags).
- ``fuzz.no-invented-text`` (seed 000): content and reasoning are subsequences of the text.
- ``fuzz.no-invented-call`` (seed 000): every call's name occurs in the text (literally,
  or spelled with JSON escapes).
- ``fuzz.no-half-swallow`` (seed 003, ``RELEASE`` families): an output that yields no call
  comes back whole as content; a malformed wrapper is never partly eaten.
- ``result.calls`` / ``text.no-protocol-leak``: an input of prose and well-formed blocks
  parses to exactly those calls, and no protocol tag reaches content or reasoning.
- ``perf.linear``: an input with a long repetition, re-decoded with every repetition count
  multiplied, costs at most a bounded multiple of the growth in length.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import unescape
from typing import Any

from .decoding import FuzzInput
from .families import RELEASE
from .subjects import Result, Subject

#: Every oracle id with the seed section it comes from.
ORACLES = {
    "run.no-error": "000 实现不变量",
    "result.complete-parse": "000 完整响应与流式响应",
    "result.chunking-invariant": "000 测试与 benchmark",
    "fuzz.no-invented-text": "000 实现不变量",
    "fuzz.no-invented-call": "000 实现不变量",
    "fuzz.no-half-swallow": "003 流式筛 (never half-swallow)",
    "result.calls": "000 归一化工具调用输出",
    "text.no-protocol-leak": "000 Response Parser",
    "perf.linear": "000 JSON 工具 payload",
}

#: The linear-time oracle re-decodes with repetitions this many times longer …
SCALE = 8
#: … judges only when the longer run costs at least this much CPU time (noise floor) …
MIN_JUDGED_SECONDS = 0.02
#: … and fails when cost grows more than this multiple of the growth in length.
MAX_COST_GROWTH = 2.5


class Finding(Exception):
    """An oracle failed on one input."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message


@dataclass(frozen=True)
class Policy:
    """What the oracles hold one input to."""

    invalid_policy: str
    protocol_tags: tuple[str, ...]


def check(
    fuzz_input: FuzzInput,
    subject: Subject,
    policy: Policy,
    rescale: Callable[[int], FuzzInput] | None = None,
    scale: int = SCALE,
) -> None:
    """Run every oracle on one input; raise ``Finding`` on the first that fails.

    ``rescale(k)`` re-decodes the same bytes with repetitions ``k`` times longer (the
    linear-time oracle, with ``k = scale``); without it that oracle is skipped.
    """
    dialect, request, text = fuzz_input.dialect, fuzz_input.request, fuzz_input.text
    started = time.process_time()
    complete = _run("complete parse", lambda: subject.complete(dialect, request, text))
    streamed = _run("streamed run", lambda: subject.stream(dialect, request, fuzz_input.chunks))
    seconds = time.process_time() - started
    if fuzz_input.aligned and streamed != complete:
        whole = _run("streamed run", lambda: subject.stream(dialect, request, (text,)))
        if whole != complete:
            raise Finding("result.complete-parse", _difference(whole, complete, "streamed whole"))
        raise Finding(
            "result.chunking-invariant",
            _difference(streamed, complete, f"streamed in {len(fuzz_input.chunks)} chunks"),
        )
    _check_policy(complete, text, policy)
    if fuzz_input.clean:
        _check_clean(complete, fuzz_input, policy)
    if rescale is not None and fuzz_input.scalable:
        _check_linear(fuzz_input, seconds, subject, rescale(scale))


def _run(what: str, action: Callable[[], Result]) -> Result:
    try:
        return action()
    except Finding:
        raise
    except Exception as error:  # any exception of the parser is the finding
        message = f"the {what} raised {type(error).__name__}: {error}"
        raise Finding("run.no-error", message) from error


def _difference(actual: Result, expected: Result, what: str) -> str:
    parts = []
    for field in Result._fields:
        mine, theirs = getattr(actual, field), getattr(expected, field)
        if mine != theirs:
            parts.append(f"{field} {mine!r} != complete parse {theirs!r}")
    return f"{what}: " + "; ".join(parts)


def is_subsequence(part: str, text: str) -> bool:
    """Whether ``part`` can be read off ``text`` left to right (characters kept in order)."""
    position = 0
    for character in part:
        position = text.find(character, position) + 1
        if position == 0:
            return False
    return True


def _check_policy(result: Result, text: str, policy: Policy) -> None:
    for field, value in (("content", result.content), ("reasoning", result.reasoning)):
        if not is_subsequence(value, text):
            raise Finding("fuzz.no-invented-text", f"{field} {value!r} is not text of the output")
    for name, _ in result.calls:
        # A name may be spelt with escapes: JSON's in a JSON payload, XML character
        # references in a markup attribute (the ds2api dialect decodes them, as ds2api does).
        if name not in text and name not in json_unescaped(text) and name not in unescape(text):
            message = f"call name {name!r} does not occur in the output"
            raise Finding("fuzz.no-invented-call", message)
    if policy.invalid_policy == RELEASE and not result.calls and result.content != text:
        raise Finding(
            "fuzz.no-half-swallow",
            f"no call was parsed, yet the content {result.content!r} is not the whole output",
        )


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def json_unescaped(text: str) -> str:
    """``text`` with JSON string escapes decoded wherever they appear: a name a JSON payload
    spells ``"\\u00e9"`` is in the output, though not letter for letter. As in JSON, an
    escaped surrogate pair is one character and a lone escaped surrogate stays itself."""

    def decode(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape[0] == "u" and len(escape) == 5:
            return chr(int(escape[1:], 16))
        return _SIMPLE_ESCAPES.get(escape, escape)

    decoded = _ESCAPE.sub(decode, text)
    return decoded.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")


def _check_clean(result: Result, fuzz_input: FuzzInput, policy: Policy) -> None:
    got = [(name, _json_or_raw(arguments)) for name, arguments in result.calls]
    want = [(name, arguments) for name, arguments in fuzz_input.expected_calls]
    if got != want:
        raise Finding("result.calls", f"calls {got!r} != the well-formed blocks' {want!r}")
    for field, value in (("content", result.content), ("reasoning", result.reasoning)):
        for tag in policy.protocol_tags:
            if tag in value:
                raise Finding("text.no-protocol-leak", f"{field} {value!r} contains {tag!r}")


def _json_or_raw(arguments: str) -> Any:
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def _check_linear(
    fuzz_input: FuzzInput, seconds: float, subject: Subject, grown: FuzzInput
) -> None:
    """One run of the grown input; a suspicious cost is measured again, best of three."""
    growth = len(grown.text) / max(1, len(fuzz_input.text))
    if growth < 4:
        return  # the repetition is too small a part of the output to measure
    large = cost(grown, subject, repeat=1)
    if large < MIN_JUDGED_SECONDS or large <= MAX_COST_GROWTH * growth * max(seconds, 1e-4):
        return
    small, large = cost(fuzz_input, subject, repeat=3), cost(grown, subject, repeat=3)
    if large >= MIN_JUDGED_SECONDS and large > MAX_COST_GROWTH * growth * max(small, 1e-4):
        raise Finding(
            "perf.linear",
            f"{growth:.1f}× the text cost {large / max(small, 1e-4):.1f}× the CPU time "
            f"({small * 1e3:.2f} ms → {large * 1e3:.2f} ms)",
        )


def cost(fuzz_input: FuzzInput, subject: Subject, repeat: int = 2) -> float:
    """Best-of-``repeat`` CPU seconds of the complete parse plus the streamed run."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        subject.complete(fuzz_input.dialect, fuzz_input.request, fuzz_input.text)
        subject.stream(fuzz_input.dialect, fuzz_input.request, fuzz_input.chunks)
        best = min(best, time.process_time() - start)
    return best


def protocol_tag_texts(tags: Sequence[str]) -> tuple[str, ...]:
    """Tags worth looking for in content: at least two visible characters."""
    return tuple(tag for tag in tags if len(tag.strip()) >= 2)
