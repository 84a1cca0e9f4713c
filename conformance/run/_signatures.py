"""Failure signatures: one bug, one line, however many vectors it breaks.

A certification of a stranger can fail a thousand vectors for one reason. As Sentry groups
events into issues by a fingerprint, the kit groups failed and errored vectors by a
*signature* (algorithm :data:`SIGNATURE_VERSION`; a change of the algorithm changes the
version, so old and new groupings are never silently mixed):

- a **mismatch** (the result differs from ``expect``): the first differing JSON path with
  array indices generalized (``/package/selection/selected/*/score``; the comparison visits
  causes before consequences, :data:`conformance.run._compare.MEMBER_ORDER`) and the kind of
  difference: ``value``, ``missing member``, ``extra member``, ``missing element``, ``extra
  element``, ``type <expected> -> <actual>``, ``expected an error, got a package`` (and the
  reverse), ``error code <expected> -> <actual>``, or ``reason <expected> -> <actual>``
  (closed sets keep their values; every other value is masked);
- a **determinism** or **store-mutated** failure: the same, for the run that differed;
- an **errored** vector: the error kind and its message with numbers, paths and quoted values
  masked (``KeyError: 'type'`` -> ``KeyError: <q>``).

Signatures name what the implementation *did*, not what the kit expected (version 2): an
error where a package was expected is grouped by the error code and masked message it
returned (``expected a package, got an error: invalid_request <q>``), a wrong error code by
the code returned (``error code -> JsonlReaderError``), so one bug is one group whatever each
vector expected. And a group never mixes readings: with attribution
(:mod:`conformance.run._attribution`), vectors a listed alternative reading reproduces are
grouped apart, and the group says which (``reading``); a group no reading explains says so,
and comes first in "what to fix first".

:func:`failure_signatures` groups results by signature and says, for each group, how many
vectors per level, the clauses and interpretations every vector of it shares, its smallest
vector (the example to start from) and the command reproducing that one vector.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.registers import split_reading_id
from conformance.run._results import ErrorDetail, Failure, FailureKind, Outcome, VectorResult

__all__ = [
    "SIGNATURE_VERSION",
    "FailureSignature",
    "failure_signatures",
    "fix_first",
    "generalize_path",
    "mask_message",
    "signature_of",
]

#: The grouping algorithm's version (Sentry versions its grouping the same way).
SIGNATURE_VERSION = "phase6-signature/2"

#: Failure kinds by priority: the first present names the vector's signature.
_PRIORITY = (FailureKind.MISMATCH, FailureKind.STORE_MUTATED, FailureKind.DETERMINISM)
#: Members whose values come from a closed set: their values stay in the signature.
_CLOSED = {"code": "error code", "reason": "reason", "kind": "kind"}
_MISSING = "<missing>"
_MASKS = (
    # quoted values first (they may hold digits and slashes)
    (re.compile(r"'(?:[^'\\]|\\.)*'"), "<q>"),
    (re.compile(r'"(?:[^"\\]|\\.)*"'), "<q>"),
    (re.compile(r"(?<![\w<])(?:[A-Za-z]:)?(?:\.{0,2}/)?(?:[\w.@%+~-]+/)+[\w.@%+~-]*"), "<path>"),
    (re.compile(r"\b[0-9a-f]{16,}\b"), "<hex>"),
    (re.compile(r"[-+]?\b\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?\b"), "<n>"),
)
_INDEX = re.compile(r"(?<=/)\d+(?=/|$)")


def generalize_path(path: str | None) -> str:
    """A JSON Pointer with every array index replaced by ``*`` (``""`` is the whole value)."""
    if not path:
        return "/"
    return _INDEX.sub("*", path)


def mask_message(message: str, *, limit: int = 200) -> str:
    """``message`` with quoted values, paths, hex digests and numbers masked, spaces collapsed."""
    text = " ".join(message.split())
    for pattern, mask in _MASKS:
        text = pattern.sub(mask, text)
    return text[:limit]


def _json_kind(text: str | None) -> str:
    """The JSON type of a (possibly truncated) JSON text as the report shows it."""
    if text is None or text == _MISSING:
        return "missing"
    head = text.lstrip()[:1]
    return {
        "{": "object",
        "[": "array",
        '"': "string",
        "t": "boolean",
        "f": "boolean",
        "n": "null",
    }.get(head, "number" if head[:1] in "-0123456789" and head else "other")


def _closed_value(text: str | None) -> str:
    if text is None or text == _MISSING:
        return _MISSING
    return text if len(text) <= 60 else text[:57] + "..."


def _difference(failure: Failure) -> str:
    """The kind of difference at ``failure.path``."""
    path = failure.path or ""
    last = path.rsplit("/", 1)[-1]
    expected, actual = failure.expected, failure.actual
    element = last.isdigit()
    if path == "/error" and actual == _MISSING:
        return "expected an error, got a package"
    if path == "/error" and expected == _MISSING:
        return f"expected a package, got an error: {_returned_error(actual)}"
    if actual == _MISSING:
        return "missing element" if element else "missing member"
    if expected == _MISSING:
        return "extra element" if element else "extra member"
    kind_e, kind_a = _json_kind(expected), _json_kind(actual)
    if kind_e != kind_a:
        return f"type {kind_e} -> {kind_a}"
    if last == "code" and kind_e == "string":  # what it returned, whatever was expected
        return f"{_CLOSED[last]} -> {_closed_value(actual)}"
    if last in _CLOSED and kind_e == "string":
        return f"{_CLOSED[last]} {_closed_value(expected)} -> {_closed_value(actual)}"
    return "value"


def _returned_error(text: str | None) -> str:
    """An error object the implementation returned, as its code and masked message."""
    try:
        error = json.loads(text or "")
    except ValueError:
        return mask_message(text or "", limit=80)
    if not isinstance(error, dict):
        return "not an object"
    code = error.get("code")
    message = error.get("message")
    shown = _closed_value(code) if isinstance(code, str) else "(no code)"
    return f"{shown} {mask_message(message, limit=80)}" if isinstance(message, str) else shown


def _primary(failures: Iterable[Failure]) -> Failure | None:
    ordered = sorted(failures, key=lambda f: _PRIORITY.index(f.kind))
    return ordered[0] if ordered else None


def _failure_signature(failure: Failure) -> tuple[str, str, str]:
    if failure.kind is FailureKind.STORE_MUTATED:
        detail = mask_message(failure.message.partition(": ")[2] or failure.message)
        return failure.kind.value, "", detail
    return failure.kind.value, generalize_path(failure.path), _difference(failure)


def _error_signature(error: ErrorDetail) -> tuple[str, str, str]:
    message = re.sub(r"^(run \d+|fresh process): ", "", error.message)
    return f"errored {error.kind.value}", "", mask_message(message)


def signature_parts(result: VectorResult) -> tuple[str, str, str] | None:
    """``(kind, generalized path, difference)`` of a failed or errored result, else ``None``."""
    if result.outcome not in (Outcome.FAILED, Outcome.ERRORED):
        return None
    if result.error is not None:
        return _error_signature(result.error)
    primary = _primary(result.failures)
    return _failure_signature(primary) if primary is not None else None


def signature_of(result: VectorResult) -> str | None:
    """The signature text of a failed or errored result (``None`` for any other outcome)."""
    parts = signature_parts(result)
    if parts is None:
        return None
    kind, path, difference = parts
    return f"{kind} {path}: {difference}" if path else f"{kind}: {difference}"


@dataclass(frozen=True)
class FailureSignature:
    """A group of failed or errored vectors sharing one signature."""

    signature: str
    kind: str
    path: str
    difference: str
    vectors: tuple[str, ...]
    by_level: Mapping[str, int]
    by_outcome: Mapping[str, int]
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    example: str
    example_message: str
    reproduce: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: With attribution: the alternative readings that reproduce every vector of the group
    #: (empty: no listed reading explains it); None without attribution.
    reading: tuple[str, ...] | None = None
    #: Of ``reading``, the alternatives the register rejects (they contradict a MUST): the
    #: group is a fault all the same, and listed with the bugs.
    rejected: tuple[str, ...] = ()

    @property
    def unexplained(self) -> bool:
        """Attribution ran and no listed reading explains this group: a bug."""
        return self.reading is not None and not self.reading

    @property
    def fault(self) -> bool:
        """A bug, or a reading the register rejects: either makes the run non-compliant."""
        return self.unexplained or bool(self.rejected)

    @property
    def count(self) -> int:
        """How many vectors share the signature."""
        return len(self.vectors)

    @property
    def required(self) -> bool:
        """Whether a required vector (decided by the spec text alone) is among them."""
        return bool(self.by_level.get("required"))

    def to_json(self) -> dict[str, Any]:
        """The report form (``report.schema.json#/$defs/failure_signature``)."""
        return {
            "signature": self.signature,
            "kind": self.kind,
            "path": self.path or None,
            "difference": self.difference,
            "count": self.count,
            "by_level": dict(self.by_level),
            "by_outcome": dict(self.by_outcome),
            "clauses": list(self.clauses),
            "interpretations": list(self.interpretations),
            "example": self.example,
            "example_message": self.example_message,
            "reproduce": self.reproduce,
            "vectors": list(self.vectors),
            "reading": None if self.reading is None else list(self.reading),
            "rejected": list(self.rejected),
        }


def _shared(groups: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """Items present in every tuple, in the first tuple's order."""
    tuples = list(groups)
    if not tuples:
        return ()
    common = set(tuples[0]).intersection(*map(set, tuples[1:]))
    return tuple(item for item in tuples[0] if item in common)


def _message(result: VectorResult) -> str:
    """The example's first failure, and what the implementation returned there."""
    if result.error is not None:
        return f"[{result.error.kind.value}] {result.error.message}"[:500]
    primary = _primary(result.failures)
    if primary is None:
        return ""
    returned = f"; returned {primary.actual[:200]}" if primary.actual else ""
    return f"[{primary.kind.value}] {primary.message}"[:400] + returned


def failure_signatures(
    results: Iterable[VectorResult],
    *,
    size: Callable[[str], int] | None = None,
    reproduce: Callable[[str], str] | None = None,
    explained: Mapping[str, tuple[str, ...]] | None = None,
    rejected: Iterable[str] = (),
) -> tuple[FailureSignature, ...]:
    """Group failed and errored results by signature, by count (descending), then signature.

    ``size(vector_id)`` picks each group's example (the smallest vector; default:
    the first by ID); ``reproduce(vector_id)`` gives its command. ``explained`` (attribution:
    vector ID -> the alternatives reproducing it) splits groups by reading and names it;
    a group without one is "no listed reading explains this". ``rejected``: the alternatives
    the register rejects (a group they explain says so, :attr:`FailureSignature.rejected`).
    """
    refused = set(rejected)
    groups: dict[tuple[str, tuple[str, ...]], list[VectorResult]] = {}
    parts: dict[str, tuple[str, str, str]] = {}
    for result in results:
        text = signature_of(result)
        if text is None:
            continue
        reading = explained.get(result.id, ()) if explained is not None else ()
        groups.setdefault((text, reading), []).append(result)
        parts.setdefault(text, signature_parts(result) or ("", "", ""))
    out = []
    for (text, reading), members in groups.items():
        members.sort(key=lambda r: r.id)
        example = min(members, key=lambda r: ((size(r.id) if size else 0), r.id))
        by_level: dict[str, int] = {}
        by_outcome: dict[str, int] = {}
        for member in members:
            by_level[member.level] = by_level.get(member.level, 0) + 1
            by_outcome[member.outcome.value] = by_outcome.get(member.outcome.value, 0) + 1
        kind, path, difference = parts[text]
        out.append(
            FailureSignature(
                signature=text,
                kind=kind,
                path=path,
                difference=difference,
                vectors=tuple(r.id for r in members),
                by_level=dict(sorted(by_level.items())),
                by_outcome=dict(sorted(by_outcome.items())),
                clauses=_shared(r.clauses for r in members),
                interpretations=_shared(r.interpretations for r in members),
                example=example.id,
                example_message=_message(example),
                reproduce=reproduce(example.id) if reproduce else example.reproduce,
                reading=None if explained is None else reading,
                rejected=tuple(a for a in reading if split_reading_id(a)[0] in refused),
            )
        )
    out.sort(key=lambda s: (-s.count, s.signature))
    return tuple(out)


def fix_first(
    signatures: Iterable[FailureSignature], limit: int = 5
) -> tuple[FailureSignature, ...]:
    """What to fix first: signatures no listed reading explains (bugs) and readings the
    register rejects, then those holding a required vector (the spec text alone decides them),
    then the rest (readings), each by count; at most ``limit``."""
    ordered = sorted(
        signatures,
        key=lambda s: (not s.fault, not s.required, bool(s.reading), -s.count, s.signature),
    )
    return tuple(ordered[:limit])
