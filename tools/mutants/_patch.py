"""Source patches: a copy of the ``reference`` package with one mutant's edit applied.

A patch names one file of ``reference/``, an anchor snippet that must occur there exactly
once, and its replacement.  An anchor that does not match (the reference was refactored) is
a :class:`PatchError` naming the mutant, the file and the anchor, so a stale mutant fails
loudly instead of silently equalling the reference.

Copies are cached in ``.mutants/`` at the repository root (git-ignored), one directory per
mutant and per version of the reference's sources, created atomically: every process that
serves a mutant (each probe starts fresh ones) reuses it, and nothing is written in the
process's TMPDIR or HOME.  The copy's ``_serve.py`` also names the implementation
``mutant-<name>`` in the handshake.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from pathlib import Path
from typing import Final

from tools.mutants._registry import Mutant, SourcePatch

__all__ = ["COPIES", "REFERENCE", "PatchError", "anchor_problems", "patched", "patched_copy"]

ROOT: Final = Path(__file__).resolve().parents[2]
REFERENCE: Final = ROOT / "reference"
COPIES: Final = ROOT / ".mutants"
_HANDSHAKE: Final = ("_serve.py", '"name": "adamos-phase6-reference",')


class PatchError(ValueError):
    """A mutant's anchor does not occur exactly once in its file (the reference changed)."""


def _sources() -> dict[str, str]:
    return {path.name: path.read_text("utf-8") for path in sorted(REFERENCE.glob("*.py"))}


def _apply(name: str, sources: dict[str, str], change: SourcePatch) -> None:
    text = sources.get(change.file)
    if text is None:
        raise PatchError(f"mutant {name!r}: reference/{change.file} does not exist")
    found = text.count(change.anchor)
    if found != 1:
        raise PatchError(
            f"mutant {name!r}: the anchor occurs {found} times in reference/{change.file} "
            f"(must be exactly once): {change.anchor!r}"
        )
    if change.replacement == change.anchor:
        raise PatchError(f"mutant {name!r}: the replacement equals the anchor")
    sources[change.file] = text.replace(change.anchor, change.replacement)


def patched(mutant: Mutant) -> dict[str, str]:
    """The reference's sources (file name -> text) with the mutant's patch applied."""
    change = mutant.patch
    if change is None:
        raise PatchError(f"mutant {mutant.name!r} is a wrapper, not a source patch")
    sources = _sources()
    _apply(mutant.name, sources, change)
    for anchor, replacement in change.more:
        _apply(mutant.name, sources, SourcePatch(change.file, anchor, replacement))
    file, anchor = _HANDSHAKE
    _apply(mutant.name, sources, SourcePatch(file, anchor, f'"name": "mutant-{mutant.name}",'))
    return sources


def anchor_problems(mutants: list[Mutant]) -> list[str]:
    """Why each source patch does not apply to the current reference (empty: all do)."""
    problems = []
    for mutant in mutants:
        if mutant.patch is None:
            continue
        try:
            patched(mutant)
        except PatchError as exc:
            problems.append(str(exc))
    return problems


def patched_copy(mutant: Mutant, base: Path = COPIES) -> Path:
    """A directory holding the patched ``reference`` package (put it first on sys.path)."""
    sources = patched(mutant)
    digest = hashlib.sha256()
    for file, text in sorted(sources.items()):
        digest.update(file.encode() + b"\0" + text.encode("utf-8") + b"\0")
    final = base / f"{mutant.name}-{digest.hexdigest()[:16]}"
    if (final / "reference" / "__init__.py").is_file():
        return final
    base.mkdir(parents=True, exist_ok=True)
    staging = base / f".staging-{mutant.name}-{os.getpid()}-{os.urandom(4).hex()}"
    package = staging / "reference"
    package.mkdir(parents=True)
    for file, text in sources.items():
        (package / file).write_text(text, "utf-8")
    for extra in ("py.typed",):
        if (REFERENCE / extra).exists():
            shutil.copy2(REFERENCE / extra, package / extra)
    try:
        staging.rename(final)
    except OSError:  # another process made it first
        shutil.rmtree(staging, ignore_errors=True)
    return final


def clear_copies(base: Path = COPIES) -> None:
    """Remove every cached copy."""
    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(base)
