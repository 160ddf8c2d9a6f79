"""Throughput benchmarks: parsers side by side on each dialect's real grammar, verified."""
