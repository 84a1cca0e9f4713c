"""Query normalization, query_hash and query-term derivation (S6-HASH-04..07, S6-SCORE-02..06)."""

from __future__ import annotations

from reference._canonical import sha256_hex
from reference._text import normalize, split_terms

__all__ = ["derive_terms", "query_hash", "supplied_terms", "verbatim_terms"]


def query_hash(query: str) -> str:
    """S6-HASH-04: "MUST be SHA-256 hex of the normalized query" (INT-11)."""
    return sha256_hex(normalize(query).encode("utf-8"))


def _unique(terms: list[str]) -> tuple[str, ...]:
    # S6-SCORE-06: "preserve original appearance order, then unique (first occurrence wins)"
    return tuple(dict.fromkeys(terms))


def derive_terms(query: str) -> tuple[str, ...]:
    """Derive query terms when scoring.query_terms is absent (S6-SCORE-02..06)."""
    normalized = normalize(query)  # 1) normalize query: trim, lower, collapse whitespace
    parts = split_terms(normalized)  # 2) split on whitespace
    parts = [term for term in parts if term]  # 3) drop empty terms
    parts = [term for term in parts if len(term) >= 2]  # 4) keep length >= 2 (INT-07)
    return _unique(parts)  # 5) stable order, unique


def supplied_terms(terms: tuple[str, ...]) -> tuple[str, ...]:
    """Caller-supplied terms: normalized, empties removed, deduplicated; no split (INT-08)."""
    return _unique([normalized for normalized in map(normalize, terms) if normalized])


def verbatim_terms(terms: tuple[str, ...]) -> tuple[str, ...]:
    """INT-08/verbatim (an alternative, ``_readings.py``): supplied terms as given -- not
    trimmed, collapsed or lowercased, empties kept; only S6-SCORE-06's "unique" applies."""
    return _unique(list(terms))
