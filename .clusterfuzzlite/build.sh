#!/bin/bash -eu
# Builds every fuzz/fuzz_*.py target with OSS-Fuzz's compile_python_fuzzer (PyInstaller),
# then writes next to each one the dictionary and seed corpus toolconform generates from the
# dialects' declared tags and from the corpus (fuzz_TARGET.dict, fuzz_TARGET_seed_corpus.zip).
pip3 install .
for fuzzer in fuzz/fuzz_*.py; do
  compile_python_fuzzer "$fuzzer" \
    --collect-submodules toolconform \
    --collect-data toolconform.corpus
done
toolconform fuzz artifacts "$OUT"
