"""The main of every executable fuzz target under ``fuzz/``: instrument, set up, fuzz.

The parser modules are imported under atheris' import hook before anything else imports
them, so that libFuzzer sees their branches (its ``cov:`` figure is their coverage).

Branches only, no comparison tracing: atheris' public ``instrument_imports`` always adds a
``_trace_cmp`` call to every comparison, and on these parsers (a character compared with a
constant, over and over) that costs a quarter of every execution while the dictionary of
declared tags already gives libFuzzer the strings it would find. Measured in one run of 120
s each on the ``json`` target: the same 509 edges (3,300 and 3,360 features), 194 and 246
executions per CPU-second. Nor the regular-expression and string hooks: the former's pattern
proxy breaks ``json.loads``, and the latter makes ``str.startswith(tag, i)`` cost the length
of the whole text, which turns linear parsers quadratic under the linear-time oracle.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence


def main(target_name: str, argv: Sequence[str] | None = None) -> None:
    """Fuzz ``target_name`` with libFuzzer options ``argv`` (``sys.argv`` by default)."""
    import atheris
    from atheris.import_hook import HookManager

    spec = os.environ.get("TOOLCONFORM_FUZZ_ADAPTER", "")
    module = spec.partition(":")[0] if ":" in spec and not spec.startswith("cmd:") else ""
    if spec.startswith("cmd:"):
        # The parser runs in another process: the decoder's branches are the only signal.
        module = "toolconform.harness.fuzzing.decoding"
    # Instrument every module of these top-level packages imported inside the block, as
    # ``atheris.instrument_imports(include=…)`` does, without comparison tracing.
    packages = {"toolconform"} | ({module.split(".")[0]} if module else set())
    with HookManager(packages, set(), enable_loader_override=True, trace_dataflow=False):
        importlib.import_module("toolconform.reference.dialects")
        if module:
            importlib.import_module(module)
    from .target import JUDGED_BESIDE, SAMPLE_VARIABLE, build_target

    target = build_target(target_name)
    target.sample = os.environ.get(SAMPLE_VARIABLE) != JUDGED_BESIDE
    atheris.Setup(list(argv if argv is not None else sys.argv), target.test_one_input)
    atheris.Fuzz()
