"""The metadata-only, success-only ledger receipt (LEDGER RECEIPT CONSTRAINTS, INT-43).

S6-RCPT-01: "The dispatcher receipt for memory.read success MUST include ONLY: kind =
"memory.read"; data: query_hash, store_paths, selected_count, package_hash."
S6-RCPT-07..11: no excerpts, raw text, tags, refs or anything that reconstructs content.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build_receipt"]


def build_receipt(package: dict[str, Any], store_paths: list[str]) -> dict[str, Any]:
    """Build the receipt from the finished package: hashes, normalized paths and a count.

    `store_paths` is the normalized, deduplicated, sorted list (INT-43).  Only the package's
    hashes and the count are read from it; nothing derived from memory text is.
    """
    return {
        "kind": "memory.read",
        "data": {
            "query_hash": package["query"]["query_hash"],
            "store_paths": list(store_paths),
            "selected_count": len(package["selection"]["selected"]),
            "package_hash": package["package_hash"],
        },
    }
