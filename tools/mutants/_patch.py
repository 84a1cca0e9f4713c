"""Monkeypatching helpers: every patch names an attribute that must already exist, so a
refactored reference makes a mutant fail loudly instead of silently equal the reference."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

__all__ = ["PatchError", "replace", "shadow_builtin", "wrap"]


class PatchError(AttributeError):
    """A mutant's patch target does not exist (the reference changed under the gallery)."""


def replace(owner: object, name: str, value: object) -> None:
    """Set ``owner.name = value``; ``owner`` (a module or class) must already have ``name``."""
    if not hasattr(owner, name):
        raise PatchError(f"{getattr(owner, '__name__', owner)!s} has no attribute {name!r}")
    setattr(owner, name, value)


def wrap(owner: object, name: str, make: Callable[[Any], Any]) -> None:
    """Replace ``owner.name`` by ``make(original)``."""
    if not hasattr(owner, name):
        raise PatchError(f"{getattr(owner, '__name__', owner)!s} has no attribute {name!r}")
    setattr(owner, name, make(getattr(owner, name)))


def shadow_builtin(module: object, name: str, value: object) -> None:
    """Give one module its own ``name`` in place of the builtin it uses (e.g. ``sorted``)."""
    if not hasattr(builtins, name):
        raise PatchError(f"{name!r} is not a builtin")
    if name in vars(module):
        raise PatchError(f"{getattr(module, '__name__', module)!s} already defines {name!r}")
    source = getattr(module, "__file__", None) or ""
    if source:
        with open(source, encoding="utf-8") as handle:
            if f"{name}(" not in handle.read():
                raise PatchError(f"{module!s} does not call {name!r}")
    setattr(module, name, value)
