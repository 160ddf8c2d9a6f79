"""Total work stays linear for the XML-like and DSML dialects (a ratio within one run).

8× more output in engine-sized chunks must cost far less than the 64× of a parser that
copies or rescans its pending text; CPU time, interleaved, as in test_reference_scaling.
"""

from __future__ import annotations

import pytest

from toolconform.harness.adapters import load_in_process
from toolconform.harness.bench.measure import reference_result, verify
from toolconform.harness.bench.workloads import Workload, held_string, markup_string
from toolconform.harness.chunkings import Chunking

from .test_reference_scaling import cpu_ratio, verified, written_file

#: The XML-like format and the DSML one whose long values are timed.
DIALECTS = ("qwen3_coder", "deepseek_v32")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_streamed_long_string_is_linear(dialect: str) -> None:
    small, large = verified(markup_string(dialect, 8_000)), verified(markup_string(dialect, 64_000))
    assert written_file(large).count("<") == len(range(44, 64_000, 89))
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


def test_held_long_value_is_linear() -> None:
    small = verified(held_string("qwen3_coder", 8_000))
    large = verified(held_string("qwen3_coder", 64_000))
    # Held whole, then decoded: the value is the text, not its JSON spelling.
    assert len(written_file(large)) == 64_000
    ratio = cpu_ratio(small, large)
    assert ratio < 24, f"time(64k)/time(8k) = {ratio:.1f}: super-linear"


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


def unended(dialect: str, head: str, unit: str, size: int) -> Workload:
    text = head + unit * (size // len(unit))
    return verified(Workload(dialect, "unended", size, text, {"thinking": False}))


@pytest.mark.parametrize("name", list(UNENDED))
def test_a_stretch_whose_end_never_arrives_is_searched_once(name: str) -> None:
    """Searched once and held once: the searched part is consumed into the parser's
    state, so it is neither searched again nor copied into the pending text with every
    chunk (the copy alone made 8× the text cost 13–21×)."""
    small, large = (unended(*UNENDED[name], size) for size in (16_000, 128_000))
    ratio = cpu_ratio(small, large)
    assert ratio < 16, f"time(128k)/time(16k) = {ratio:.1f}: super-linear"


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
