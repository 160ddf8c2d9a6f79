"""The main of every executable fuzz target under ``fuzz/``: instrument, set up, fuzz.

The parser modules are imported inside ``atheris.instrument_imports`` before anything else
imports them, so that libFuzzer sees their branches (its ``cov:`` figure is their coverage).
No comparison hooks: the regular-expression hook's pattern proxy breaks ``json.loads``, and
the string hook makes ``str.startswith(tag, i)`` cost the length of the whole text, which
turns linear parsers quadratic under the linear-time oracle. The dictionary of declared
tags gives libFuzzer the strings those hooks would have found.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence


def main(target_name: str, argv: Sequence[str] | None = None) -> None:
    """Fuzz ``target_name`` with libFuzzer options ``argv`` (``sys.argv`` by default)."""
    import atheris

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
