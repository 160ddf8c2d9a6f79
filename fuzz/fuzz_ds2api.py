#!/usr/bin/env python3
"""Fuzz target `ds2api`: ds2api's drift-tolerant DSML and XML wrappers (seed 003).

Executable for libFuzzer (it re-runs argv[0]) and for OSS-Fuzz / ClusterFuzzLite builds:
    ./fuzz/fuzz_ds2api.py -max_total_time=60 -dict=… CORPUS_DIR SEED_DIR
or, with the dictionary, seeds and a progress line set up: `toolconform fuzz run ds2api`.
"""

import sys

from toolconform.harness.fuzzing.atheris_entry import main

if __name__ == "__main__":
    main("ds2api", sys.argv)
