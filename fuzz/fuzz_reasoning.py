#!/usr/bin/env python3
"""Fuzz target `reasoning`: reasoning channels without tool calls: deepseek_r1.

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_reasoning.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run reasoning`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("reasoning", sys.argv)
