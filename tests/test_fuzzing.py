"""The fuzzing layer: byte decoding, oracles, seeds, dictionaries, engines and triage."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from toolconform.harness.cases import load_cases
from toolconform.harness.corpus_build import read_sources
from toolconform.harness.fuzzing.artifacts import (
    dictionary_entries,
    dictionary_text,
    seed_inputs,
    write_seeds,
)
from toolconform.harness.fuzzing.decoding import FuzzInput
from toolconform.harness.fuzzing.engines import (
    LibFuzzerRun,
    Progress,
    findings_in,
    parse_status,
    run_hypothesis,
)
from toolconform.harness.fuzzing.families import FAMILIES, RELEASE, target_names
from toolconform.harness.fuzzing.oracles import Finding, Policy, check, is_subsequence
from toolconform.harness.fuzzing.provider import ByteProvider, ByteWriter
from toolconform.harness.fuzzing.subjects import ReferenceSubject, Result
from toolconform.harness.fuzzing.target import Target, build_target
from toolconform.harness.fuzzing.triage import regression_input, triage, write
from toolconform.reference import get_dialect
from toolconform.strategies.chunking import tag_aligned_boundaries

from . import fuzz_planted

REPOSITORY = Path(__file__).resolve().parents[1]
REGRESSIONS = REPOSITORY / "fuzz" / "regressions"
FAMILY_TARGETS = [name for name in target_names() if name in FAMILIES]


def random_inputs(count: int, seed: int = 7, size: int = 400) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(rng.randrange(1, size)) for _ in range(count)]


# ------------------------------------------------------------------- bytes → input


def test_byte_provider_reads_integers_from_the_end_and_bytes_from_the_front():
    provider = ByteProvider(bytes([1, 2, 3, 4, 5]))
    assert provider.ConsumeIntInRange(0, 10) == 5
    assert provider.ConsumeIntInRange(0, 1000) == ((4 << 8) | 3) % 1001
    assert provider.ConsumeBytes(5) == bytes([1, 2])
    assert provider.remaining_bytes() == 0
    assert provider.ConsumeIntInRange(3, 9) == 3  # exhausted: the low end


def test_byte_writer_is_the_inverse_of_the_provider():
    writer = ByteWriter()
    writer.int_in_range(7, 0, 10)
    writer.int_in_range(40000, 0, 0xFFFF)
    writer.bytes(b"hello")
    writer.int_in_range(2, 2, 2)
    writer.int_in_range(250, 3, 300)
    provider = ByteProvider(writer.data())
    assert provider.ConsumeIntInRange(0, 10) == 7
    assert provider.ConsumeIntInRange(0, 0xFFFF) == 40000
    assert provider.ConsumeBytes(5) == b"hello"
    assert provider.ConsumeIntInRange(2, 2) == 2
    assert provider.ConsumeIntInRange(3, 300) == 250
    assert provider.remaining_bytes() == 0


def test_byte_provider_answers_as_atheris_does():
    atheris = pytest.importorskip("atheris")
    for data in random_inputs(200, size=40):
        ours, theirs = ByteProvider(data), atheris.FuzzedDataProvider(data)
        rng = random.Random(data)
        while theirs.remaining_bytes():
            if rng.random() < 0.7:
                low = rng.randrange(-5, 5)
                high = low + rng.choice((0, 1, 7, 255, 256, 70000, 2**40))
                assert ours.ConsumeIntInRange(low, high) == theirs.ConsumeIntInRange(low, high)
            else:
                count = rng.randrange(0, 6)
                assert ours.ConsumeBytes(count) == theirs.ConsumeBytes(count)
            assert ours.remaining_bytes() == theirs.remaining_bytes()


@pytest.mark.parametrize("name", FAMILY_TARGETS)
def test_decoding_is_a_function_of_the_bytes_and_cuts_where_it_says(name):
    target = build_target(name)
    for data in random_inputs(60):
        first, second = target.decode(data), target.decode(data)
        assert first == second
        assert first.text == "".join(first.pieces)
        assert all(first.chunks) or first.chunks == ("",)
        if first.aligned:
            protocol = get_dialect(first.dialect).protocol_tags()
            allowed = set(tag_aligned_boundaries(first.text, protocol))
            cuts = [sum(map(len, first.chunks[:k])) for k in range(1, len(first.chunks))]
            assert set(cuts) <= allowed


def test_scaling_multiplies_only_the_repetitions():
    target = build_target("json")
    scalable = [d for d in random_inputs(400, seed=3) if target.decode(d).scalable]
    assert scalable
    for data in scalable[:10]:
        small, large = target.decode(data), target.decode(data, 8)
        assert len(small.pieces) == len(large.pieces)
        for piece, grown, repeat in zip(small.pieces, large.pieces, small.repeats, strict=True):
            assert (grown != piece) <= repeat


def test_well_formed_inputs_know_their_calls():
    target = build_target("json")
    clean = [target.decode(d) for d in random_inputs(300, seed=5)]
    clean = [i for i in clean if i.clean and i.expected_calls]
    assert clean
    for fuzz_input in clean[:20]:
        result = ReferenceSubject().complete(
            fuzz_input.dialect, fuzz_input.request, fuzz_input.text
        )
        assert [name for name, _ in result.calls] == [n for n, _ in fuzz_input.expected_calls]


# ------------------------------------------------------------------- oracles


class FakeSubject:
    """A subject answering fixed results, to see each oracle fail on its own."""

    name = "fake"

    def __init__(self, complete: Result, streamed: Result | None = None, raises: bool = False):
        self._complete, self._streamed, self._raises = complete, streamed or complete, raises

    def complete(self, dialect, request, text):
        if self._raises:
            raise IndexError("boom")
        return self._complete

    def stream(self, dialect, request, chunks):
        return self._complete if tuple(chunks) == ("".join(chunks),) else self._streamed


def fuzz_input(text: str, chunks: tuple[str, ...] | None = None, **fields) -> FuzzInput:
    return FuzzInput("qwen3", {}, chunks or (text,), aligned=True, **fields)


DROP = Policy("drop", ("<tool_call>", "</tool_call>"))


@pytest.mark.parametrize(
    ("subject", "given", "policy", "expected_check"),
    [
        (FakeSubject(Result("a", "", ()), raises=True), fuzz_input("ab"), DROP, "run.no-error"),
        (
            FakeSubject(Result("ab", "", ()), Result("a", "", ())),
            fuzz_input("ab", ("a", "b")),
            DROP,
            "result.chunking-invariant",
        ),
        (FakeSubject(Result("ba", "", ())), fuzz_input("ab"), DROP, "fuzz.no-invented-text"),
        (
            FakeSubject(Result("", "", (("f", "{}"),))),
            fuzz_input("ab"),
            DROP,
            "fuzz.no-invented-call",
        ),
        (
            FakeSubject(Result("b", "", ())),
            fuzz_input("ab"),
            Policy(RELEASE, ()),
            "fuzz.no-half-swallow",
        ),
        (
            FakeSubject(Result("", "", ())),
            fuzz_input("ab", clean=True, expected_calls=(("f", {}),)),
            DROP,
            "result.calls",
        ),
        (
            FakeSubject(Result("<tool_call>", "", ())),
            fuzz_input("<tool_call>", clean=True),
            DROP,
            "text.no-protocol-leak",
        ),
    ],
)
def test_each_oracle_fails_on_its_own_fault(subject, given, policy, expected_check):
    with pytest.raises(Finding) as raised:
        check(given, subject, policy)
    assert raised.value.check == expected_check


def test_a_name_spelled_with_json_escapes_is_not_invented():
    escaped = '{"name": "get_w\\u00e9", "arguments": {}}'
    check(fuzz_input(escaped), FakeSubject(Result("", "", (("get_wé", "{}"),))), DROP)
    with pytest.raises(Finding):
        check(fuzz_input(escaped), FakeSubject(Result("", "", (("get_wè", "{}"),))), DROP)


def test_arbitrary_cuts_only_have_to_run():
    subject = FakeSubject(Result("ab", "", ()), Result("a", "", ()))
    check(FuzzInput("qwen3", {}, ("a", "b"), aligned=False), subject, DROP)


def test_is_subsequence():
    assert is_subsequence("ace", "abcde")
    assert not is_subsequence("aec", "abcde")
    assert is_subsequence("", "")


# ------------------------------------------------------------------- seeds and dictionaries


@pytest.mark.parametrize("name", FAMILY_TARGETS)
def test_seeds_reproduce_corpus_cases_and_pass_the_oracles(name):
    target = build_target(name)
    cases = {case.id: case for case in load_cases()}
    seeds = seed_inputs(target)
    assert seeds
    for seed_id, data in seeds.items():
        decoded = target.decode(data)
        if not seed_id.startswith("shell:"):
            case = cases[seed_id.removesuffix("+cuts")]
            assert (decoded.dialect, decoded.text) == (case.dialect, case.output)
            assert decoded.aligned
        target.test_one_input(data)


@pytest.mark.parametrize("name", FAMILY_TARGETS)
def test_dictionary_lists_every_declared_tag_and_prefix(name):
    target = build_target(name)
    entries = set(dictionary_entries(target))
    for dialect in target.dialects:
        for tag, prefixes in get_dialect(dialect).protocol_tags().items():
            assert tag in entries
            assert set(prefixes) <= entries
    lines = dictionary_text(target).splitlines()[1:]
    assert all(line.startswith('"') and line.endswith('"') and line.isascii() for line in lines)


# ------------------------------------------------------------------- engines


def test_libfuzzer_status_lines_are_parsed():
    progress = Progress()
    line = "#4096\tpulse  cov: 412 ft: 1999 corp: 88/9Kb lim: 134 exec/s: 1365 rss: 48Mb"
    assert parse_status(line, progress)
    assert (
        progress.execs,
        progress.coverage,
        progress.features,
        progress.corpus,
        progress.rate,
    ) == (4096, 412, 1999, 88, 1365)
    fork = "#81920: cov: 500 ft: 2500 corp: 120 exec/s 2000 oom/timeout/crash: 0/0/1 time: 40s job: 7 dft_time: 0"
    assert parse_status(fork, progress)
    assert (progress.execs, progress.coverage, progress.rate) == (81920, 500, 2000)
    assert not parse_status("INFO: Seed: 1", progress)


def planted_target(dialect: str) -> Target:
    return Target("planted", (dialect,), FAMILIES["json"].fragments, ReferenceSubject())


def test_planted_off_by_one_is_found_within_the_smoke_budget(tmp_path):
    """A copy of a dialect whose pending suffix is one character short: found in seconds;
    the same dialect without the bug passes the same run."""
    found = run_hypothesis(
        planted_target(fuzz_planted.PLANTED), 20, tmp_path / "bug", lambda p: None, stop_after=1
    )
    assert found.findings, f"not found in {found.execs} inputs"
    checks = set()
    for path in found.findings:
        with pytest.raises(Finding) as raised:
            planted_target(fuzz_planted.PLANTED).test_one_input(path.read_bytes())
        checks.add(raised.value.check)
    assert checks & {"result.chunking-invariant", "fuzz.no-invented-text"}
    control = run_hypothesis(
        planted_target(fuzz_planted.CONTROL), 3, tmp_path / "control", lambda p: None
    )
    assert control.execs > 100 and not control.findings


def test_planted_off_by_one_is_found_by_libfuzzer_through_the_adapter_target(tmp_path, monkeypatch):
    """The generic target, pointed at the planted dialect, finds the bug under atheris."""
    pytest.importorskip("atheris")
    monkeypatch.setenv("TOOLCONFORM_FUZZ_ADAPTER", "tests.fuzz_planted:factory")
    monkeypatch.setenv("TOOLCONFORM_FUZZ_DIALECTS", fuzz_planted.PLANTED)
    monkeypatch.setenv("PYTHONPATH", str(REPOSITORY))
    (tmp_path / "dict").write_text(dictionary_text(planted_target(fuzz_planted.PLANTED)))
    progress, _ = LibFuzzerRun(
        script=REPOSITORY / "fuzz" / "fuzz_adapter.py",
        seconds=20,
        artifacts=tmp_path / "artifacts",
        corpus=tmp_path / "corpus",
        seeds=tmp_path / "seeds",
        dictionary=tmp_path / "dict",
        seed=1,
    ).run(lambda p: None)
    assert progress.findings, f"not found in {progress.execs} inputs"
    with pytest.raises(Finding):
        planted_target(fuzz_planted.PLANTED).test_one_input(progress.findings[0].read_bytes())


def test_triage_minimises_a_planted_finding_into_a_corpus_case(tmp_path):
    target = planted_target(fuzz_planted.PLANTED)
    run = run_hypothesis(target, 20, tmp_path / "artifacts", lambda p: None, stop_after=1)
    assert run.findings
    data = run.findings[0].read_bytes()
    triaged = triage(target, data, seconds=30)
    assert triaged is not None
    assert len(triaged.minimal.text) <= len(triaged.original.text)
    assert len(triaged.minimal.chunks) <= max(2, len(triaged.original.chunks))
    with pytest.raises(Finding) as again:  # the minimal input still fails the same oracle
        check(triaged.minimal, target.subject, target.policy(fuzz_planted.PLANTED))
    assert again.value.check == triaged.check
    # An empty corpus folder with the real schema and tools: the case must be valid there.
    corpus = tmp_path / "corpus"
    shutil.copytree(REPOSITORY / "corpus" / "tools", corpus / "tools")
    shutil.copy(REPOSITORY / "corpus" / "case.schema.json", corpus)
    # The planted dialect has no corpus folder: file the case under the dialect it copies.
    triaged.minimal = replace(triaged.minimal, dialect="qwen25")
    write(triaged, target, corpus, tmp_path / "regressions")
    assert triaged.case_path is not None and triaged.case_path.is_file()
    document = yaml.safe_load(triaged.case_path.read_text())
    assert document["provenance"] == {"origin": "fuzz", "reference": triaged.finding_id}
    assert triaged.check in triaged.case_path.read_text()
    compiled, problems = read_sources(corpus)
    assert not problems and len(compiled) == 1
    record = json.loads(triaged.regression_path.read_text())
    assert regression_input(record).chunks == triaged.minimal.chunks


@pytest.mark.parametrize("name", target_names())
def test_smoke_fuzz(name, tmp_path):
    """A few seconds of every target: under libFuzzer when atheris is installed (CI's
    ``fuzz`` extra), else under the Hypothesis engine. No finding may appear."""
    target = build_target(name)
    try:
        import atheris  # noqa: F401
    except ImportError:
        progress = run_hypothesis(target, 3, tmp_path / "artifacts", lambda p: None, seed=1)
    else:
        (tmp_path / "dict").write_text(dictionary_text(target))
        write_seeds(target, tmp_path / "seeds")
        progress, _ = LibFuzzerRun(
            script=REPOSITORY / "fuzz" / f"fuzz_{name}.py",
            seconds=3,
            artifacts=tmp_path / "artifacts",
            corpus=tmp_path / "corpus",
            seeds=tmp_path / "seeds",
            dictionary=tmp_path / "dict",
            seed=1,
        ).run(lambda p: None)
        assert progress.coverage
    assert progress.execs > 20
    assert not findings_in(tmp_path / "artifacts")


# ------------------------------------------------------------------- regressions


@pytest.mark.parametrize("path", sorted(REGRESSIONS.glob("*.json")), ids=lambda p: p.stem)
def test_triaged_regressions_pass_the_oracles(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    target = build_target(record["target"])
    replayed = regression_input(record)
    check(replayed, target.subject, target.policy(replayed.dialect))
