"""A finding → a readable regression: replay it, minimise it, write it as a corpus case.

``triage(target, data)`` decodes the artifact, replays it through the oracles to learn which
one fails, then shrinks the input while that same oracle still fails: first the chunking
(fewer cuts), then the text (spans deleted, largest first, keeping every remaining cut
token-aligned). Inputs judged against their well-formed blocks are shrunk block by block,
and a super-linear input is reduced to the repetition that grows. The result is written as

- a corpus case ``corpus/cases/<dialect>/<kind>/fuzz-<id>.yaml`` (``provenance: fuzz``; the
  expectation is the reference's parse, to be reviewed like any ``corpus new`` skeleton;
  ``pathological`` with a ``scaling`` block for a time finding), and
- ``fuzz/regressions/<id>.json``: the exact minimal chunking, which the test suite replays
  through the oracles (a case file cannot name a chunking).

So every finding becomes a regression in plain text, never an opaque blob.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from ...reference import Request, get_dialect
from ...strategies.chunking import tag_aligned_boundaries
from ..cases import Expectation
from ..checks import BY_ID
from ..execution import FeedTimeout, feed_limit
from .decoding import FuzzInput, tool_objects
from .oracles import SCALE, Finding, check, every_boundary, growth_verdict, timing_input
from .target import Target

#: A replay that runs longer than this is a hang.
REPLAY_SECONDS = 60
PLACEHOLDER = "@@"
#: Triage judges time on repetitions this much longer than the minimal input's, so that a
#: super-linear term shows clearly above the linear work.
TRIAGE_SCALE = 4 * SCALE
#: A triaged pathological case's sizes are this many times apart (the corpus' convention:
#: a ladder of four sizes).
CASE_GROWTH = 8


@dataclass
class Triaged:
    """What triage found and wrote."""

    finding_id: str
    check: str
    message: str
    original: FuzzInput
    minimal: FuzzInput
    case_path: Path | None = None
    regression_path: Path | None = None


def finding_id(target: str, data: bytes) -> str:
    return f"{target}-{hashlib.sha1(data).hexdigest()[:10]}"


@contextmanager
def _replay_limit() -> Iterator[None]:
    """A replay longer than ``REPLAY_SECONDS`` is a ``run.no-timeout`` finding."""
    try:
        with feed_limit(REPLAY_SECONDS):
            yield
    except FeedTimeout:
        raise Finding("run.no-timeout", f"the input ran longer than {REPLAY_SECONDS} s") from None


def replay(target: Target, data: bytes) -> Finding | None:
    """The oracle failure ``data`` causes under every oracle, or ``None`` when it passes now.

    An input the linear-time oracle judges is tried again with longer repetitions: a cost
    that grew too fast under the fuzzer's instrumentation may need more length to show
    without it, and one measurement on a busy machine can hide it."""
    scales = (SCALE, 2 * SCALE, 4 * SCALE) if target.decode(data).scalable else (SCALE,)
    for scale in scales:
        try:
            with _replay_limit():
                target.judge(data, scale)
        except Finding as finding:
            return finding
    return None


def failure_of(
    target: Target, fuzz_input: FuzzInput, *, linear: bool = False, thorough: bool = True
) -> Finding | None:
    """The oracle failure of ``fuzz_input`` (the linear-time one alone with ``linear``; the
    cheap ones alone without ``thorough``: what its own chunking shows)."""
    policy = target.policy(fuzz_input.dialect)
    try:
        with _replay_limit():
            if linear:
                _linear_failure(target, fuzz_input)
            else:
                check(fuzz_input, target.adapter, policy, thorough=thorough)
    except Finding as finding:
        return finding
    return None


def _linear_failure(target: Target, fuzz_input: FuzzInput) -> None:
    """The linear-time oracle on an input of pieces whose longest repetition is scaled."""
    index = _grown_piece(fuzz_input)
    if index is None:
        return
    verdict = growth_verdict(
        fuzz_input,
        lambda k: _with_repetition(fuzz_input, index, k),
        TRIAGE_SCALE,
        target.adapter,
    )
    if verdict is not None:
        raise Finding("perf.linear", verdict.describe())


def _grown_piece(fuzz_input: FuzzInput) -> int | None:
    """The longest repetition piece (it follows its unit), if any."""
    candidates = [i for i, repeat in enumerate(fuzz_input.repeats) if repeat and i > 0]
    return max(candidates, key=lambda i: len(fuzz_input.pieces[i]), default=None)


def _with_repetition(fuzz_input: FuzzInput, index: int, scale: int) -> FuzzInput:
    unit = fuzz_input.pieces[index - 1]
    copies = len(fuzz_input.pieces[index]) // max(1, len(unit))
    pieces = list(fuzz_input.pieces)
    pieces[index] = unit * ((copies + 1) * scale - 1)
    return timing_input(fuzz_input, pieces)


def minimise(
    target: Target, fuzz_input: FuzzInput, check_id: str, *, seconds: float = 120.0
) -> FuzzInput:
    """The smallest input found in ``seconds`` on which oracle ``check_id`` still fails."""
    deadline = time.monotonic() + seconds
    if check_id == "perf.linear":
        return _minimise_linear(target, fuzz_input, deadline)
    if check_id in ("result.calls", "text.no-protocol-leak"):
        return _minimise_pieces(target, fuzz_input, check_id, deadline)
    plain = replace(fuzz_input, clean=False, expected_calls=(), scalable=False)

    def fails(candidate: FuzzInput) -> bool:
        if time.monotonic() > deadline:
            return False
        finding = failure_of(target, candidate, thorough=False)
        return finding is not None and finding.check == check_id

    if not fails(plain):  # only the input cut at every boundary shows it: start from there
        plain = replace(plain, chunks=every_boundary(plain, target.policy(plain.dialect)))
    return _minimise_chunks(plain, fails)


def _minimise_chunks(fuzz_input: FuzzInput, fails: Callable[[FuzzInput], bool]) -> FuzzInput:
    best = list(fuzz_input.chunks)

    def candidate(chunks: list[str]) -> FuzzInput | None:
        kept = tuple(chunk for chunk in chunks if chunk) or ("",)
        if fuzz_input.aligned and not _cuts_allowed(fuzz_input.dialect, kept):
            return None
        return replace(fuzz_input, chunks=kept)

    def attempt(chunks: list[str]) -> bool:
        nonlocal best
        trial = candidate(chunks)
        if trial is not None and fails(trial):
            best = list(trial.chunks)
            return True
        return False

    changed = True
    while changed:
        changed = False
        for index in reversed(range(len(best) - 1)):  # fewer cuts
            if index < len(best) - 1:
                changed |= attempt(
                    [*best[:index], best[index] + best[index + 1], *best[index + 2 :]]
                )
        size = max(map(len, best), default=0)
        while size >= 1:  # shorter text: delete spans, largest first
            index = 0
            while index < len(best):
                start = 0
                while start < len(best[index]):
                    chunk = best[index]
                    shorter = [
                        *best[:index],
                        chunk[:start] + chunk[start + size :],
                        *best[index + 1 :],
                    ]
                    if attempt(shorter):
                        changed = True
                    else:
                        start += size
                    if index >= len(best):
                        break
                index += 1
            size //= 2
    return replace(fuzz_input, chunks=tuple(best))


def _minimise_pieces(
    target: Target, fuzz_input: FuzzInput, check_id: str, deadline: float
) -> FuzzInput:
    """Drop pieces (and the calls they stand for) while a well-formed-input oracle fails."""
    items = list(zip(fuzz_input.pieces, fuzz_input.piece_calls, strict=True))

    def build(kept: list[tuple[str, Any]]) -> FuzzInput:
        text = "".join(piece for piece, _ in kept)
        calls = tuple(call for _, piece_calls in kept for call in piece_calls)
        return replace(
            fuzz_input,
            chunks=(text,),
            pieces=tuple(p for p, _ in kept),
            piece_calls=tuple(c for _, c in kept),
            expected_calls=calls,
            scalable=False,
        )

    index = len(items) - 1
    while index >= 0 and time.monotonic() < deadline:
        trial = items[:index] + items[index + 1 :]
        finding = failure_of(target, build(trial), thorough=False)
        if finding is not None and finding.check == check_id:
            items = trial
        index -= 1
    return build(items)


def _minimise_linear(target: Target, fuzz_input: FuzzInput, deadline: float) -> FuzzInput:
    """Find the repetition whose growth costs super-linear time, keep it and its unit, and
    drop every other piece that can go."""
    pieces = list(fuzz_input.pieces)
    repetitions = [i for i, repeat in enumerate(fuzz_input.repeats) if repeat and i > 0]
    current = None
    for index in sorted(repetitions, key=lambda i: -len(pieces[i])):
        only = tuple(i == index for i in range(len(pieces)))
        trial = timing_input(replace(fuzz_input, repeats=only), pieces)
        if failure_of(target, trial, linear=True) is not None:
            current = trial
            break
    if current is None:
        return fuzz_input  # the time does not reproduce under the timing chunking
    index = len(pieces) - 1
    while index >= 0 and time.monotonic() < deadline:
        grown = _grown_piece(current)
        if grown is not None and index not in (grown, grown - 1):
            trial_pieces = pieces[:index] + pieces[index + 1 :]
            repeats = current.repeats[:index] + current.repeats[index + 1 :]
            trial = timing_input(replace(current, repeats=repeats), trial_pieces)
            if failure_of(target, trial, linear=True) is not None:
                pieces, current = trial_pieces, trial
        index -= 1
    return current


# --------------------------------------------------------------------------- writing


def case_document(triaged: Triaged, target: Target) -> tuple[str, str, dict[str, Any], list[str]]:
    """The case's dialect, kind, YAML document and header comment lines."""
    minimal = triaged.minimal
    kind = "valid" if minimal.clean else "invalid"
    scaling = None
    output = minimal.text
    if triaged.check == "perf.linear":
        kind = "pathological"
        index = _grown_piece(minimal)
        assert index is not None
        unit = minimal.pieces[index - 1]
        copies = len(minimal.pieces[index]) // max(1, len(unit)) + 1
        if len(set(unit)) == 1:  # a run of one character reads best as that character
            unit, copies = unit[0], copies * len(unit)
        before = "".join(minimal.pieces[: index - 1])
        after = "".join(minimal.pieces[index + 1 :])
        output = before + PLACEHOLDER + after
        scaling = {
            "placeholder": PLACEHOLDER,
            "unit": unit,
            "sizes": [copies, copies * CASE_GROWTH],
        }
    header = [
        f"Fuzz finding {triaged.finding_id}: {triaged.check} failed:",
        f"  {triaged.message[:300]}",
        f"Minimal {'token-aligned' if minimal.aligned else 'arbitrary'} chunking:",
        f"  {json.dumps(list(minimal.chunks), ensure_ascii=False)[:2000]}",
    ]
    expectation, note = _expectation(minimal.dialect, minimal.request, minimal.text)
    if note:
        header.append(note)
    header.append("The expectation is the reference's parse: review it like any skeleton.")
    data: dict[str, Any] = {
        "description": f"Fuzz finding {triaged.finding_id}: {triaged.check}",
        "level": "must" if kind == "valid" else "should",
        "features": ["fuzz", triaged.check.replace(".", "-")],
        "source": f"seed {BY_ID[triaged.check].seed}",
        "provenance": {"origin": "fuzz", "reference": triaged.finding_id},
    }
    request = _readable_request(minimal.request)
    if request:
        data["request"] = request
    data["output"] = output
    data["expect"] = expectation
    if scaling is not None:
        data["expect"], note = _scaled_expectation(minimal, output, scaling)
        if note:
            header.append(note)
        data["scaling"] = scaling
    return minimal.dialect, kind, data, header


def _scaled_expectation(
    minimal: FuzzInput, output: str, scaling: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """The expectation of a pathological case, with the placeholder where the repetition
    shows in the result; checked against the reference at both sizes."""
    unit, sizes = scaling["unit"], scaling["sizes"]
    filled = unit * sizes[0]
    expectation, note = _expectation(
        minimal.dialect, minimal.request, output.replace(PLACEHOLDER, filled)
    )
    if note:
        return expectation, note
    templated = json.loads(json.dumps(expectation).replace(json.dumps(filled)[1:-1], PLACEHOLDER))
    for size in sizes:
        text = output.replace(PLACEHOLDER, unit * size)
        wanted = json.loads(
            json.dumps(templated).replace(PLACEHOLDER, json.dumps(unit * size)[1:-1])
        )
        if _expectation(minimal.dialect, minimal.request, text)[0] != wanted:
            return templated, f"REVIEW: the expectation does not hold at size {size}"
    return templated, ""


def _expectation(dialect: str, request: dict[str, Any], text: str) -> tuple[dict[str, Any], str]:
    parser = get_dialect(dialect).new_parser(Request.from_openai(request))
    try:
        parsed = parser.parse_complete(text)
    except Exception as error:  # the finding itself: the case needs a person's answer
        placeholder = {"content": text, "reasoning": None, "tool_calls": []}
        return placeholder, f"REVIEW: the reference raised {type(error).__name__}: {error}"
    return Expectation.from_result(parsed, raw=False).to_json(), ""


def _readable_request(request: dict[str, Any]) -> dict[str, Any]:
    """The request with the corpus' tools named rather than inlined."""
    readable = dict(request)
    if "tools" in readable:
        by_value = {json.dumps(v, sort_keys=True): k for k, v in tool_objects().items()}
        readable["tools"] = [
            by_value.get(json.dumps(tool, sort_keys=True), tool) for tool in request["tools"]
        ]
    return readable


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks: model outputs stay readable."""


def _represent_string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _represent_string)


def case_yaml(data: dict[str, Any], header: list[str]) -> str:
    """The case file: a comment header, then the document; the output is base64 when YAML
    cannot carry it exactly (control characters)."""
    text = yaml.dump(data, Dumper=_BlockDumper, allow_unicode=True, sort_keys=False, width=100)
    if yaml.safe_load(text) != data:
        encoded = base64.b64encode(data["output"].encode("utf-8")).decode("ascii")
        data = {
            ("output_base64" if key == "output" else key): encoded if key == "output" else value
            for key, value in data.items()
        }
        text = yaml.dump(data, Dumper=_BlockDumper, allow_unicode=True, sort_keys=False)
    return "".join(f"# {line}\n" for line in header) + text


def triage(target: Target, data: bytes, *, seconds: float = 120.0) -> Triaged | None:
    """Replay and minimise one finding; ``None`` when the input passes now."""
    finding = replay(target, data)
    if finding is None:
        return None
    original = target.decode(data)
    minimal = minimise(target, original, finding.check, seconds=seconds)
    again = failure_of(target, minimal, linear=finding.check == "perf.linear", thorough=False)
    message = again.message if again is not None and again.check == finding.check else ""
    return Triaged(
        finding_id(target.name, data),
        finding.check,
        message or finding.message,
        original,
        minimal,
    )


def write(triaged: Triaged, target: Target, corpus: Path, regressions: Path) -> None:
    """Write the case file and the regression record; set their paths on ``triaged``."""
    dialect, kind, data, header = case_document(triaged, target)
    case_path = corpus / "cases" / dialect / kind / f"fuzz-{triaged.finding_id}.yaml"
    case_path.parent.mkdir(parents=True, exist_ok=True)
    case_path.write_text(case_yaml(data, header), encoding="utf-8")
    regressions.mkdir(parents=True, exist_ok=True)
    regression_path = regressions / f"{triaged.finding_id}.json"
    record = {
        "finding": triaged.finding_id,
        "target": target.name,
        "check": triaged.check,
        "message": triaged.message,
        "case": f"{dialect}/{kind}/fuzz-{triaged.finding_id}",
        **triaged.minimal.to_json(),
    }
    regression_path.write_text(
        json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    triaged.case_path, triaged.regression_path = case_path, regression_path


def regression_input(record: dict[str, Any]) -> FuzzInput:
    """The input a regression record stands for (what the test suite replays).

    Its cuts count as token-aligned only while the dialect's current declarations allow
    them: a finding fixed by declaring a tag (a chunk can never end inside it) replays as
    an arbitrary chunking, which has only to run.
    """
    chunks = tuple(record["chunks"])
    aligned = record["aligned"] and _cuts_allowed(record["dialect"], chunks)
    return FuzzInput(
        dialect=record["dialect"], request=record["request"], chunks=chunks, aligned=aligned
    )


def _cuts_allowed(dialect: str, chunks: tuple[str, ...]) -> bool:
    text = "".join(chunks)
    allowed = set(tag_aligned_boundaries(text, get_dialect(dialect).protocol_tags()))
    position = 0
    for chunk in chunks[:-1]:
        position += len(chunk)
        if position not in allowed:
            return False
    return True
