"""Benchmarks: the reference against a ``json.loads`` baseline, and certification throughput."""
