"""The mutation suite: copies of the reference parser with one planted fault each.

Each mutant is the reference's source with one line changed, loaded as a package of its own
and certified (quick mode, token tier) on its dialect's corpus cases. A mutant is *killed*
when a case fails a gating check. Every mutant must be killed: one that survives shows a
case or a check missing (every plant that survives becomes a case or a check),
and is added here only with the case or check that kills it.

Plants left out, with why: a tag that is one token in the dialect's tokenizer has no
boundary inside it (a prefix-holding plant is planted where the tag is several tokens); an
empty name is dropped either way; a choice an ``impl`` case leaves open (the first of two
``name`` fields, Llama 3's ``arguments`` alias, an array read from a schema with ``items``
but no type) is informative, never gating; and some repairs of malformed input are the
reference's choice with no case yet to say the engines agree (a missing colon in an
envelope, 1e400 for a number parameter, CRLF layout around an XML value): pinning them is
for the next differential replay. A plant that only makes the reference slow (a verdict that
does not record a stutter of open tags) is killed by ``perf.linear`` on a pathological case,
which this suite does not run: tests/reference/test_scaling.py holds the reference to it.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import toolconform.reference
from toolconform.harness.adapters import Adapter
from toolconform.harness.adapters.reference import ReferenceSession
from toolconform.harness.cases import load_cases
from toolconform.harness.chunkings import ENDINGS
from toolconform.harness.execution import CaseExecutor
from toolconform.harness.report import GATING_LEVELS

REFERENCE = Path(toolconform.reference.__file__).parent


@dataclass(frozen=True)
class Mutant:
    name: str
    #: The file of the reference it changes, relative to the package.
    module: str
    original: str
    mutated: str
    #: The dialect whose cases must kill it.
    dialect: str


MUTANTS = [
    Mutant(
        "unknown-names-kept",
        "tool_parser.py",
        "if not name or (self._allowed is not None and name not in self._allowed):",
        "if not name:",
        "qwen25",
    ),
    Mutant(
        "indices-skip",
        "tool_parser.py",
        "self._next_index += 1",
        "self._next_index += 2",
        "qwen25",
    ),
    Mutant(
        "one-id-for-all",
        "tool_parser.py",
        'self._call_id or f"call_{index}"',
        'self._call_id or "call_0"',
        "qwen25",
    ),
    Mutant(
        "arguments-before-name-dropped",
        "tool_parser.py",
        "deltas.append(DeltaToolCall(index, arguments=piece))",
        "pass",
        "qwen25",
    ),
    Mutant(
        "tag-prefix-not-held",
        "tags.py",
        "if end - len(prefix) >= start and text.endswith(prefix):",
        "if False:",
        "deepseek_v32",
    ),
    Mutant(
        "held-text-not-released-at-the-end",
        "response_parser.py",
        "end = len(pending) if final else stable_prefix_end(pending, self._plain_prefixes, pos)",
        "end = stable_prefix_end(pending, self._plain_prefixes, pos)",
        "deepseek_v32",
    ),
    Mutant(
        "repeated-think-open-kept",
        "response_parser.py",
        "if pending.startswith(reasoning.open_tag, after):",
        "if False:",
        "qwen3",
    ),
    Mutant(
        "shorter-tag-wins-a-tie",
        "tags.py",
        '(position == best and len(tag) > len(best_tag or ""))',
        '(position == best and len(tag) < len(best_tag or ""))',
        "ernie45",
    ),
    Mutant(
        "thinking-flag-ignored",
        "reasoning.py",
        "return self.request.thinking is True",
        "return self.request.thinking is not False",
        "deepseek_v32",
    ),
    Mutant(
        "xml-value-leading-newline-kept",
        "xml_tool_parser.py",
        """            if text.startswith("\\n", pos):
                pos += 1""",
        """            if False:
                pos += 1""",
        "qwen3_coder",
    ),
    Mutant(
        "json-escape-skips-one",
        "json_scanner.py",
        "i = backslash + 2",
        "i = backslash + 1",
        "qwen25",
    ),
    Mutant(
        "json-terminator-prefix-not-held",
        "json_scanner.py",
        "return -1 if terminator.startswith(text[i:n]) else 0",
        "return 0",
        "hunyuan_a13b",  # a close tag that a token boundary may cut (qwen25's is one token)
    ),
    Mutant(
        "close-tag-tail-dropped",
        "tool_parser.py",
        "return stable_prefix_end(text, self.close_prefixes, consumed)",
        "return len(text)",
        "hunyuan_a13b",
    ),
    Mutant(
        "reasoning-close-prefix-not-held",
        "response_parser.py",
        "len(pending) if final else stable_prefix_end(pending, self._reasoning_prefixes, pos)",
        "len(pending)",
        "olmo3",  # a multi-token </think> (Qwen3's is one token: no boundary inside it)
    ),
    Mutant(
        "dsml-non-json-value-pasted",
        "dsml_tool_parser.py",
        "value = raw if _is_json(raw) else json.dumps(raw, ensure_ascii=False)",
        "value = raw",
        "deepseek_v32",
    ),
    Mutant(
        "kimi-written-id-dropped",
        "dialects/kimi_k2.py",
        "return name, header or None",
        "return name, None",
        "kimi_k2",  # killed by calls.written-id alone
    ),
    Mutant(
        "separators-after-block-lost",
        "response_parser.py",
        "out.append((DeltaMessage(content=held), False))",
        "pass",
        "qwen25",
    ),
    Mutant(
        "stutter-open-tag-not-skipped",
        "tool_parser.py",
        "if not text.startswith(repeat, i):",
        "if True:",
        "qwen3",
    ),
    Mutant(
        "finish-reason-always-tool-calls",
        "transport.py",
        'if engine_reason == "stop" and self.parser.tool_emitted:',
        'if engine_reason == "stop":',
        "qwen25",
    ),
    Mutant(
        "dsml-string-attribute-ignored",
        "dsml_tool_parser.py",
        'return attributes.get("string") == "true"',
        "return True",
        "deepseek_v32",
    ),
    Mutant(
        "xml-held-pieces-lost",
        "xml_tool_parser.py",
        'value = "".join(state.held) + text[pos : end if end >= 0 else n]',
        "value = text[pos : end if end >= 0 else n]",
        "qwen3_coder",
    ),
    Mutant(
        "xml-undecided-whitespace-lost",
        "xml_tool_parser.py",
        "                if first > pos:\n                    state.held.append(text[pos:first])\n                return n, False",
        "                return n, False",
        "qwen3_coder",
    ),
    Mutant(
        "xml-empty-value-invented",
        "xml_tool_parser.py",
        "if tag is not None or value or state.key_emitted:",
        "if True:",
        "qwen3_coder",
    ),
    Mutant(
        "section-between-prefix-not-held",
        "section_tool_parser.py",
        "return stable_prefix_end(text, self._between_prefixes, i)",
        "return n",
        "plamo3",  # PLaMo 3's markers are several tokens
    ),
    Mutant(
        "section-after-prefix-not-held",
        "section_tool_parser.py",
        "return stable_prefix_end(text, self._after_prefixes, i)",
        "return n",
        "plamo3",
    ),
    Mutant(
        "section-header-search-restarts-late",
        "section_tool_parser.py",
        "self._searched = max(0, n - i - self._overlap)",
        "self._searched = max(0, n - i)",
        "plamo3",
    ),
    Mutant(
        "section-empty-arguments-missing",
        "section_tool_parser.py",
        '            self._emit_delta(deltas, arguments="{}")',
        "            pass",
        "deepseek_v3",
    ),
    Mutant(
        "kimi-counter-kept-in-name",
        "dialects/kimi_k2.py",
        "        if colon and counter.isdigit():\n            name = prefix",
        "        if False:\n            name = prefix",
        "kimi_k2",
    ),
    Mutant(
        "glm-function-name-not-stripped",
        "dialects/glm.py",
        "        name = name.strip()\n        if marker in call_ends and not name:",
        "        if marker in call_ends and not name:",
        "glm47",
    ),
    Mutant(
        "glm-key-not-stripped",
        "dialects/glm.py",
        "        name = name.strip()\n        if marker == value_open:",
        "        if marker == value_open:",
        "glm47",
    ),
    Mutant(
        "glm-missing-key-close-value-dropped",
        "dialects/glm.py",
        "            return end + len(marker), name\n",
        "            return end + len(marker), None\n",
        "glm47",
    ),
    Mutant(
        "harmony-preamble-dropped",
        "harmony.py",
        'elif channel == "final" or (channel == "commentary" and recipient is None):',
        'elif channel == "final":',
        "gpt_oss",
    ),
    Mutant(
        "harmony-analysis-as-content",
        "harmony.py",
        '        elif channel == "analysis":\n            self._route = REASONING',
        '        elif channel == "analysis":\n            self._route = CONTENT',
        "gpt_oss",
    ),
    Mutant(
        "mistral-repeated-marker-not-skipped",
        "dialects/mistral.py",
        "                    i += len(_TOOL_CALLS)  # a repeated marker opens the same block\n                    continue",
        "                    break",
        "mistral",
    ),
    Mutant(
        "mistral-call-id-ignored",
        "dialects/mistral.py",
        "                call_id = held or None",
        "                call_id = None",
        "mistral",
    ),
    Mutant(
        "mistral-name-not-stripped",
        "dialects/mistral.py",
        "held = text[i:position].strip()",
        "held = text[i:position]",
        "mistral",
    ),
    Mutant(
        "phi4-parameters-alias-ignored",
        "dialects/phi4_mini_json.py",
        'argument_field_aliases = ("parameters",)',
        "argument_field_aliases = ()",
        "phi4_mini_json",
    ),
    Mutant(
        "json-name-not-unescaped",
        "json_tool_parser.py",
        "            return end, scanstring(text, start + 1)[0]",
        "            return end, text[start + 1 : end - 1]",
        "qwen25",
    ),
    Mutant(
        "json-string-fast-path-ignores-escapes",
        "json_tool_parser.py",
        """if scanner.escape or "\\\\" in text:""",
        """if scanner.escape:""",
        "hermes",  # cut at every character: a chunk ends after a backslash
    ),
    Mutant(
        "json-string-fast-path-ignores-quotes",
        "json_tool_parser.py",
        """if scanner.in_string and '"' not in text:""",
        """if scanner.in_string:""",
        "qwen25",
    ),
    Mutant(
        "stutter-read-again",  # the repeats released, then read again as text
        "response_parser.py",
        "                    pos += len(stutter)",
        "                    pass",
        "granite_20b_fc",
    ),
    Mutant(
        "json-list-envelopes-one-call",
        "json_tool_parser.py",
        "        self._finish_call(deltas)\n        self._phase = _START\n        return False",
        "        self._close_payload(deltas)\n        return True",
        "mistral",
    ),
    Mutant(
        "minimax-stray-text-kept-waiting",
        "dialects/minimax_m2.py",
        "            return skip_stray_text(payload, pos, self.tag_lead), ARG_START",
        "            return None",
        "minimax_m2",
    ),
    Mutant(
        "markup-single-quotes-kept",
        "markup.py",
        'text[0] in "\\"\'"',
        "text[0] in '\"'",
        "minimax_m2",
    ),
    Mutant(
        "markup-unquote-no-strip",
        "markup.py",
        "    text = text.strip()\n    if len(text) >= 2",
        "    if len(text) >= 2",
        "minimax_m2",
    ),
    Mutant(
        "schema-nullable-ignored",
        "schema_values.py",
        '    if schema.get("nullable") is True and types:\n        types.add("null")',
        '    if False:\n        types.add("null")',
        "qwen3_coder",
    ),
    Mutant(
        "schema-anyof-ignored",
        "schema_values.py",
        '    for key in ("anyOf", "oneOf"):',
        "    for key in ():",
        "qwen3_coder",
    ),
    Mutant(
        "schema-enum-ignored",
        "schema_values.py",
        "        types.update(json_type(literal) for literal in literals)",
        "        pass",
        "qwen3_coder",
    ),
    Mutant(
        "schema-python-bools-not-read",
        "schema_values.py",
        '    if "boolean" in types and lowered in ("true", "false"):',
        "    if False:",
        "qwen3_coder",
    ),
    Mutant(
        "schema-integral-float-not-an-integer",
        "schema_values.py",
        'return "number" in types or ("integer" in types and value.is_integer())',
        'return "number" in types',
        "qwen3_coder",
    ),
    Mutant(
        "schema-type-aliases-ignored",
        "schema_values.py",
        "    if name in _TYPE_ALIASES:\n        return _TYPE_ALIASES[name]",
        "    if False:\n        return _TYPE_ALIASES[name]",
        "qwen3_coder",
    ),
    Mutant(
        "finish-with-text-not-final",
        "transport.py",
        "        final = chunk.finish_reason is not None",
        "        final = False",
        "qwen25",
    ),
    Mutant(
        "finish-reason-length-becomes-stop",
        "transport.py",
        "        return engine_reason",
        '        return "stop"',
        "qwen25",
    ),
    Mutant(
        "answer-tag-layout-kept",
        "response_parser.py",
        "        always = self._answer_layout is _AFTER_REASONING",
        "        always = False",
        "ernie45",
    ),
    Mutant(
        "reasoning-close-layout-kept",
        "response_parser.py",
        "            layout = self._answer_tags or reasoning.close_layout",
        "            layout = self._answer_tags",
        "granite42",
    ),
    Mutant(
        "reasoning-open-may-repeat-never",
        "response_parser.py",
        "        self._open_may_repeat = self._mode == REASONING",
        "        self._open_may_repeat = False",
        "glm47",
    ),
    Mutant(
        "tool-open-does-not-end-reasoning",
        "response_parser.py",
        "            self._enter_tool(PLAIN if reasoning.tool_open_ends_reasoning else REASONING, REASONING)",
        "            self._enter_tool(REASONING, REASONING)",
        "kimi_k2",
    ),
    Mutant(
        "rejected-block-text-lost",
        "response_parser.py",
        "                    if held:\n                        pending = held + pending[pos:]\n                        pos = 0",
        "                    if False:\n                        pending = held + pending[pos:]\n                        pos = 0",
        "qwen3_coder",
    ),
    Mutant(
        "separators-before-rejected-tag-lost",
        "response_parser.py",
        "                    released = self._separators_before_tool + tool.open_tag",
        "                    released = tool.open_tag",
        "qwen25",
    ),
    Mutant(
        "pythonic-close-tag-after-layout-skipped",
        "pythonic_tool_parser.py",
        "continue  # the close tag may follow the layout: it is checked above",
        "pass",
        "olmo3",
    ),
]


def load_mutant(root: Path, mutant: Mutant):
    """The reference copied under ``root`` as a package of its own, with one line changed."""
    package = "toolconform_mutant_" + mutant.name.replace("-", "_")
    target = root / package
    shutil.copytree(REFERENCE, target, ignore=shutil.ignore_patterns("__pycache__"))
    path = target / mutant.module
    source = path.read_text(encoding="utf-8")
    assert source.count(mutant.original) == 1, f"{mutant.name}: the line to change moved"
    path.write_text(source.replace(mutant.original, mutant.mutated), encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(root))


def adapter_of(package, name: str) -> Adapter:
    def factory(dialect, request, *, tokenizer_family=None):
        return ReferenceSession(dialect, request, package)

    factory.endings = ENDINGS
    return Adapter.from_factory(f"mutant:{name}", factory)


def test_the_unchanged_copy_survives(tmp_path: Path) -> None:
    """The mechanism itself kills nothing: a copy with no change passes its cases."""
    line = "def longest_first("
    package = load_mutant(tmp_path, Mutant("unchanged", "tags.py", line, line, "qwen25"))
    executor = CaseExecutor(adapter_of(package, "unchanged"), robustness=False)
    for case in load_cases():
        if case.dialect == "qwen25" and case.scaling is None:
            assert not executor.run(case).failures, case.id


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.name)
def test_certify_kills_the_mutant(mutant: Mutant, tmp_path: Path) -> None:
    package = load_mutant(tmp_path, mutant)
    executor = CaseExecutor(adapter_of(package, mutant.name), robustness=False)
    for case in load_cases():
        if case.dialect != mutant.dialect or case.scaling is not None:
            continue
        failures = [f for f in executor.run(case).failures if f.level in GATING_LEVELS]
        if failures:
            return  # killed
    pytest.fail(f"{mutant.name} survived every {mutant.dialect} case: a case or check is missing")
