"""The reference controller for SPEC-006 `memory.read`, contract phase6-v1.

    >>> from reference import memory_read
    >>> result = memory_read({"query": "...", "store_paths": [...], "budget": {...}})

`memory_read` returns the result envelope: {"package": ContextPackage, "receipt": Receipt} on
success, {"error": {"code", "message", "path", "clause"}} on failure (specs/errors.md).
`memory_read_to(request, stream)` writes the same envelope as JSON to a binary stream while it
is produced, in memory bounded by max_items whatever the size of the stores:

    >>> with open("result.json", "wb") as out:
    ...     memory_read_to(request, out)   # -> {"receipt": ...} or {"error": ...}

On demand, the SPEC-003 assembly record (phase6-audit/1, specs/audit.md) comes too, the package
and receipt unchanged: `memory_read(request, audit=True)` -> {package, receipt, audit} or
{error, audit}; `memory_read_to(request, out, audit_out=record_file)` streams it to a file.
"""

from __future__ import annotations

from reference._canonical import canonical_bytes, sha256_hex
from reference._controller import memory_read, memory_read_to, read_package
from reference._errors import (
    ERROR_CODES,
    CanonicalizationError,
    InvalidRequestError,
    MemoryReadError,
    StoreError,
    TrustSnapshotError,
)
from reference._package import CONTROLLER_VERSION, REASONS
from reference._request import Request, validate_request
from reference._trust import SNAPSHOT_FORMAT
from reference._writer import (
    MemoryReceipt,
    StoreWriteError,
    StoreWriter,
    append_record,
    build_record,
    correct_record,
    make_ref,
    utc_now,
)

__all__ = [
    "CONTROLLER_VERSION",
    "ERROR_CODES",
    "REASONS",
    "SNAPSHOT_FORMAT",
    "CanonicalizationError",
    "InvalidRequestError",
    "MemoryReadError",
    "MemoryReceipt",
    "Request",
    "StoreError",
    "StoreWriteError",
    "StoreWriter",
    "TrustSnapshotError",
    "__version__",
    "append_record",
    "build_record",
    "canonical_bytes",
    "correct_record",
    "make_ref",
    "memory_read",
    "memory_read_to",
    "read_package",
    "sha256_hex",
    "utc_now",
    "validate_request",
]

__version__ = "1.0.0"
