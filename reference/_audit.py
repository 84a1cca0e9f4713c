"""The assembly record `phase6-audit/1` (specs/audit.md): SPEC-003's audit of one memory.read.

S3-AUDIT-01: "Produces an auditable assembly record"; S3-ASM-04: "Emit an assembly record
containing: Query input reference, Candidate set (identifiers only), Scores and ranking, Selected
items, Excluded items and reasons (budget, low score, policy), Final context package manifest
(ordered list)".  S3-RET-03: "Record retrieval parameters and store versions/identifiers in the
audit record"; S3-SCORE-03: "Record the scoring method and parameters in the audit record".
S3-ERR-01/02: on failure "Emit an auditable failure record; Preserve enough detail to reproduce
the failure deterministically".

Metadata only, like the receipt: no text, excerpt, tags or refs ever reaches the record.  It is
written to a binary stream in three parts, so that it never has to be held whole: the head
(request, stores, parameters), the candidates (one entry per record line, streamed by pass 2 in
read order) and the tail (ranking, selected, manifest, package_hash).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

import orjson

from reference._envelope import Sink, dumps

__all__ = ["AUDIT_FORMAT", "SCORING_METHOD", "AuditWriter", "Rewindable", "StoreIdentity"]

AUDIT_FORMAT: Final = "phase6-audit/1"
#: The scoring method applied (SCORING, S6-SCORE-07..18; INT-04 for the arithmetic).
SCORING_METHOD: Final = "phase6-v1/term-tag-recency"


#: (normalized path, bytes read, SHA-256 of those bytes or None when not read yet)
StoreIdentity = tuple[str, int, str | None]


class Rewindable(Sink, Protocol):
    """A sink that can start over (a file, BytesIO): a failure after the head replaces it."""

    def seek(self, offset: int, /) -> int:
        """Move to `offset`."""

    def truncate(self, size: int | None = None, /) -> int:
        """Cut the stream at the position."""


def _store(identity: StoreIdentity) -> dict[str, Any]:
    path, size, sha256 = identity
    return {"path": path, "bytes": size, "sha256": sha256}


class AuditWriter:
    """Writes one assembly record (success or failure) to `out`, followed by a newline."""

    __slots__ = ("entries", "out", "request", "started", "stores")

    def __init__(self, out: Rewindable, request: Any) -> None:
        self.out = out
        self.request = request
        self.started = False  # has the head been written?
        self.entries = False  # has a candidate entry been written?
        #: What is known of the stores so far (for a failure record): (path, bytes, sha256).
        self.stores: list[StoreIdentity] = []

    def head(
        self,
        query_hash: str,
        stores: list[StoreIdentity],
        trust: dict[str, Any] | None,
        scoring: dict[str, Any],
        budget: dict[str, Any],
        controller_version: str,
    ) -> None:
        """Everything before the first candidate entry."""
        self.stores = stores
        head = {
            "format": AUDIT_FORMAT,
            "outcome": "package",
            "controller_version": controller_version,
            "request": self.request,
            "query_hash": query_hash,
            "stores": [_store(store) for store in stores],
            "trust_snapshot": trust,
            "scoring": scoring,
            "budget": budget,
        }
        self.started = True
        self.out.write(dumps(head)[:-1] + b',"candidates":[')

    def candidates(self, part: bytes | bytearray) -> None:
        """Candidate entries of one chunk, joined by commas (b"" for none)."""
        if not part:
            return
        if self.entries:
            self.out.write(b",")
        self.out.write(part)
        self.entries = True

    def tail(
        self,
        ranking: list[dict[str, Any]],
        stop_reason: str,
        selected: list[dict[str, Any]],
        manifest: list[dict[str, Any]],
        package_hash: str,
    ) -> None:
        """Everything after the last candidate entry."""
        self.out.write(
            b'],"ranking":'
            + orjson.dumps(ranking)
            + b',"stop_reason":'
            + orjson.dumps(stop_reason)
            + b',"selected":'
            + orjson.dumps(selected)
            + b',"manifest":'
            + orjson.dumps(manifest)
            + b',"package_hash":'
            + orjson.dumps(package_hash)
            + b"}\n"
        )

    def failure(self, error: dict[str, Any], controller_version: str) -> None:
        """The failure record: the request, the error and the stores known when it failed
        (it replaces a record already begun: a store changed while it was being read)."""
        if self.started:
            self.out.seek(0)
            self.out.truncate()
        record = {
            "format": AUDIT_FORMAT,
            "outcome": "error",
            "controller_version": controller_version,
            "request": self.request,
            "error": error,
            "stores": [_store(store) for store in self.stores],
        }
        self.out.write(dumps(record) + b"\n")
