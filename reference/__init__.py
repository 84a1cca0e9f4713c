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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from reference._readings import ALTERNATIVES, Readings, UnknownReading
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

#: Public name -> the module defining it. Imported on first use (PEP 562), so a process that
#: needs one part of the package (``python -m reference.phase2 load``, run once per vector by a
#: certification over HTTP) does not pay for the SPEC-006 controller's imports.
_PUBLIC: dict[str, str] = {
    "canonical_bytes": "reference._canonical",
    "sha256_hex": "reference._canonical",
    "memory_read": "reference._controller",
    "memory_read_to": "reference._controller",
    "read_package": "reference._controller",
    "ERROR_CODES": "reference._errors",
    "CanonicalizationError": "reference._errors",
    "InvalidRequestError": "reference._errors",
    "MemoryReadError": "reference._errors",
    "StoreError": "reference._errors",
    "TrustSnapshotError": "reference._errors",
    "CONTROLLER_VERSION": "reference._package",
    "REASONS": "reference._package",
    "ALTERNATIVES": "reference._readings",
    "Readings": "reference._readings",
    "UnknownReading": "reference._readings",
    "Request": "reference._request",
    "validate_request": "reference._request",
    "SNAPSHOT_FORMAT": "reference._trust",
    "MemoryReceipt": "reference._writer",
    "StoreWriteError": "reference._writer",
    "StoreWriter": "reference._writer",
    "append_record": "reference._writer",
    "build_record": "reference._writer",
    "correct_record": "reference._writer",
    "make_ref": "reference._writer",
    "utc_now": "reference._writer",
}


def __getattr__(name: str) -> Any:
    """Import the module defining public ``name`` on first use."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'reference' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names too, imported or not."""
    return sorted({*globals(), *_PUBLIC})


__all__ = [
    "ALTERNATIVES",
    "CONTROLLER_VERSION",
    "ERROR_CODES",
    "REASONS",
    "SNAPSHOT_FORMAT",
    "CanonicalizationError",
    "InvalidRequestError",
    "MemoryReadError",
    "MemoryReceipt",
    "Readings",
    "Request",
    "StoreError",
    "StoreWriteError",
    "StoreWriter",
    "TrustSnapshotError",
    "UnknownReading",
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
