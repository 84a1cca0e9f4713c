"""Trust snapshots (format phase6-trust/1, INT-38) and detection-only filtering (INT-39).

S6-TRUST-03: "Filtering is allowed ONLY if: a trust snapshot exists AND explicitly marks a
memory_id (or record_hash) with a deny classification in trust_filter.deny_classifications."
S6-TRUST-02: "No inference, no heuristics, no "suspicious" scoring."
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from reference._errors import TrustSnapshotError, render_value
from reference._paths import normalize_path
from reference._records import text_too_deep

__all__ = ["SNAPSHOT_FORMAT", "SnapshotIdentity", "TrustFilter", "load_trust_filter"]

SNAPSHOT_FORMAT: Final = "phase6-trust/1"
_PATH: Final = "/trust_filter/trust_snapshot_path"


@dataclass(frozen=True, slots=True)
class TrustFilter:
    """The deny sets built from a snapshot's entries whose classification is denied."""

    memory_ids: frozenset[str] = field(default_factory=frozenset)
    record_hashes: frozenset[str] = field(default_factory=frozenset)
    #: INT-39/both-keys (an alternative): entries naming both keys, matched on both only.
    pairs: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    @property
    def active(self) -> bool:
        """False when nothing can be denied (no snapshot, or no matching entry)."""
        return bool(self.memory_ids or self.record_hashes or self.pairs)

    def denies(self, memory_id: str, record_hash: str, tags: list[str]) -> bool:
        """INT-39: "explicitly marks a memory_id (or record_hash)": each key an entry names is a
        mark on its own, so an entry naming both denies a candidate equal on either.

        S6-TRUST-02: "No inference, no heuristics": a record's `tags` (or text) never count.
        """
        return (
            memory_id in self.memory_ids
            or record_hash in self.record_hashes
            or (memory_id, record_hash) in self.pairs
        )


#: INT-39: how a classification is compared with the deny list: exactly (pinned), or
#: case-insensitively, both sides lower-cased (INT-39/case-insensitive-classification-match).
CLASSIFICATION_CASE: Final[dict[str, Callable[[str], str]]] = {
    "exact": lambda classification: classification,
    "case-insensitive": str.lower,
}


def _invalid(why: str) -> TrustSnapshotError:
    return TrustSnapshotError("invalid_trust_snapshot", _PATH, f"{_PATH}: {why}")


#: A snapshot read: (normalized path, byte length, SHA-256 of the bytes), for the assembly record.
SnapshotIdentity = tuple[str, int, str]


def _one_document(data: bytes) -> Any:
    """phase6-trust/1: the file is one JSON document (INT-38)."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise _invalid(f"is not valid JSON ({exc.msg})") from None
    if text_too_deep(data):  # the snapshot follows the record JSON rules, INT-15..INT-18
        raise _invalid("nests deeper than 64 levels")
    return document


def _events(data: bytes) -> Any:
    """INT-38/jsonl-list-classification-events (an alternative, ``_readings.py``): one event
    per line, each an entry as phase6-trust/1 defines them; lines that are empty or only
    spaces, tabs and carriage returns are skipped.  The events become the entries of a
    phase6-trust/1 document, validated as one."""
    entries = [_one_document(line) for line in data.split(b"\n") if line.strip(b" \t\r")]
    return {"format": SNAPSHOT_FORMAT, "entries": entries}


#: INT-38: how a snapshot file's bytes become a phase6-trust/1 document (pinned first).
SNAPSHOT_TEXTS: Final[dict[str, Callable[[bytes], Any]]] = {
    "document": _one_document,
    "jsonl-events": _events,
}


def _read_snapshot(path: str, text: str = "document") -> tuple[Any, SnapshotIdentity]:
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL byte
        raise TrustSnapshotError(
            "trust_snapshot_not_found", _PATH, f"{_PATH}: no such file {render_value(path)}"
        ) from None
    except OSError as exc:
        raise _invalid(f"cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise _invalid("is not a regular file")
    try:
        with open(path, "rb") as handle:  # read-only (S6-SEC-03)
            data = handle.read()
    except OSError as exc:
        raise _invalid(f"cannot be read ({exc.strerror})") from None
    document = SNAPSHOT_TEXTS[text](data)  # INT-38
    return document, (path, len(data), hashlib.sha256(data).hexdigest())


def load_trust_filter(
    snapshot_path: str | None,
    deny: tuple[str, ...],
    read: list[SnapshotIdentity] | None = None,
    *,
    match: str = "either",
    missing: str = "error",
    case: str = "exact",
    empty_id_matches: bool = True,
    text: str = "document",
) -> TrustFilter:
    """Read and validate the snapshot (whenever a path is given) and build the deny sets.

    S6-TRUST-07: "If no snapshot provided, trust filtering is disabled."
    ``match`` (INT-39: "either" key, or "both"), ``missing`` (INT-38: an "error", or
    "no-filter"), ``case`` (INT-39: a key of ``CLASSIFICATION_CASE``) and ``empty_id_matches``
    (INT-38: False when an entry's memory_id "" matches nothing) and ``text`` (INT-38: a key of
    ``SNAPSHOT_TEXTS``) are readings
    (``_readings.py``); the defaults are the pinned ones.
    """
    if snapshot_path is None:
        return TrustFilter()
    try:
        # One statement, as the mutation gallery anchors on it: (the document, the identity).
        document = _read_snapshot(normalize_path(snapshot_path), text)
    except TrustSnapshotError as error:
        if missing == "no-filter" and error.code == "trust_snapshot_not_found":
            return TrustFilter()  # INT-38/ignore-missing: a snapshot that is not there
        raise
    document, identity = document
    if read is not None:
        read.append(identity)
    if type(document) is not dict:
        raise _invalid("must be a JSON object")
    if document.get("format") != SNAPSHOT_FORMAT:
        raise _invalid(f'"format" must be "{SNAPSHOT_FORMAT}"')
    entries = document.get("entries")
    if type(entries) is not list:
        raise _invalid('"entries" must be an array')
    fold = CLASSIFICATION_CASE[case]  # INT-39
    denied = {fold(classification) for classification in deny}
    ids: set[str] = set()
    hashes: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for index, entry in enumerate(entries):
        if type(entry) is not dict:
            raise _invalid(f"entries[{index}] must be an object")
        classification = entry.get("classification")
        memory_id = entry.get("memory_id")
        record_hash = entry.get("record_hash")
        if type(classification) is not str:
            raise _invalid(f"entries[{index}].classification must be a string")
        if "memory_id" not in entry and "record_hash" not in entry:
            raise _invalid(f"entries[{index}] must name a memory_id or a record_hash")
        if ("memory_id" in entry and type(memory_id) is not str) or (
            "record_hash" in entry and type(record_hash) is not str
        ):  # null is a wrong type, not "absent" (INT-38)
            raise _invalid(f"entries[{index}] memory_id and record_hash must be strings")
        classification = fold(classification)
        if memory_id == "" and not empty_id_matches:  # INT-38/entry-memory-id-matches
            memory_id = None
        if classification not in denied:  # exact, case-sensitive (INT-39)
            continue
        if match == "both" and memory_id is not None and record_hash is not None:
            pairs.add((memory_id, record_hash))  # INT-39/both-keys
            continue
        if memory_id is not None:  # INT-39: either key matches ("" included, INT-22)
            ids.add(memory_id)
        if record_hash is not None:
            hashes.add(record_hash)
    return TrustFilter(frozenset(ids), frozenset(hashes), frozenset(pairs))
