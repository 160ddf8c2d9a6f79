"""Coverage-guided fuzzing of the streaming parsers (atheris), with a Hypothesis fallback.

Deliberately light to import: an atheris target must instrument the parser modules before
anything imports them, so this package imports nothing at the top. The parts, in the order
bytes flow: ``provider`` (bytes read by ``FuzzedDataProvider`` rules), ``families`` (the
targets), ``shells`` (well-formed blocks), ``decoding`` (bytes → input), ``subjects`` (what
runs it), ``oracles`` (what it must satisfy), ``target`` (all of it as one call),
``atheris_entry`` (the executable targets' main), ``engines`` (libFuzzer and Hypothesis
runs), ``artifacts`` (dictionaries and seeds), ``triage`` (a finding → a corpus case).
"""
