"""The one error of the vector builders: a family or hand source that is malformed, or whose
results break the independence rules (the builders stop and say which vector and why)."""

from __future__ import annotations

__all__ = ["BuildError"]


class BuildError(Exception):
    """A family or hand source is malformed, or its results break the independence rules."""
