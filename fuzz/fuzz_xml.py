#!/usr/bin/env python3
"""Fuzz target `xml`: XML-like tool blocks: qwen3_coder, qwen35, glm45, glm47, minimax_m2.

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_xml.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run xml`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("xml", sys.argv)
