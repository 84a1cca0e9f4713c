"""Trust snapshots: the ``phase6-trust/1`` document (INT-38) and what a deny entry matches
(INT-39); errors.md checks 11-12.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from conformance.readings._json_text import InvalidText, parse_json_text
from conformance.readings._request import RequestError
from conformance.readings._stores import normalize_path, on_disk, read_regular_file, require_unicode

__all__ = ["ClassificationCase", "SnapshotText", "TrustMatch", "is_denied", "read_trust_snapshot"]

#: INT-39: an entry naming both keys matches a candidate equal on "either" (pinned), or only
#: one equal on "both" (``INT-39/both-keys``, the register's ``alternatives[0]``).
TrustMatch = Literal["either", "both"]
#: INT-39: a classification equals a deny classification "exact"ly (pinned), or under
#: "Case-insensitive classification match." (``case-insensitive``: both sides lower-cased).
ClassificationCase = Literal["exact", "case-insensitive"]
#: INT-38: the snapshot file is one phase6-trust/1 "document" (pinned), or "A JSONL list of
#: classification events." (``jsonl-events``).
SnapshotText = Literal["document", "jsonl-events"]


def read_trust_snapshot(
    snapshot_path: str, root: Path, text: SnapshotText = "document"
) -> list[dict[str, Any]]:
    """INT-38: {"format": "phase6-trust/1", "entries": [{memory_id?, record_hash?, classification}]}

    errors.md 11/12: does not exist -> trust_snapshot_not_found; not a regular readable file or
    not a valid document -> invalid_trust_snapshot.
    """
    where = "/trust_filter/trust_snapshot_path"
    normalized = normalize_path(snapshot_path)
    require_unicode(normalized, "trust_snapshot_path")
    bad = RequestError("invalid_trust_snapshot", where, "trust snapshot is not valid")
    try:
        data = read_regular_file(on_disk(root, normalized))
    except OSError:
        raise bad from None
    if data is None:
        raise RequestError("trust_snapshot_not_found", where, "trust snapshot does not exist")
    try:
        if text == "jsonl-events":
            # INT-38/jsonl-list-classification-events: every line holding more than spaces,
            # tabs or CRs is one event, shaped as a phase6-trust/1 entry
            events = [
                parse_json_text(raw) for raw in data.split(b"\n") if raw.strip(b" \t\r") != b""
            ]
            doc = {"format": "phase6-trust/1", "entries": events}
        else:
            doc = parse_json_text(data)
    except InvalidText:
        raise bad from None
    if not isinstance(doc, dict) or doc.get("format") != "phase6-trust/1":
        raise bad
    entries = doc.get("entries")
    if not isinstance(entries, list):
        raise bad
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("classification"), str):
            raise bad
        keys = [k for k in ("memory_id", "record_hash") if k in entry]
        if not keys or not all(isinstance(entry[k], str) for k in keys):
            raise bad  # "Each entry names at least one of memory_id and record_hash"
    return entries


def is_denied(
    cand: dict[str, Any],
    entries: list[dict[str, Any]],
    deny: list[str],
    match: TrustMatch = "either",
    case: ClassificationCase = "exact",
    empty_id_matches: bool = True,
) -> bool:
    """INT-39: an entry matches on its memory_id and on its record_hash, each on its own (an
    entry naming both matches a candidate equal on either).

    ``match="both"`` is INT-39/both-keys: "An entry naming both keys matches only a candidate
    equal on both"; an entry naming one key matches as before. ``case="case-insensitive"`` is
    INT-39/case-insensitive-classification-match; ``empty_id_matches=False`` is
    INT-38/entry-memory-id-matches: 'An entry memory_id "" matches nothing' (the entry's
    record_hash, when it names one, still matches).
    """
    lowered = {d.lower() for d in deny}
    for entry in entries:
        classification = entry["classification"]
        if not (
            classification.lower() in lowered
            if case == "case-insensitive"
            else classification in deny
        ):
            continue
        keys = [
            k
            for k in ("memory_id", "record_hash")
            if k in entry and (empty_id_matches or k != "memory_id" or entry[k] != "")
        ]
        if not keys:
            continue  # nothing left that this entry can match
        equal = [entry[k] == cand[k] for k in keys]
        if all(equal) if match == "both" else any(equal):
            return True
    return False
