"""The main of every executable fuzz target under ``fuzz/``: instrument, set up, fuzz.

The parser modules are imported inside ``atheris.instrument_imports`` before anything else
imports them, so that libFuzzer sees their branches (its ``cov:`` figure is their coverage).
The string-comparison hook lets it solve the tags the parsers look for with ``startswith``
and ``endswith``. (Not the regular-expression hook: its pattern proxy breaks
``json.loads``, which the parsers call.)
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence


def main(target_name: str, argv: Sequence[str] | None = None) -> None:
    """Fuzz ``target_name`` with libFuzzer options ``argv`` (``sys.argv`` by default)."""
    import atheris

    atheris.enabled_hooks.add("str")
    instrumented = ["toolconform.reference"]
    spec = os.environ.get("TOOLCONFORM_FUZZ_ADAPTER", "")
    module = spec.partition(":")[0] if ":" in spec and not spec.startswith("cmd:") else ""
    if module:
        instrumented.append(module)
    elif spec.startswith("cmd:"):
        # The parser runs in another process: the decoder's branches are the only signal.
        module = "toolconform.harness.fuzzing.decoding"
        instrumented.append(module)
    with atheris.instrument_imports(include=instrumented):
        importlib.import_module("toolconform.reference.dialects")
        if module:
            importlib.import_module(module)
    from .target import build_target

    target = build_target(target_name)
    atheris.Setup(list(argv if argv is not None else sys.argv), target.test_one_input)
    atheris.Fuzz()
