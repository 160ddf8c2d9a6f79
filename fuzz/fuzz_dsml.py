#!/usr/bin/env python3
"""Fuzz target `dsml`: DSML tool blocks: deepseek_v32, deepseek_v4.

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_dsml.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run dsml`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("dsml", sys.argv)
