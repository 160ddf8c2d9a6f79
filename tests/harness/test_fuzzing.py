"""The fuzzing layer: byte decoding, oracles, seeds, dictionaries, fuzzers and triage."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from toolconform.harness import scaling
from toolconform.harness.adapters import Adapter, SessionSkipped, load_in_process
from toolconform.harness.cases import load_cases
from toolconform.harness.checks import BY_ID, CERTIFIED, FUZZ_TIER
from toolconform.harness.corpus_build import read_sources
from toolconform.harness.fuzzing import oracles, runs
from toolconform.harness.fuzzing.artifacts import (
    dictionary_entries,
    dictionary_text,
    encode,
    seed_inputs,
    write_seeds,
)
from toolconform.harness.fuzzing.decoding import (
    MAX_CHUNKS,
    NO_TOOLS_FIELD,
    FuzzInput,
    prefix_points,
)
from toolconform.harness.fuzzing.fuzzers import (
    LibFuzzerRun,
    Progress,
    findings_in,
    parse_status,
    run_hypothesis,
)
from toolconform.harness.fuzzing.grammars import GRAMMARS, RELEASE, grammar_of, target_names
from toolconform.harness.fuzzing.oracles import Finding, Policy, check, is_subsequence
from toolconform.harness.fuzzing.provider import ByteProvider, ByteWriter
from toolconform.harness.fuzzing.target import Target, build_target
from toolconform.harness.fuzzing.triage import (
    failure_of,
    minimise,
    regression_input,
    replay,
    triage,
    write,
)
from toolconform.reference import dialect_names, get_dialect
from toolconform.strategies.chunking import tag_aligned_boundaries

from .. import fuzz_planted

REPOSITORY = Path(__file__).resolve().parents[2]
REGRESSIONS = REPOSITORY / "fuzz" / "regressions"
FAMILY_TARGETS = [name for name in target_names() if name in GRAMMARS]


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


@pytest.mark.parametrize("name", ["json", "xml", "ds2api"])
def test_every_execution_is_cut_into_few_chunks(name):
    """The input's own chunking stays cheap; every boundary at once is an expensive oracle."""
    target = build_target(name)
    inputs = [target.decode(d) for d in random_inputs(300, seed=4, size=2000)]
    assert max(len(i.chunks) for i in inputs) <= MAX_CHUNKS
    assert max(len(i.text) for i in inputs) > 4 * MAX_CHUNKS  # long enough to matter


def test_prefix_points_are_where_a_parser_holds_text_back():
    protocol = get_dialect(fuzz_planted.PLANTED).protocol_tags()
    text = "Hi <tool_call>x</tool_call> <tool"
    allowed = tag_aligned_boundaries(text, protocol)
    points = prefix_points(text, protocol, allowed)
    assert {3, 4, 8, 13, 14, 15, 17, 21, 26, 27, 28, 29} <= set(points) <= set(allowed)
    assert 5 not in points  # inside "<tool", after no declared prefix


def test_scaling_multiplies_only_the_repetitions():
    target = build_target("json")
    scalable = [d for d in random_inputs(400, seed=3) if target.decode(d).scalable]
    assert scalable
    for data in scalable[:10]:
        small, large = target.decode(data), target.decode(data, 8)
        assert len(small.pieces) == len(large.pieces)
        for piece, grown, repeat in zip(small.pieces, large.pieces, small.repeats, strict=True):
            assert (grown != piece) <= repeat


@pytest.mark.parametrize("name", ["json", "xml", "ds2api"])
def test_well_formed_inputs_know_their_calls(name):
    target = build_target(name)
    clean = [target.decode(d) for d in random_inputs(300, seed=5)]
    clean = [i for i in clean if i.clean and i.expected_calls]
    assert len(clean) >= 10
    for fuzz_input in clean[:20]:
        result = runs.complete(
            target.adapter, fuzz_input.dialect, fuzz_input.request, fuzz_input.text
        )
        got = [(call.name, json.loads(call.arguments)) for call in result.calls]
        assert got == list(fuzz_input.expected_calls)


def test_every_dialect_is_fuzzed_by_the_target_of_its_grammar():
    """Targets are derived from the renderers' grammars: no registered dialect is left out."""
    members = [d for grammar in GRAMMARS.values() for d in grammar.dialects]
    assert sorted(members) == sorted(dialect_names())
    assert grammar_of("deepseek_r1") is GRAMMARS["reasoning"]
    assert GRAMMARS["ds2api"].dialects == ("ds2api",)
    assert set(build_target("adapter").dialects) == set(dialect_names())


def test_well_formed_blocks_are_the_renderers_in_every_layout():
    target = build_target("ds2api")
    texts = {"".join(target.decode(d).pieces) for d in random_inputs(400, seed=9)}
    assert any("<|DSML|tool_calls>" in text for text in texts)
    assert any("<tool_calls>\n  <invoke" in text for text in texts)  # the legacy XML variant


# ------------------------------------------------------------------- oracles


def call(name: str, arguments: str = "{}", index: int = 0) -> dict:
    return {"index": index, "id": f"c{index}", "type": "function",
            "function": {"name": name, "arguments": arguments}}  # fmt: skip


def message(content: str = "", calls: tuple[tuple[str, str], ...] = ()) -> dict:
    return {"content": content, "tool_calls": [call(n, a, i) for i, (n, a) in enumerate(calls)]}


def fake_adapter(
    complete: dict,
    streamed: dict | None = None,
    *,
    deltas: list[dict] | None = None,
    raises: bool = False,
    skips: bool = False,
) -> Adapter:
    """An adapter answering fixed results, to see each oracle fail on its own: ``complete``
    for the complete parse and the whole text in one chunk, ``streamed`` (or the raw
    ``deltas``) for any other chunking."""

    class Session:
        def __init__(self) -> None:
            self.chunks = 0

        def feed(self, text, token_ids=None):
            self.chunks += 1
            return []

        def finish(self):
            if deltas is not None and self.chunks > 1:
                return deltas
            return [complete if self.chunks <= 1 or streamed is None else streamed]

        def parse(self, text):
            if raises:
                raise IndexError("boom")
            return complete

    def factory(dialect, request):
        if skips:
            raise SessionSkipped("not this one")
        return Session()

    return Adapter.from_factory("fake", factory)


def fuzz_input(text: str, chunks: tuple[str, ...] | None = None, **fields) -> FuzzInput:
    return FuzzInput("qwen3", {}, chunks or (text,), aligned=True, **fields)


DROP = Policy(get_dialect("qwen3"), "drop")
RELEASES = Policy(get_dialect("ds2api"), RELEASE)


@pytest.mark.parametrize(
    ("adapter", "given", "policy", "expected_check"),
    [
        (fake_adapter(message("a"), raises=True), fuzz_input("ab"), DROP, "run.no-error"),
        (fake_adapter({"content": 3}), fuzz_input("ab"), DROP, "run.contract"),
        (
            fake_adapter(message("ab"), message("a")),
            fuzz_input("ab", ("a", "b")),
            DROP,
            "result.chunking-invariant",
        ),
        (fake_adapter(message("ba")), fuzz_input("ab"), DROP, "fuzz.no-invented-text"),
        (fake_adapter(message("", (("f", "{}"),))), fuzz_input("ab"), DROP, "fuzz.no-invented-call"),
        (fake_adapter(message("b")), fuzz_input("ab"), RELEASES, "fuzz.no-half-swallow"),
        (
            fake_adapter(message("")),
            fuzz_input("ab", clean=True, expected_calls=(("f", {}),)),
            DROP,
            "result.calls",
        ),
        (
            fake_adapter(message("<tool_call>")),
            fuzz_input("<tool_call>", clean=True),
            DROP,
            "text.no-protocol-leak",
        ),
        (
            fake_adapter(
                message("", (("f", "{}"),)),
                deltas=[{"tool_calls": [call("f"), {"index": 0, "function": {"name": "f"}}]}],
            ),
            fuzz_input("f", ("f", "")),
            DROP,
            "calls.name-once",
        ),
        (
            fake_adapter(message("", (("f", "{}"),)), deltas=[{"tool_calls": [call("f", index=1)]}]),
            fuzz_input("f", ("f", "")),
            DROP,
            "calls.dense-indices",
        ),
        (
            fake_adapter(
                message("", (("f", "{}"),)),
                deltas=[{"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]},
                        {"tool_calls": [{"index": 0, "id": "c0", "type": "function", "function": {"name": "f"}}]}],
            ),
            fuzz_input("f", ("f", "")),
            DROP,
            "calls.identity-first",
        ),
    ],
)  # fmt: skip
def test_each_oracle_fails_on_its_own_fault(adapter, given, policy, expected_check):
    with pytest.raises(Finding) as raised:
        check(given, adapter, policy)
    assert raised.value.check == expected_check
    assert raised.value.check in BY_ID


GLIMMER = Policy(get_dialect("muse_glimmer"), "drop")
#: Two reasoning messages and no newline anywhere: Muse Glimmer joins their bodies with one.
TWO_REASONING_MESSAGES = "to=self<|message|>A<|eom|><|start|>assistant to=self<|message|>B"


def test_a_dialects_declared_reasoning_separator_is_not_invented_text():
    """Found by ``fuzz run adapter`` (seeds 1 and 7): the reference's Muse Glimmer reasoning
    ``A\nB`` was reported as invented text, though the newline is the dialect's declared
    join; any other character the output lacks still is."""
    given = replace(fuzz_input(TWO_REASONING_MESSAGES), dialect="muse_glimmer")
    check(given, load_in_process("reference"), GLIMMER)
    invents = fake_adapter({"reasoning_content": "A\nB!"})
    with pytest.raises(Finding) as raised:
        check(given, invents, GLIMMER)
    assert raised.value.check == "fuzz.no-invented-text"


def test_the_fuzz_oracles_are_catalogue_checks_certify_reports_leave_out():
    fuzz = [check for check in BY_ID.values() if check.tier == FUZZ_TIER]
    assert {c.id for c in fuzz} == {
        "fuzz.no-invented-text",
        "fuzz.no-invented-call",
        "fuzz.no-half-swallow",
    }
    assert not set(fuzz) & set(CERTIFIED)
    with pytest.raises(ValueError, match="not a check of the catalogue"):
        Finding("fuzz.made-up", "")


def test_streamed_and_complete_results_are_compared_as_the_checks_compare_them():
    """Arguments are JSON values whose key order counts, not text: spacing is no finding."""
    spaced = fake_adapter(message("", (("f", '{"a": 1}'),)), message("", (("f", '{"a":1}'),)))
    check(fuzz_input("f", ("f", "")), spaced, DROP)
    reordered = fake_adapter(
        message("", (("f", '{"a": 1, "b": 2}'),)), message("", (("f", '{"b": 2, "a": 1}'),))
    )
    with pytest.raises(Finding, match="key order"):
        check(fuzz_input("f", ("f", "")), reordered, DROP)


def test_a_session_the_adapter_refuses_is_not_judged():
    check(fuzz_input("ab"), fake_adapter(message("zz"), skips=True), DROP)


def test_a_name_spelled_with_json_escapes_is_not_invented():
    escaped = '{"name": "get_w\\u00e9", "arguments": {}}'
    check(fuzz_input(escaped), fake_adapter(message("", (("get_wé", "{}"),))), DROP)
    with pytest.raises(Finding):
        check(fuzz_input(escaped), fake_adapter(message("", (("get_wè", "{}"),))), DROP)


def test_arbitrary_cuts_only_have_to_run():
    adapter = fake_adapter(message("ab"), message("a"))
    check(FuzzInput("qwen3", {}, ("a", "b"), aligned=False), adapter, DROP)


def test_every_boundary_at_once_is_an_expensive_oracle():
    """An input cut in two passes; the same text cut at every boundary shows the fault,
    which only the thorough judgement (a sample of the fuzzing loop) runs."""
    adapter = fake_adapter(message("abc"), deltas=[{"content": "ab"}])
    chunked = fuzz_input("abc", ("abc",))
    check(chunked, adapter, DROP, thorough=False)
    with pytest.raises(Finding) as raised:
        check(chunked, adapter, DROP, thorough=True)
    assert raised.value.check == "result.chunking-invariant"
    assert "streamed in 3 chunks" in raised.value.message


def test_is_subsequence():
    assert is_subsequence("ace", "abcde")
    assert not is_subsequence("aec", "abcde")
    assert is_subsequence("", "")
    assert is_subsequence("abcxyz", "abc-xyz")
    assert not is_subsequence("abcc", "abc")
    rng = random.Random(3)
    for _ in range(500):
        text = "".join(rng.choice("ab") for _ in range(rng.randrange(8)))
        part = "".join(rng.choice("ab") for _ in range(rng.randrange(5)))
        it = iter(text)
        assert is_subsequence(part, text) == all(c in it for c in part)


# ------------------------------------------------------------------- seeds and dictionaries


@pytest.mark.parametrize("name", FAMILY_TARGETS)
def test_seeds_reproduce_corpus_cases_and_pass_the_oracles(name):
    target = build_target(name)
    cases = {case.id: case for case in load_cases()}
    seeds = seed_inputs(target)
    assert seeds
    for seed_id, data in seeds.items():
        decoded = target.decode(data)
        if not seed_id.startswith("block:"):
            case = cases[seed_id.removesuffix("+cuts")]
            assert (decoded.dialect, decoded.text) == (case.dialect, case.output)
            assert decoded.aligned
        target.judge(data)


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


#: A call the planted off-by-one parser loses when a chunk ends inside ``<tool_call>``
#: (whole in one chunk it parses right). An unterminated block would not do: it comes back
#: whole as text either way.
WELL_FORMED_CALL = 'Hi <tool_call>{"name": "x", "arguments": {}}</tool_call>'


def planted_target(dialect: str) -> Target:
    return Target("planted", (dialect,), GRAMMARS["json"].fragments, load_in_process("reference"))


#: The runs (executions) a planted bug must be found within (the off-by-one takes about a hundred,
#: the quadratic parser about 450, from seed 0), and a time cap no run reaches. A budget of
#: executions, not seconds: the same inputs on every machine, however loaded.
BUDGET = 2_000
CAP = 600


def test_planted_off_by_one_is_found_within_the_smoke_budget(tmp_path):
    """A copy of a dialect whose pending suffix is one character short: found in a few
    hundred inputs; the same dialect without the bug passes the same run."""
    found = run_hypothesis(
        planted_target(fuzz_planted.PLANTED),
        CAP,
        tmp_path / "bug",
        lambda p: None,
        stop_after=1,
        runs=BUDGET,
    )
    assert found.findings, f"not found in {found.execs} inputs"
    checks = set()
    for path in found.findings:
        with pytest.raises(Finding) as raised:
            planted_target(fuzz_planted.PLANTED).judge(path.read_bytes())
        checks.add(raised.value.check)
    assert checks & {"result.chunking-invariant", "fuzz.no-invented-text"}
    control = run_hypothesis(
        planted_target(fuzz_planted.CONTROL), CAP, tmp_path / "control", lambda p: None,
        runs=found.execs,
    )  # fmt: skip
    assert control.execs == found.execs and not control.findings


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
        planted_target(fuzz_planted.PLANTED).judge(progress.findings[0].read_bytes())


def test_planted_quadratic_parser_is_found_by_the_sampled_linear_time_oracle(tmp_path):
    """Right results in super-linear time: only the expensive linear-time oracle sees it,
    and the fuzzing loop runs it on a sample of the inputs. Still found within the smoke
    budget; the cheap oracles alone pass the same input."""
    target = planted_target(fuzz_planted.QUADRATIC)
    found = run_hypothesis(target, CAP, tmp_path / "bug", lambda p: None, stop_after=1, runs=BUDGET)
    assert found.findings, f"not found in {found.execs} inputs"
    data = found.findings[0].read_bytes()
    fuzz_input = target.decode(data)
    assert fuzz_input.thorough and fuzz_input.scalable
    finding = replay(target, data)
    assert finding is not None and finding.check == "perf.linear"
    check(fuzz_input, target.adapter, target.policy(fuzz_planted.QUADRATIC), thorough=False)


def test_a_linear_parser_whose_repetitions_are_dearer_than_the_rest_is_not_a_finding(
    monkeypatch,
):
    """Growth is measured by the text's length, and time by what the parser does with it.
    A linear parser that spends a hundred times more per character of the repeated part than
    of the rest (prose before a tool shell it scans again with every chunk) grows in time
    with the repetitions: ×16 of them is ×5.4 of this text and ×15.6 of its time, size^1.6 —
    the two sizes alone judged it super-linear (fuzz finding ``crash-0b22a868…`` of
    ``fuzz run ds2api`` was such a finding on the reference, 2026-12-07). One step further
    the time grows as the text does, and that step decides; a quadratic parser grows as
    size^2 at both steps and stays a finding. Times are a model here, not measured."""

    def grown(k: int) -> FuzzInput:
        return FuzzInput("qwen25", {}, ("p" * 1000 + "r" * (413 * k),), aligned=True)

    def linear(fuzz_input: FuzzInput, adapter: Adapter, repeat: int = 2) -> float:
        return 1e-6 * fuzz_input.text.count("p") + 1e-4 * fuzz_input.text.count("r")

    def quadratic(fuzz_input: FuzzInput, adapter: Adapter, repeat: int = 2) -> float:
        return 1e-8 * len(fuzz_input.text) ** 2

    adapter = load_in_process("reference")
    small, large = grown(1), grown(oracles.SCALE)
    growth = len(large.text) / len(small.text)
    two = scaling.two_sizes(linear(small, adapter), linear(large, adapter), growth)
    assert growth >= oracles.MIN_GROWTH and two.superlinear(floor=scaling.NOISE_FLOOR)
    monkeypatch.setattr(oracles, "cost", linear)
    assert oracles.growth_verdict(small, grown, oracles.SCALE, adapter) is None
    monkeypatch.setattr(oracles, "cost", quadratic)
    verdict = oracles.growth_verdict(small, grown, oracles.SCALE, adapter)
    assert verdict is not None and len(verdict.points) == 3
    assert verdict.exponent == pytest.approx(2.0)
    assert "size^2.00" in verdict.describe()


def test_seeds_are_judged_by_every_oracle(tmp_path):
    """A seed whose fault only the expensive oracles show (its one chunk is fine; cut at
    every boundary it is not) is found at once, though it does not ask for them."""
    seed = encode(0, 1, (NO_TOOLS_FIELD, 0, 0), WELL_FORMED_CALL)
    target = planted_target(fuzz_planted.PLANTED)
    assert not target.decode(seed).thorough
    target.test_one_input(seed)
    progress = run_hypothesis(
        target, 5, tmp_path / "artifacts", lambda p: None, seeds=[seed], stop_after=1
    )
    assert progress.findings and progress.findings[0].read_bytes() == seed


def test_a_loop_judged_beside_leaves_its_sample_to_the_judge(monkeypatch):
    """Under ``fuzz run`` libFuzzer's loop runs the cheap oracles only (``sample`` off): an
    input of its sample whose fault only the expensive oracles show passes there, and the
    judge beside it, which runs every oracle, fails it."""
    target = planted_target(fuzz_planted.PLANTED)
    seed = encode(0, 1, (NO_TOOLS_FIELD, 0, 0), WELL_FORMED_CALL)
    sampled = replace(target.decode(seed), thorough=True)
    monkeypatch.setattr(target, "decode", lambda data, scale=1: sampled)
    with pytest.raises(Finding):
        target.test_one_input(seed)  # a loop that judges its own sample
    target.sample = False
    target.test_one_input(seed)
    assert target.fails(seed, 30)


def test_libfuzzer_inputs_kept_for_coverage_are_judged_by_every_oracle(tmp_path):
    """The seeds and each new corpus input are judged once, as they appear; a failing one
    is written as a finding."""
    run = LibFuzzerRun(
        script=REPOSITORY / "fuzz" / "fuzz_json.py",
        seconds=1,
        artifacts=tmp_path / "artifacts",
        corpus=tmp_path / "corpus",
        seeds=tmp_path / "seeds",
        dictionary=tmp_path / "dict",
        judge=lambda data: data == b"bad",
    )
    for folder in (run.seeds, run.corpus):
        folder.mkdir()
    (run.seeds / "a").write_bytes(b"good")
    judged: set[str] = set()
    progress = Progress()
    assert not run._judge_new(judged, progress)
    (run.corpus / "b").write_bytes(b"bad")
    assert run._judge_new(judged, progress)
    assert findings_in(run.artifacts)[0].read_bytes() == b"bad"
    assert not run._judge_new(judged, progress)  # each input once
    assert judged == {"a", "b"} and progress.thorough == 2


def test_a_finding_only_every_boundary_shows_is_minimised_from_that_chunking():
    target = planted_target(fuzz_planted.PLANTED)
    one_chunk = FuzzInput(fuzz_planted.PLANTED, {}, (WELL_FORMED_CALL,), aligned=True)
    assert failure_of(target, one_chunk, thorough=False) is None
    finding = failure_of(target, one_chunk)
    assert finding is not None and finding.check == "result.chunking-invariant"
    minimal = minimise(target, one_chunk, finding.check, seconds=20)
    assert len(minimal.chunks) > 1
    again = failure_of(target, minimal, thorough=False)
    assert again is not None and again.check == finding.check


def test_planted_quadratic_parser_is_found_by_libfuzzer_and_the_coverage_judge(
    tmp_path, monkeypatch
):
    """Under libFuzzer the expensive oracles judge the sample and every input kept for new
    coverage (in this process): the quadratic parser is found, and the plain run stops."""
    pytest.importorskip("atheris")
    monkeypatch.setenv("TOOLCONFORM_FUZZ_ADAPTER", "tests.fuzz_planted:factory")
    monkeypatch.setenv("TOOLCONFORM_FUZZ_DIALECTS", fuzz_planted.QUADRATIC)
    monkeypatch.setenv("PYTHONPATH", str(REPOSITORY))
    target = planted_target(fuzz_planted.QUADRATIC)
    (tmp_path / "dict").write_text(dictionary_text(target))
    run = LibFuzzerRun(
        script=REPOSITORY / "fuzz" / "fuzz_adapter.py",
        seconds=60,
        artifacts=tmp_path / "artifacts",
        corpus=tmp_path / "corpus",
        seeds=tmp_path / "seeds",
        dictionary=tmp_path / "dict",
        seed=1,
        judge=lambda data: target.fails(data, 30),
    )
    progress, code = run.run(lambda p: None)
    assert progress.findings, f"not found in {progress.execs} inputs"
    assert code != 0  # the plain run stopped at its first finding, not at its time limit
    finding = replay(target, progress.findings[0].read_bytes())
    assert finding is not None and finding.check == "perf.linear"


def test_triage_minimises_a_planted_finding_into_a_corpus_case(tmp_path):
    target = planted_target(fuzz_planted.PLANTED)
    run = run_hypothesis(
        target, CAP, tmp_path / "artifacts", lambda p: None, stop_after=1, runs=BUDGET
    )
    assert run.findings
    data = run.findings[0].read_bytes()
    triaged = triage(target, data, seconds=30)
    assert triaged is not None
    assert len(triaged.minimal.text) <= len(triaged.original.text)
    assert len(triaged.minimal.chunks) <= max(2, len(triaged.original.chunks))
    with pytest.raises(Finding) as again:  # the minimal input still fails the same oracle
        check(triaged.minimal, target.adapter, target.policy(fuzz_planted.PLANTED))
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


#: Executions of each target's smoke run.
SMOKE_RUNS = 1500


@pytest.mark.parametrize("name", target_names())
def test_smoke_fuzz(name, tmp_path):
    """A few seconds of every target: under libFuzzer when atheris is installed (CI's
    ``fuzz`` extra), else under the Hypothesis fuzzer. No finding may appear.

    Either runs a fixed number of executions from a fixed seed, so every machine tries the
    same inputs: a finding fails the commit that brought it, on every run."""
    target = build_target(name)
    try:
        import atheris  # noqa: F401
    except ImportError:
        progress = run_hypothesis(
            target, CAP, tmp_path / "artifacts", lambda p: None, seed=1, runs=SMOKE_RUNS // 10
        )
    else:
        (tmp_path / "dict").write_text(dictionary_text(target))
        write_seeds(target, tmp_path / "seeds")
        progress, _ = LibFuzzerRun(
            script=REPOSITORY / "fuzz" / f"fuzz_{name}.py",
            seconds=300,  # a cap the runs never reach: a few seconds each, idle
            artifacts=tmp_path / "artifacts",
            corpus=tmp_path / "corpus",
            seeds=tmp_path / "seeds",
            dictionary=tmp_path / "dict",
            seed=1,
            runs=SMOKE_RUNS,
        ).run(lambda p: None)
        assert progress.coverage
        assert progress.execs >= SMOKE_RUNS
    assert progress.execs > 20
    found = findings_in(tmp_path / "artifacts")
    # Say what was found, so that a CI log alone is enough to reproduce it.
    assert not found, [(path.read_bytes(), replay(target, path.read_bytes())) for path in found]


# ------------------------------------------------------------------- regressions


@pytest.mark.parametrize("path", sorted(REGRESSIONS.glob("*.json")), ids=lambda p: p.stem)
def test_triaged_regressions_pass_the_oracles(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    target = build_target(record["target"])
    replayed = regression_input(record)
    check(replayed, target.adapter, target.policy(replayed.dialect))
