#!/usr/bin/env python3
"""Fuzz target `adapter`: any parser behind an adapter.

TOOLCONFORM_FUZZ_ADAPTER=module:callable or cmd:COMMAND names it (the reference by default);
TOOLCONFORM_FUZZ_DIALECTS=a,b chooses the dialects (default: all the adapter supports).

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_adapter.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run adapter`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("adapter", sys.argv)
