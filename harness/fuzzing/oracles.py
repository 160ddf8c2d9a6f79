"""What one fuzz execution must satisfy, besides not crashing.

The oracles are checks of the catalogue (``harness.checks``): a finding carries the id of
the check it failed, so it reads the same in a fuzz log, a triaged case and a certification
report, and where a check's own function judges the same thing, the oracle calls it. A
failed oracle raises ``Finding``: atheris then records the input as a crash artifact, and
triage replays it by id.

Cheap oracles judge every execution (one streamed run under the input's chunking and the
complete parse):

- ``run.no-error`` / ``run.contract``: neither run raises or breaks the adapter contract;
- ``result.complete-parse``, ``result.chunking-invariant``: the streamed result equals the
  complete parse under token-aligned cuts (arbitrary cuts only have to run: seed 000 lets a
  parser assume token-aligned tags);
- ``calls.identity-first``, ``calls.name-once``, ``calls.stable-id``, ``calls.unique-ids``,
  ``calls.dense-indices``, ``calls.unknown-filtered``, ``stream.append-only``: the checks
  that judge a stream by itself (``checks.SELF_CONTAINED``), by their own verdicts;
- ``fuzz.no-invented-text``, ``fuzz.no-invented-call``, ``fuzz.no-half-swallow``: nothing
  invented (seed 000), a malformed wrapper never half-swallowed (seed 003);
- ``result.calls`` / ``text.no-protocol-leak``: an input of prose and well-formed blocks
  parses to exactly those calls, and no protocol tag reaches content or reasoning.

The expensive oracles (``thorough``) cost several runs each: the input streamed at every one
of its boundaries at once (the chunking that exercises every held tag prefix), and
``perf.linear``, the input re-decoded with its repetitions longer, which must cost no more
than linear work may (``harness.scaling``: the exponent fitted through the two sizes, the
ladder's bound). Time is measured as certify measures it: the
text in chunks of about four characters (``timing_input``), so that work repeated with
every chunk shows as it does in a server.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from html import unescape
from typing import Any

from ...reference import Dialect, Request, get_dialect
from ...reference.types import FinalResult
from ...strategies.chunking import cut, fixed_size, tag_aligned_boundaries
from ..adapters import Adapter, SessionSkipped
from ..cases import Case, ExpectedCall, call_differences
from ..checks import (
    BY_ID,
    MUST,
    CaseContext,
    Run,
    leak_tags,
    same_result,
    self_contained_verdicts,
)
from ..chunkings import Chunking, Family
from ..events import AdapterOutputError
from ..scaling import LONG, NOISE_FLOOR, Verdict, two_sizes
from . import runs
from .decoding import FuzzInput
from .grammars import RELEASE

#: The linear-time oracle re-decodes with repetitions this many times longer: enough for a
#: term that grows with the square of the output to stand out of the linear work, from
#: outputs of a few hundred characters.
SCALE = 16
#: A grown input must be at least this many times longer to be timed: a repetition that is
#: a small part of the output says nothing about its growth.
MIN_GROWTH = 4


class Finding(Exception):
    """An oracle failed on one input: the catalogue check and why."""

    def __init__(self, check: str, message: str) -> None:
        if check not in BY_ID:
            raise ValueError(f"{check!r} is not a check of the catalogue")
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message


@dataclass(frozen=True)
class Policy:
    """What the oracles hold a dialect's inputs to."""

    dialect: Dialect
    #: What a malformed block becomes (``grammars.DROP`` or ``RELEASE``).
    invalid_policy: str

    @cached_property
    def protocol_tags(self) -> dict[str, tuple[str, ...]]:
        return self.dialect.protocol_tags()

    @cached_property
    def leak_tags(self) -> tuple[str, ...]:
        return tuple(leak_tags(self.dialect))

    @cached_property
    def case(self) -> Case:
        """What the catalogue's verdicts know of a fuzz input's case: its dialect (the
        self-contained checks look at nothing else of it)."""
        name = self.dialect.name
        return Case(f"fuzz/{name}", name, "fuzz", MUST, "a fuzz input", "")


def check(
    fuzz_input: FuzzInput,
    adapter: Adapter,
    policy: Policy,
    *,
    thorough: bool = True,
    rescale: Callable[[int], FuzzInput] | None = None,
    scale: int = SCALE,
) -> None:
    """Run the cheap oracles on one input, and the expensive ones too when ``thorough``;
    raise ``Finding`` on the first that fails.

    ``rescale(k)`` re-decodes the same bytes with repetitions ``k`` times longer (the
    linear-time oracle, with ``k = scale``); without it that oracle is skipped.
    """
    dialect, request, text = fuzz_input.dialect, fuzz_input.request, fuzz_input.text
    try:
        complete = _run("complete parse", lambda: runs.complete(adapter, dialect, request, text))
    except SessionSkipped:
        return  # the adapter knowingly does not support this request: nothing to judge
    chunks = fuzz_input.chunks
    streamed = _run("streamed run", lambda: runs.stream(adapter, dialect, request, chunks))
    allowed = Request.from_openai(request).allowed_tool_names()
    if fuzz_input.aligned:
        _check_invariant(fuzz_input, adapter, streamed.result, complete, len(fuzz_input.chunks))
        _check_stream(streamed, chunks, policy, allowed)
    _check_policy(complete, text, policy)
    if fuzz_input.clean:
        _check_clean(complete, fuzz_input, policy)
    if not thorough:
        return
    _check_every_boundary(fuzz_input, adapter, policy, complete, allowed)
    if rescale is not None and fuzz_input.scalable:
        _check_linear(fuzz_input, adapter, rescale, scale)


def _run(what: str, action: Callable[[], Any]) -> Any:
    try:
        return action()
    except (Finding, SessionSkipped):
        raise
    except AdapterOutputError as error:
        raise Finding("run.contract", f"the {what}: {error}") from error
    except Exception as error:  # any exception of the parser is the finding
        message = f"the {what} raised {type(error).__name__}: {error}"
        raise Finding("run.no-error", message) from error


def _key(result: FinalResult) -> tuple[Any, ...]:
    """What two results must share to be the same result at a glance (ids aside)."""
    calls = tuple((call.name, call.arguments) for call in result.calls)
    return result.content, result.reasoning or "", calls


def _check_invariant(
    fuzz_input: FuzzInput,
    adapter: Adapter,
    streamed: FinalResult,
    complete: FinalResult,
    chunk_count: int,
) -> None:
    """``result.chunking-invariant``, or ``result.complete-parse`` when the whole text in
    one chunk already differs from the complete parse."""
    if _key(streamed) == _key(complete):
        return
    problem = same_result(streamed, complete, "complete parse")
    if problem is None:
        return
    dialect, request, text = fuzz_input.dialect, fuzz_input.request, fuzz_input.text
    whole = _run("streamed run", lambda: runs.stream(adapter, dialect, request, (text,)))
    whole_problem = same_result(whole.result, complete, "complete parse")
    if whole_problem is not None:
        raise Finding("result.complete-parse", f"streamed whole: {whole_problem}")
    raise Finding("result.chunking-invariant", f"streamed in {chunk_count} chunks: {problem}")


def _check_stream(
    streamed: runs.Streamed,
    chunks: Sequence[str],
    policy: Policy,
    allowed: frozenset[str] | None,
) -> None:
    """The catalogue's self-contained checks (``checks.SELF_CONTAINED``) on the stream."""
    run = Run(Chunking(Family.FUZZ, tuple(chunks)), [list(streamed.events)], result=streamed.result)
    context = CaseContext(policy.case, policy.dialect, (), allowed_names=allowed)
    for check_id, problem in self_contained_verdicts(run, context).items():
        if problem is not None:
            raise Finding(check_id, problem)


def is_subsequence(part: str, text: str) -> bool:
    """Whether ``part`` can be read off ``text`` left to right (characters kept in order).

    Greedy, as the character-by-character definition, but a run of characters that match
    in place is taken in one comparison: content is mostly long stretches of the output."""
    position = 0
    index = 0
    while index < len(part):
        position = text.find(part[index], position)
        if position < 0:
            return False
        # The longest stretch of ``part`` from ``index`` that ``text`` has at ``position``.
        low, high = 1, min(len(part) - index, len(text) - position)
        while low < high:
            middle = (low + high + 1) // 2
            if text.startswith(part[index : index + middle], position):
                low = middle
            else:
                high = middle - 1
        index += low
        position += low
    return True


def _check_policy(result: FinalResult, text: str, policy: Policy) -> None:
    # The dialect's own reasoning separator is the one text a parser may add: it is read
    # out before the test, so any other character not in the output is still caught.
    separator = policy.dialect.response_parser.reasoning_separator
    reasoning = result.reasoning or ""
    if separator:
        reasoning = reasoning.replace(separator, "")
    for field, value in (("content", result.content), ("reasoning", reasoning)):
        if not is_subsequence(value, text):
            raise Finding("fuzz.no-invented-text", f"{field} {value!r} is not text of the output")
    for call in result.calls:
        name = call.name or ""
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


def _check_clean(result: FinalResult, fuzz_input: FuzzInput, policy: Policy) -> None:
    expected = [ExpectedCall(name, arguments) for name, arguments in fuzz_input.expected_calls]
    problems = call_differences(expected, result.calls)
    if problems:
        raise Finding("result.calls", "; ".join(problems) + " (the well-formed blocks' calls)")
    for field, value in (("content", result.content), ("reasoning", result.reasoning or "")):
        for tag in policy.leak_tags:
            if tag in value:
                raise Finding("text.no-protocol-leak", f"{field} {value!r} contains {tag!r}")


def every_boundary(fuzz_input: FuzzInput, policy: Policy) -> tuple[str, ...]:
    """The input's text cut at every one of its boundaries at once (token-aligned ones for
    a token-aligned input, every character otherwise): each held tag prefix is met."""
    text = fuzz_input.text
    if fuzz_input.aligned:
        boundaries = tag_aligned_boundaries(text, policy.protocol_tags)
    else:
        boundaries = list(range(1, len(text)))
    return tuple(cut(text, boundaries)) if boundaries else (text,)


def _check_every_boundary(
    fuzz_input: FuzzInput,
    adapter: Adapter,
    policy: Policy,
    complete: FinalResult,
    allowed: frozenset[str] | None,
) -> None:
    """The input streamed at every boundary: a token-aligned one must give the complete
    parse, an arbitrary one only has to run."""
    chunks = every_boundary(fuzz_input, policy)
    if len(chunks) == len(fuzz_input.chunks):
        return  # the input's own chunking, already judged
    dialect, request = fuzz_input.dialect, fuzz_input.request
    streamed = _run("streamed run", lambda: runs.stream(adapter, dialect, request, chunks))
    if fuzz_input.aligned:
        _check_invariant(fuzz_input, adapter, streamed.result, complete, len(chunks))
        _check_stream(streamed, chunks, policy, allowed)


def _check_linear(
    fuzz_input: FuzzInput, adapter: Adapter, rescale: Callable[[int], FuzzInput], scale: int
) -> None:
    """``perf.linear`` on the input in chunks as certify times it, its repetitions grown."""
    verdict = growth_verdict(
        timing_input(fuzz_input), lambda k: timing_input(rescale(k)), scale, adapter
    )
    if verdict is not None:
        raise Finding("perf.linear", verdict.describe())


def growth_verdict(
    small: FuzzInput, grow: Callable[[int], FuzzInput], scale: int, adapter: Adapter
) -> Verdict | None:
    """The verdict on ``small`` and ``grow(scale)`` (its repetitions ``scale`` times longer)
    when the time grew faster than linear, ``None`` when it did not or cannot be judged.

    One timing of the large size first: when it stays below the noise floor there is
    nothing to judge, and the small one is not run. Otherwise the small one is timed best of
    three at once: it takes well under a millisecond, where one slow run (a collection, a
    cold cache) lowers the growth seen; timed once, it hid a planted quadratic parser in 7
    of 10 runs of its test (in none of 6 since). A suspicious large cost is measured again,
    best of three.

    A super-linear growth stands only when it goes on one step further: from the large size
    to ``grow(2 * scale)`` the time grows faster than linear too. Growth is measured by
    the text's length, and a text whose repeated part is dearer per character than the rest
    (a ds2api tool shell cut by every chunk and scanned again, up to its bounded length,
    against cheap prose) grows in time with the repetitions, faster than its length while
    the rest is a large share of it: fuzz finding ``crash-0b22a868…`` of ``fuzz run ds2api``
    measured the reference's linear sieve at size^1.32–1.34 over ×7.9 of the text (×16 of
    the repetitions) and size^1.06 one step further (2026-12-07). A quadratic term keeps its
    exponent at every step. The step's run is repeated only when it looks super-linear and
    is shorter than ``scaling.LONG`` (as certify's ladder repeats its runs)."""
    large = grow(scale)
    growth = len(large.text) / max(1, len(small.text))
    if growth < MIN_GROWTH:
        return None
    large_seconds = cost(large, adapter, 1)
    if large_seconds < NOISE_FLOOR:
        return None
    small_seconds = cost(small, adapter, 3)
    if not two_sizes(small_seconds, large_seconds, growth).superlinear(floor=NOISE_FLOOR):
        return None
    large_seconds = min(large_seconds, cost(large, adapter, 2))  # best of three runs
    if not two_sizes(small_seconds, large_seconds, growth).superlinear(floor=NOISE_FLOOR):
        return None
    larger = grow(2 * scale)
    step = len(larger.text) / max(1, len(large.text))
    larger_seconds = cost(larger, adapter, 1)  # one slow run can only make it look steeper
    if two_sizes(large_seconds, larger_seconds, step).linear:
        return None
    if larger_seconds < LONG:
        larger_seconds = min(larger_seconds, cost(larger, adapter, 2))
    if not two_sizes(large_seconds, larger_seconds, step).superlinear(floor=NOISE_FLOOR):
        return None
    return Verdict(
        points=[(1.0, small_seconds), (growth, large_seconds), (growth * step, larger_seconds)]
    )


def timing_input(fuzz_input: FuzzInput, pieces: Sequence[str] | None = None) -> FuzzInput:
    """The input (or ``pieces`` in its place) in chunks of about four characters cut at
    token-aligned boundaries, as certify times a pathological case."""
    pieces = tuple(fuzz_input.pieces if pieces is None else pieces)
    text = "".join(pieces) if pieces else fuzz_input.text
    protocol = get_dialect(fuzz_input.dialect).protocol_tags()
    chunks = fixed_size(text, 4, tag_aligned_boundaries(text, protocol)) if text else [""]
    return replace(fuzz_input, chunks=tuple(chunks), pieces=pieces, clean=False, scalable=False)


def cost(fuzz_input: FuzzInput, adapter: Adapter, repeat: int = 2) -> float:
    """Best-of-``repeat`` CPU seconds of the streamed run: what certify's ladder times
    (``execution.feed_chunking``). The complete parse is left out, as there: it is one
    parse of the same text, and timing it too doubled the oracle's cost."""
    best = float("inf")
    dialect, request = fuzz_input.dialect, fuzz_input.request
    for _ in range(repeat):
        start = time.process_time()
        runs.stream(adapter, dialect, request, fuzz_input.chunks)
        best = min(best, time.process_time() - start)
    return best
