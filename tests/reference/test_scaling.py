"""The reference's work stays linear in the output: a ratio within one run, generous margin.

Speed itself is measured in benchmarks/; here only the growth is asserted: 8× more output
must cost far less than the 64× a quadratic parser would need (``support.LINEAR_RATIO``),
in CPU time of this process, best of interleaved runs (``support.cpu_ratio_of``). One
module for every dialect and workload, one way of timing.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from toolconform.harness.adapters import load_in_process
from toolconform.harness.bench.measure import reference_result, stream_reference, verify
from toolconform.harness.bench.workloads import (
    Workload,
    aligned,
    fenced_examples,
    held_string,
    long_string,
    many_short_strings,
    markup_string,
    near_miss_prose,
    reasoning_and_content,
)
from toolconform.harness.chunkings import Chunking
from toolconform.strategies.chunking import fixed_size

from ..support import LINEAR_RATIO, cpu_ratio_of

#: Characters per chunk: about one real token.
TOKEN = 4


def verified(workload: Workload) -> Workload:
    """``workload`` once its 4-character stream is known to equal the complete parse."""
    reference = load_in_process("reference")
    assert verify(reference, workload, aligned(workload, TOKEN), reference_result(workload)) is None
    return workload


def cpu_ratio(
    small: Workload,
    large: Workload,
    cut: Callable[[Workload], tuple[str, ...]] = lambda w: aligned(w, TOKEN).chunks,
) -> float:
    """CPU time of streaming ``large`` over that of ``small`` through the reference core, in
    ``cut``'s chunks (default: about one token each, no protocol tag cut)."""
    small_chunks, large_chunks = cut(small), cut(large)
    return cpu_ratio_of(
        lambda: stream_reference(small, small_chunks), lambda: stream_reference(large, large_chunks)
    )


def written_file(workload: Workload) -> str:
    """The ``content`` argument of the workload's one ``write_file`` call."""
    (call,) = reference_result(workload).calls
    return json.loads(call.arguments)["content"]


# ------------------------------------------------------------------ one argument, grown
#: A workload at two sizes, 8× apart.
LADDERS = {
    "long-string": (long_string, 8_000, 64_000),  # characters of the value
    "short-strings": (many_short_strings, 2_048, 16_384),  # strings in one list
}
#: A JSON envelope, the section-token, Mistral and Harmony dialects, and the Python call
#: literals (quotes, brackets and braces inside the literals of the short strings).
DIALECTS = [
    "qwen3",
    "deepseek_v3",
    "deepseek_v31",
    "kimi_k2",
    "mistral",
    "gpt_oss",
    "pythonic",
    "llama4_pythonic",
    "lfm2",
    "olmo3",
]


@pytest.mark.parametrize("shape", list(LADDERS))
@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_long_argument_streams_in_linear_time(dialect: str, shape: str) -> None:
    workload, small_size, large_size = LADDERS[shape]
    small, large = verified(workload(dialect, small_size)), verified(workload(dialect, large_size))
    if shape == "long-string":
        assert len(written_file(large)) == large_size
    else:
        (call,) = reference_result(large).calls
        assert len(json.loads(call.arguments)["items"]) == large_size
    ratio = cpu_ratio(small, large)
    assert ratio < LINEAR_RATIO, f"{dialect} {shape}: time(8×)/time(1×) = {ratio:.1f}"


def test_a_long_analysis_message_is_linear() -> None:
    """Harmony's reasoning is an analysis message: a long one before the answer."""
    small = verified(reasoning_and_content("gpt_oss", 8_000))
    large = verified(reasoning_and_content("gpt_oss", 64_000))
    ratio = cpu_ratio(small, large)
    assert ratio < LINEAR_RATIO, f"time(64k)/time(8k) = {ratio:.1f}"


# ------------------------------------------------------------------ XML-like and DSML values
@pytest.mark.parametrize("dialect", ["qwen3_coder", "deepseek_v32"])
def test_streamed_markup_in_a_long_string_is_linear(dialect: str) -> None:
    small, large = verified(markup_string(dialect, 8_000)), verified(markup_string(dialect, 64_000))
    assert written_file(large).count("<") == len(range(44, 64_000, 89))
    ratio = cpu_ratio(small, large)
    assert ratio < LINEAR_RATIO, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


def test_held_long_value_is_linear() -> None:
    small = verified(held_string("qwen3_coder", 8_000))
    large = verified(held_string("qwen3_coder", 64_000))
    # Held whole, then decoded: the value is the text, not its JSON spelling.
    assert len(written_file(large)) == 64_000
    ratio = cpu_ratio(small, large)
    assert ratio < LINEAR_RATIO, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


#: Stretches whose end never arrives: a name, a key, a tag header, the text after an open
#: tag that does not yet show whether it begins a payload. Each must be searched once, not
#: from its start with every chunk (fuzz finding xml-e77390b24e: a GLM name that never
#: ended), and held once, not copied into the pending text again. dialect, head, repeated.
UNENDED = {
    "glm47-name": ("glm47", "<tool_call>get_weather</tool_c", "<tool_cal"),
    # Before the payload is confirmed: the word that may be a GLM name, layout after the
    # open tag (held by the verdict, not copied with every chunk).
    "glm47-undecided-name": ("glm47", "<tool_call>get", "_weather"),
    "glm45-undecided-name": ("glm45", "<tool_call>get", "_weather"),
    "qwen3_coder-layout": ("qwen3_coder", "<tool_call>", "\n"),
    "glm47-key": ("glm47", "<tool_call>get_weather<arg_key>ci", "ty"),
    "qwen3_coder-function": ("qwen3_coder", "<tool_call>\n<function=get", "_weather"),
    "qwen3_coder-parameter": ("qwen3_coder", "<tool_call>\n<function=f>\n<parameter=ci", "ty"),
    "minimax_m2-invoke": ("minimax_m2", '<minimax:tool_call>\n<invoke name="get', "_weather"),
    "deepseek_v32-invoke": (
        "deepseek_v32",
        '\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get',
        "_weather",
    ),
    "deepseek_v32-parameter": (
        "deepseek_v32",
        '\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="ci',
        "ty",
    ),
}
#: Tighter than ``LINEAR_RATIO``: copying the held stretch with every chunk alone made 8×
#: the text cost 13–21×.
UNENDED_RATIO = 16


def unended(dialect: str, head: str, unit: str, size: int) -> Workload:
    text = head + unit * (size // len(unit))
    return verified(Workload(dialect, "unended", size, text, {"thinking": False}))


@pytest.mark.parametrize("name", list(UNENDED))
def test_a_stretch_whose_end_never_arrives_is_searched_once(name: str) -> None:
    """Searched once and held once: the searched part is consumed into the parser's
    state, so it is neither searched again nor copied into the pending text with every
    chunk."""
    small, large = (unended(*UNENDED[name], size) for size in (16_000, 128_000))
    ratio = cpu_ratio(small, large)
    assert ratio < UNENDED_RATIO, f"time(128k)/time(16k) = {ratio:.1f}: super-linear"


#: Headers and names with a space inside, cut at every character of the names: the part
#: of a stretch that is held resumes exactly where it stopped (no whitespace skipped, no
#: tag read again).
SPLIT_HEADERS = {
    "qwen3_coder": "<tool_call>\n<function=get weather>\n<parameter=the city>\nOslo\n"
    "</parameter>\n</function>\n</tool_call>",
    "minimax_m2": '</think><minimax:tool_call>\n<invoke name="get weather">\n'
    '<parameter name="the city">Oslo</parameter>\n</invoke>\n</minimax:tool_call>',
    # A GLM name is one word (two are prose): only its key has a space.
    "glm47": "<tool_call>get_weather<arg_key>the city</arg_key><arg_value>Oslo</arg_value>"
    "</tool_call>",
    "deepseek_v32": '\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get weather">\n'
    '<｜DSML｜parameter name="the city" string="true">Oslo</｜DSML｜parameter>\n'
    "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
}


@pytest.mark.parametrize("dialect", list(SPLIT_HEADERS))
def test_a_held_stretch_resumes_where_it_stopped(dialect: str) -> None:
    text = SPLIT_HEADERS[dialect]
    workload = Workload(dialect, "split-headers", len(text), text, {"thinking": False})
    whole = reference_result(workload)
    function = "get_weather" if dialect == "glm47" else "get weather"
    assert [(c.name, c.arguments) for c in whole.calls] == [(function, '{"the city": "Oslo"}')]
    reference = load_in_process("reference")
    # Every cut inside the two names (a cut inside a tag is a cut no tokenizer makes).
    for name in (function, "the city"):
        start = text.index(name)
        for cut in range(start, start + len(name) + 1):
            chunking = Chunking("two-way", (text[:cut], text[cut:]))
            assert verify(reference, workload, chunking, whole) is None, cut


# ------------------------------------------------------------------ the ds2api sieve
@pytest.mark.parametrize("shape", [fenced_examples, near_miss_prose], ids=["cdata", "prose"])
@pytest.mark.parametrize(
    ("chunk_size", "small_size"),
    [(1, 8_000), (4, 8_000), (1 << 20, 16_000)],  # a whole 8k text is favoured by the caches
    ids=["chars", "tokens", "whole"],
)
def test_the_ds2api_sieve_is_linear(
    shape: Callable[[str, int], Workload], chunk_size: int, small_size: int
) -> None:
    """Seed 003 (DESIGN "linear"): chunks cut anywhere, as ds2api's sieve reads any split."""
    small, large = shape("ds2api", small_size), shape("ds2api", 8 * small_size)
    ratio = cpu_ratio(small, large, cut=lambda w: tuple(fixed_size(w.text, chunk_size)))
    assert ratio < LINEAR_RATIO, f"time(8×)/time(1×) = {ratio:.1f}"


# ------------------------------------------------------------------ a stutter of open tags
#: An open tag repeated, then prose: dialect, what comes before the repeats (the channel
#: they are read in), the repeated tag, and the prose. Each repeat is rejected by the same
#: text after the repeats, so all of them are released at the first rejection; released
#: one per rejected block, the rest read again each time, a stutter cost the square of its
#: length — in one chunk as in tokens (fuzz findings json-6783f52aa1, granite_20b_fc, and
#: mistral-a4b571a770).
STUTTERS = {
    "granite_20b_fc": ("granite_20b_fc", "", "<function_call>", " now"),  # the finding
    "qwen3": ("qwen3", "", "<tool_call>", " now"),  # a payload that begins with {
    "glm47": ("glm47", "", "<tool_call>", "get weather"),  # a name, then a tag
    "deepseek_v32": ("deepseek_v32", "", "\n\n<｜DSML｜function_calls>", " now"),
    # Its own verdict skips repeated markers (fuzz finding mistral-a4b571a770).
    "mistral": ("mistral", "", "[TOOL_CALLS]", " is the marker."),
    # In the tool channel a rejected block is dropped, its repeats with it.
    "muse": (
        "muse",
        " to=self<|message|>R<|eom|><|start|>assistant to=f.f<|message|>",
        "<atem:function_calls>",
        " now<|eom|>",
    ),
}


def stutter(dialect: str, head: str, tag: str, prose: str, size: int) -> Workload:
    text = head + tag * (size // len(tag)) + prose
    return verified(Workload(dialect, "stutter", size, text, {"thinking": False}))


@pytest.mark.parametrize("cut", ["tokens", "whole"])
@pytest.mark.parametrize("name", list(STUTTERS))
def test_a_stutter_of_open_tags_before_prose_is_rejected_once(name: str, cut: str) -> None:
    dialect, head, tag, prose = STUTTERS[name]
    small, large = (stutter(dialect, head, tag, prose, size) for size in (4_000, 32_000))
    result = reference_result(large)
    assert not result.calls
    if dialect == "muse":
        assert not result.content  # the tool channel's text is dropped
    else:
        assert result.content == large.text
    if cut == "whole":
        ratio = cpu_ratio(small, large, cut=lambda w: (w.text,))
    else:
        ratio = cpu_ratio(small, large)
    assert ratio < LINEAR_RATIO, f"time(8×)/time(1×) = {ratio:.1f}: super-linear"
