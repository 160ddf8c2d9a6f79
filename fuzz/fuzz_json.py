#!/usr/bin/env python3
"""Fuzz target `json`: JSON envelopes in outer tags (qwen3, qwen25, hermes, llama3_json …).

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_json.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run json`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("json", sys.argv)
