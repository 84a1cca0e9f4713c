"""Choosing vectors (``--select``) and the expected-failures file.

``--select`` values (repeatable; a vector is run when any value matches it):

==================  ==========================================================
``id:GLOB``         vector IDs (``fnmatch`` glob), e.g. ``id:trunc-2b-*``
``clause:GLOB``     clause IDs the vector names, e.g. ``clause:S6-TRUNC-*``
``interp:GLOB``     interpretation IDs, e.g. ``interp:INT-31``
``area:NAME``       the vector's area
``level:NAME``      ``required`` or ``pinned``
``GLOB``            bare: a clause (``S6-...``, ``P2-...``), an interpretation (``INT-...``,
                    ``P2-INT-...``), a level, an area name, else a vector ID glob
==================  ==========================================================

Selection works on anything shaped like a vector (:class:`VectorMeta`): the SPEC-006 corpus
and the Phase 2 profile's (``conformance.phase2``) share it.

Expected-failures file (protobuf's failure lists): one entry per line, ``<id or glob>  # reason``;
blank lines and lines starting with ``#`` are ignored; every entry needs a reason. The file
must be a regular file of at most :data:`MAX_EXPECTED_FAILURES_BYTES` (``/dev/zero`` or a FIFO
is refused at once, never read or waited on). Entries without a glob character are looked up
in an index; globs are compiled once, and at most :data:`MAX_EXPECTED_FAILURE_GLOBS` of them
are allowed (8 MiB of distinct globs cost about 13 minutes of ``fnmatch`` against the corpus).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, TypeVar

from conformance._errors import ExpectedFailuresError, UsageError
from conformance._kit import read_bounded

__all__ = [
    "MAX_EXPECTED_FAILURES_BYTES",
    "MAX_EXPECTED_FAILURE_GLOBS",
    "ExpectedFailureEntry",
    "ExpectedFailures",
    "Selector",
    "VectorMeta",
    "load_expected_failures",
    "select_vectors",
]

#: The largest expected-failures file read (one line per vector of the corpus is ~0.2 MB).
MAX_EXPECTED_FAILURES_BYTES = 8 * 1024 * 1024
#: The most glob entries (with ``*``, ``?`` or ``[``) an expected-failures file may hold; plain
#: vector IDs are indexed and not limited but by the size.
MAX_EXPECTED_FAILURE_GLOBS = 1000
SelectorKind = Literal["id", "clause", "interp", "area", "level"]
_LEVELS = ("required", "pinned")
# A vector ID glob, or a section item such as ``property:<family>`` (the pytest plugin's items).
#: Bare values naming an interpretation / a clause, by prefix (checked in this order).
_INTERP_PREFIXES = ("INT-", "P2-INT-")
_CLAUSE_PREFIXES = ("S6-", "P2-")


class VectorMeta(Protocol):
    """What selecting, judging and reporting read of a vector, whatever its profile."""

    @property
    def id(self) -> str:
        """The stable vector ID."""

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clause IDs the vector names."""

    @property
    def interpretations(self) -> tuple[str, ...]:
        """The interpretation IDs its expectation depends on."""

    @property
    def level(self) -> str:
        """``required`` or ``pinned``."""

    @property
    def area(self) -> str:
        """The vector's area."""

    @property
    def file(self) -> str:
        """The file it comes from, relative to the corpus root."""


_V = TypeVar("_V", bound=VectorMeta)
_ENTRY = re.compile(r"^(?P<pattern>[a-z0-9*?\[][a-z0-9.:*?\[\]!-]*)\s*(?:#\s*(?P<reason>.*))?$")


@dataclass(frozen=True)
class Selector:
    """One parsed ``--select`` value."""

    kind: SelectorKind
    pattern: str
    text: str

    @classmethod
    def parse(cls, text: str, areas: Iterable[str] = ()) -> Selector:
        """Parse ``text``; bare values are recognised by their shape (see module docstring)."""
        prefix, sep, rest = text.partition(":")
        if sep and prefix in ("id", "clause", "interp", "area", "level"):
            if not rest:
                raise UsageError(f"--select {text!r}: nothing after {prefix + ':'!r}")
            if prefix == "level" and rest not in _LEVELS:
                raise UsageError(f"--select {text!r}: level is one of {', '.join(_LEVELS)}")
            return cls(prefix, rest, text)  # type: ignore[arg-type]
        if not text:
            raise UsageError("--select needs a value")
        if text.upper().startswith(_INTERP_PREFIXES):
            return cls("interp", text.upper(), text)
        if text.upper().startswith(_CLAUSE_PREFIXES):
            return cls("clause", text.upper(), text)
        if text in _LEVELS:
            return cls("level", text, text)
        if text in set(areas):
            return cls("area", text, text)
        return cls("id", text, text)

    def matches(self, vector: VectorMeta) -> bool:
        """Whether ``vector`` is selected by this value."""
        if self.kind == "id":
            return fnmatch.fnmatchcase(vector.id, self.pattern)
        if self.kind == "clause":
            return any(fnmatch.fnmatchcase(c, self.pattern) for c in vector.clauses)
        if self.kind == "interp":
            return any(fnmatch.fnmatchcase(i, self.pattern) for i in vector.interpretations)
        if self.kind == "area":
            return vector.area == self.pattern
        return vector.level == self.pattern


def select_vectors(vectors: Sequence[_V], patterns: Sequence[str]) -> tuple[_V, ...]:
    """The vectors any of ``patterns`` selects (all when none given), in input order.

    A pattern that selects nothing is a :class:`UsageError` (a typo must not pass silently).
    """
    if not patterns:
        return tuple(vectors)
    areas = {v.area for v in vectors}
    selectors = [Selector.parse(p, areas) for p in patterns]
    for selector in selectors:
        if not any(selector.matches(v) for v in vectors):
            raise UsageError(f"--select {selector.text!r} matches no vector")
    return tuple(v for v in vectors if any(s.matches(v) for s in selectors))


@dataclass(frozen=True)
class ExpectedFailureEntry:
    """One line of an expected-failures file."""

    pattern: str
    reason: str
    line: int

    def matches(self, vector_id: str) -> bool:
        """Whether this entry lists ``vector_id``."""
        return fnmatch.fnmatchcase(vector_id, self.pattern)

    @property
    def is_glob(self) -> bool:
        """Whether the pattern holds a glob character (else it names one ID exactly)."""
        return any(char in self.pattern for char in "*?[")


@dataclass(frozen=True)
class ExpectedFailures:
    """A parsed expected-failures file.

    The first entry (in file order) listing a vector gives its reason: exact entries are found
    in an index, globs by their regular expressions, compiled once.
    """

    path: str
    entries: tuple[ExpectedFailureEntry, ...]
    _exact: dict[str, ExpectedFailureEntry] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _globs: tuple[tuple[ExpectedFailureEntry, re.Pattern[str]], ...] = field(
        init=False, repr=False, compare=False, default=()
    )

    def __post_init__(self) -> None:
        globs = []
        for entry in self.entries:
            if entry.is_glob:
                globs.append((entry, re.compile(fnmatch.translate(entry.pattern))))
            else:
                self._exact.setdefault(entry.pattern, entry)
        object.__setattr__(self, "_globs", tuple(globs))

    def _first(self, vector_id: str) -> ExpectedFailureEntry | None:
        found = self._exact.get(vector_id)
        for entry, regex in self._globs:
            if found is not None and entry.line > found.line:
                break
            if regex.match(vector_id):
                return entry
        return found

    def reason_for(self, vector_id: str) -> str | None:
        """The reason ``vector_id`` is expected to fail, or ``None`` when it is not listed."""
        entry = self._first(vector_id)
        return None if entry is None else entry.reason

    def stale(self, vector_ids: Iterable[str]) -> tuple[ExpectedFailureEntry, ...]:
        """Vector entries matching none of ``vector_ids`` (the whole corpus, not just the
        selection); entries naming a section item (``property:<family>``) are not vector
        entries and never stale here."""
        ids = list(vector_ids)
        known = set(ids)
        regexes = dict(self._globs) if self._globs else {}
        return tuple(
            e
            for e in self.entries
            if ":" not in e.pattern
            and not (any(regexes[e].match(i) for i in ids) if e.is_glob else e.pattern in known)
        )


def load_expected_failures(path: Path | str) -> ExpectedFailures:
    """Parse an expected-failures file (``<id>  # reason`` per line)."""
    path = Path(path)
    try:
        text = read_bounded(path, MAX_EXPECTED_FAILURES_BYTES).decode("utf-8")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UsageError(f"cannot read expected-failures file {str(path)!r}: {reason}") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"expected-failures file {str(path)!r} is not UTF-8 text (byte {exc.start})"
        ) from None
    entries = []
    globs = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _ENTRY.match(line)
        if match is None:
            raise ExpectedFailuresError(
                f"not '<vector id>  # reason': {raw!r}", path=str(path), line=number
            )
        reason = (match["reason"] or "").strip()
        if not reason:
            raise ExpectedFailuresError(
                f"entry {match['pattern']!r} has no '# reason'", path=str(path), line=number
            )
        entry = ExpectedFailureEntry(match["pattern"], reason, number)
        if entry.is_glob:
            globs += 1
            if globs > MAX_EXPECTED_FAILURE_GLOBS:
                raise ExpectedFailuresError(
                    f"more than {MAX_EXPECTED_FAILURE_GLOBS} glob entries (with '*', '?' or "
                    "'['): list vector IDs, or fewer, broader globs",
                    path=str(path),
                    line=number,
                )
        entries.append(entry)
    return ExpectedFailures(str(path), tuple(entries))
