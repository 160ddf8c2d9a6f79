"""Coverage-guided fuzzing of the streaming parsers (atheris), with a Hypothesis fallback.

A client of the one pipeline: inputs are written with the renderers
(``strategies.renderers``), parsers are driven through adapters (``harness.adapters``) into
normalized events, and judged by checks of the catalogue (``harness.checks``).

Deliberately light to import: an atheris target must instrument the parser modules before
anything imports them, so this package imports nothing at the top. The parts, in the order
bytes flow: ``provider`` (bytes read by ``FuzzedDataProvider`` rules), ``grammars`` (the
targets), ``decoding`` (bytes → input), ``runs`` (an input through an adapter),
``oracles`` (what it must satisfy), ``target`` (all of it as one call), ``atheris_entry``
(the executable targets' main), ``fuzzers`` (libFuzzer and Hypothesis runs), ``findings``
(one report per distinct failure), ``artifacts`` (dictionaries and seeds), ``triage`` (a
finding → a corpus case).
"""
