"""toolconform: conformance, fuzzing and benchmarks for streaming tool-call parsers.

The import package gathers the project's top-level folders: ``toolconform.reference`` (the
oracle parser), ``toolconform.strategies`` (Hypothesis strategies and chunkings),
``toolconform.harness`` (adapters, checks, runner, reports, CLI) and ``toolconform.corpus``
(the golden cases, as package data).
"""

__version__ = "0.1.0"
