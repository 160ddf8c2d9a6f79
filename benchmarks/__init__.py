"""Benchmark suites (pytest-benchmark); run with ``pytest benchmarks/``."""
