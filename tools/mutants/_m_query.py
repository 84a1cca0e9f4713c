"""Mutants of query normalization, query_hash and query terms (HASHING query_hash, SCORING
term derivation; INT-05..INT-08, INT-11)."""

from __future__ import annotations

import re

from tools.mutants._patch import replace
from tools.mutants._registry import mutant

_ASCII_RUN = re.compile(r"[ \t\n\r\v\f]+")


@mutant(
    "query-hash-not-lowercased", clauses=("S6-HASH-07", "S6-HASH-04"), interpretations=("INT-11",)
)
def _() -> None:
    """query_hash is computed over the trimmed, collapsed but not lowercased query."""
    from reference import _controller
    from reference._canonical import sha256_hex
    from reference._text import collapse

    replace(_controller, "query_hash", lambda query: sha256_hex(collapse(query).encode("utf-8")))


@mutant(
    "query-hash-of-raw-query",
    clauses=("S6-HASH-05", "S6-HASH-06", "S6-HASH-04"),
    interpretations=("INT-11",),
)
def _() -> None:
    """query_hash is the SHA-256 of the query exactly as given (not normalized)."""
    from reference import _controller
    from reference._canonical import sha256_hex

    replace(_controller, "query_hash", lambda query: sha256_hex(query.encode("utf-8")))


@mutant(
    "whitespace-python-split",
    clauses=("S6-SCORE-03", "S6-HASH-06"),
    interpretations=("INT-05",),
)
def _() -> None:
    """Whitespace is Python's str.split(): U+001C..U+001F also separate terms."""
    from reference import _text

    replace(_text, "_split_is_exact", lambda text: True)


@mutant(
    "whitespace-ascii-only",
    clauses=("S6-HASH-05", "S6-HASH-06", "S6-SCORE-03"),
    interpretations=("INT-05",),
)
def _() -> None:
    """Only ASCII whitespace is trimmed and collapsed (U+00A0, U+3000, U+2028 ... are not)."""
    from reference import _text

    replace(_text, "collapse", lambda text: _ASCII_RUN.sub(" ", text).strip(" \t\n\r\v\f"))


@mutant(
    "casefold-not-lower",
    clauses=("S6-HASH-07", "S6-SCORE-02"),
    interpretations=("INT-06",),
)
def _() -> None:
    """Normalization uses Unicode case folding (str.casefold: ß -> ss) instead of lowercasing."""
    from reference import _query, _request, _scoring, _text

    def normalize(text: str) -> str:
        return _text.collapse(text).casefold()

    for module in (_text, _query, _scoring, _request):
        replace(module, "normalize", normalize)


@mutant("term-length-in-bytes", clauses=("S6-SCORE-05",), interpretations=("INT-07",))
def _() -> None:
    """The term length filter counts UTF-8 bytes, not code points ('é' is kept)."""
    from reference import _controller, _query
    from reference._text import normalize, split_terms

    def derive(query: str) -> tuple[str, ...]:
        parts = [t for t in split_terms(normalize(query)) if t]
        return _query._unique([t for t in parts if len(t.encode("utf-8")) >= 2])

    replace(_controller, "derive_terms", derive)


@mutant("one-char-terms-kept", clauses=("S6-SCORE-05",))
def _() -> None:
    """Derived terms shorter than two code points are kept."""
    from reference import _controller, _query
    from reference._text import normalize, split_terms

    def derive(query: str) -> tuple[str, ...]:
        return _query._unique([t for t in split_terms(normalize(query)) if t])

    replace(_controller, "derive_terms", derive)


@mutant("terms-not-deduplicated", clauses=("S6-SCORE-06",), interpretations=("INT-10",))
def _() -> None:
    """Derived and supplied terms keep duplicates (a repeated term counts twice)."""
    from reference import _query

    replace(_query, "_unique", tuple)


@mutant("supplied-terms-verbatim", clauses=("S6-INPUT-11",), interpretations=("INT-08",))
def _() -> None:
    """Supplied scoring.query_terms are used as given (not trimmed, collapsed, lowercased)."""
    from reference import _controller

    replace(_controller, "supplied_terms", lambda terms: tuple(dict.fromkeys(terms)))


@mutant("supplied-terms-derived", clauses=("S6-INPUT-11",), interpretations=("INT-08",))
def _() -> None:
    """Supplied query_terms go through every derivation step (split on whitespace, length >= 2)."""
    from reference import _controller, _query

    def supplied(terms: tuple[str, ...]) -> tuple[str, ...]:
        return _query._unique([t for term in terms for t in _query.derive_terms(term)])

    replace(_controller, "supplied_terms", supplied)
