#!/usr/bin/env python3
"""Fuzz target `pythonic`: Python call literals and Gemma's call:NAME{…} (pythonic,
llama4_pythonic, lfm2, olmo3, functiongemma, gemma4).

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_pythonic.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run pythonic`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("pythonic", sys.argv)
