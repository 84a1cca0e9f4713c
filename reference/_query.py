"""Query normalization, query_hash and query-term derivation (S6-HASH-04..07, S6-SCORE-02..06)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import regex

from reference._canonical import sha256_hex
from reference._text import normalize, split_terms

__all__ = [
    "QUERY_RAW",
    "SUPPLIED_TERMS",
    "TERM_LENGTHS",
    "derive_terms",
    "derived_each",
    "empty_is_absent",
    "query_hash",
    "supplied_terms",
    "verbatim_terms",
]


def query_hash(query: str, normalize: Callable[[str], str] = normalize) -> str:
    """S6-HASH-04: "MUST be SHA-256 hex of the normalized query" (INT-11)."""
    return sha256_hex(normalize(query).encode("utf-8"))


def _unique(terms: list[str]) -> tuple[str, ...]:
    # S6-SCORE-06: "preserve original appearance order, then unique (first occurrence wins)"
    return tuple(dict.fromkeys(terms))


def utf16_units(term: str) -> int:
    """INT-07/utf-16-units (an alternative, ``_readings.py``): JavaScript's ``.length``."""
    return len(term.encode("utf-16-le")) // 2


def utf8_bytes(term: str) -> int:
    """INT-07/utf-8-bytes (an alternative, ``_readings.py``): Go's ``len``, Rust's ``.len()``."""
    return len(term.encode("utf-8"))


_GRAPHEME: Final = regex.compile(r"\X")


def graphemes(term: str) -> int:
    """INT-07/grapheme-clusters (an alternative, ``_readings.py``): extended grapheme clusters
    (UAX #29, the ``regex`` module's ``\\X``), so e + U+0301 is one."""
    return len(_GRAPHEME.findall(term))


#: INT-07: how a term's length is counted (the pinned reading first).
TERM_LENGTHS: Final = {
    "code-points": len,
    "utf-16-units": utf16_units,
    "utf-8-bytes": utf8_bytes,
    "grapheme-clusters": graphemes,
}


def derive_terms(
    query: str, length: Callable[[str], int] = len, normalize: Callable[[str], str] = normalize
) -> tuple[str, ...]:
    """Derive query terms when scoring.query_terms is absent (S6-SCORE-02..06); ``length``
    counts a term's length (INT-07: code points)."""
    normalized = normalize(query)  # 1) normalize query: trim, lower, collapse whitespace
    parts = split_terms(normalized)  # 2) split on whitespace
    parts = [term for term in parts if term]  # 3) drop empty terms
    parts = [term for term in parts if length(term) >= 2]  # 4) keep length >= 2 (INT-07)
    return _unique(parts)  # 5) stable order, unique


def supplied_terms(
    terms: tuple[str, ...],
    normalize: Callable[[str], str] = normalize,
    length: Callable[[str], int] = len,
    query: str = "",
) -> tuple[str, ...]:
    """Caller-supplied terms: normalized, empties removed, deduplicated; no split (INT-08)."""
    return _unique([normalized for normalized in map(normalize, terms) if normalized])


def verbatim_terms(
    terms: tuple[str, ...],
    normalize: Callable[[str], str] = normalize,
    length: Callable[[str], int] = len,
    query: str = "",
) -> tuple[str, ...]:
    """INT-08/verbatim (an alternative, ``_readings.py``): supplied terms as given -- not
    trimmed, collapsed or lowercased, empties kept; only S6-SCORE-06's "unique" applies."""
    return _unique(list(terms))


def derived_each(
    terms: tuple[str, ...],
    normalize: Callable[[str], str] = normalize,
    length: Callable[[str], int] = len,
    query: str = "",
) -> tuple[str, ...]:
    """INT-08/apply-derivation-steps-split (an alternative, ``_readings.py``): every supplied
    term goes through derivation steps 1-4 (normalize, split, drop empties, keep length >= 2,
    ``length`` the INT-07 reading); the pieces of all terms, in order, then step 5 (unique)."""
    return _unique([piece for term in terms for piece in derive_terms(term, length, normalize)])


def empty_is_absent(
    terms: tuple[str, ...],
    normalize: Callable[[str], str] = normalize,
    length: Callable[[str], int] = len,
    query: str = "",
) -> tuple[str, ...]:
    """INT-08/treat-empty-list-absent (an alternative, ``_readings.py``): supplied terms as
    pinned, but an empty list derives the terms from ``query`` as if it were absent."""
    if not terms:
        return derive_terms(query, length, normalize)
    return supplied_terms(terms, normalize)


#: INT-08: how supplied query_terms become the terms scored (the pinned reading first); each
#: takes (terms, normalize, length, query).
SUPPLIED_TERMS: Final = {
    "normalized": supplied_terms,
    "verbatim": verbatim_terms,
    "derived": derived_each,
    "empty-is-absent": empty_is_absent,
}


def _as_given(query: str, normalize: Callable[[str], str]) -> str:
    return query


def _normalized(query: str, normalize: Callable[[str], str]) -> str:
    return normalize(query)


#: INT-11: what package.query.raw holds (the pinned reading first): the query "as-given", or
#: INT-11/query-raw-holds-normalized's "normalized" query.
QUERY_RAW: Final = {"as-given": _as_given, "normalized": _normalized}
