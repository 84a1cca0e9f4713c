"""The generated vector families, one module each; ``build`` turns them into ``gen-*.json``.

Each module exposes ``DESCRIPTION`` (one line, the file's description) and ``cases()``, which
yields :class:`~tools.generate.families._case.Case` objects in a fixed order. IDs start
with the family's prefix below and are never reused.
"""

from __future__ import annotations

__all__ = ["FAMILIES"]

#: (module name, vector ID prefix), in build order.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("whitespace", "ws"),
    ("case", "case"),
    ("terms", "terms"),
    ("matching", "match"),
    ("ordering", "order"),
    ("recency", "recency"),
    ("hazard", "hazard"),
    ("truncation", "trunc"),
    ("budget", "budget"),
    ("defaults", "dflt"),
    ("trust", "trust"),
    ("records", "inv"),
    ("errors", "err"),
    ("paths", "path"),
    ("hashing", "hash"),
    ("receipts", "rcpt"),
    ("scale", "scale"),
)
