#!/usr/bin/env python3
"""Fuzz target `mistral`: Mistral [TOOL_CALLS] lists and NAME[ARGS] calls.

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_mistral.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run mistral`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("mistral", sys.argv)
