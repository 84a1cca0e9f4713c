"""What builds or measures the kit and does not ship: vector generators, the independent oracle,
the mutation gallery, benchmarks and the sample-store generator.

Run from the repository root (``python -m tools ...``); nox drives every tool. Tools may import
anything, the reference's internals included; nothing shipped imports ``tools``.
"""
