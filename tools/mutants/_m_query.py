"""Mutants of query normalization, query_hash and query terms (HASHING query_hash, SCORING
term derivation; INT-05..INT-08, INT-11)."""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, mutant, patch

_QUERY_HASH = '    return sha256_hex(normalize(query).encode("utf-8"))'
_LENGTH_FILTER = "    parts = [term for term in parts if length(term) >= 2]"
_SUPPLIED = "    return _unique([normalized for normalized in map(normalize, terms) if normalized])"


@mutant(
    "query-hash-not-lowercased", clauses=("S6-HASH-07", "S6-HASH-04"), interpretations=("INT-11",)
)
def _() -> SourcePatch:
    """query_hash is computed over the trimmed, collapsed but not lowercased query."""
    return patch(
        "_query.py",
        _QUERY_HASH,
        "    from reference._text import collapse\n\n"
        '    return sha256_hex(collapse(query).encode("utf-8"))',
    )


@mutant(
    "query-hash-of-raw-query",
    clauses=("S6-HASH-05", "S6-HASH-06", "S6-HASH-04"),
    interpretations=("INT-11",),
)
def _() -> SourcePatch:
    """query_hash is the SHA-256 of the query exactly as given (not normalized)."""
    return patch("_query.py", _QUERY_HASH, '    return sha256_hex(query.encode("utf-8"))')


@mutant(
    "whitespace-python-split",
    clauses=("S6-SCORE-03", "S6-HASH-06"),
    interpretations=("INT-05",),
)
def _() -> SourcePatch:
    """Whitespace is Python's str.split(): U+001C..U+001F also separate terms."""
    return patch(
        "_text.py",
        "    return not any(extra in text for extra in SPLIT_EXTRAS)",
        "    return True",
    )


@mutant(
    "whitespace-ascii-only",
    clauses=("S6-HASH-05", "S6-HASH-06", "S6-SCORE-03"),
    interpretations=("INT-05",),
)
def _() -> SourcePatch:
    """Only ASCII whitespace is trimmed and collapsed (U+00A0, U+3000, U+2028 ... are not)."""
    return patch(
        "_text.py",
        '    if _split_is_exact(text):\n        return " ".join(text.split())\n'
        '    return _RUN.sub(" ", text).strip(" ")',
        '    return re.sub("[ \\t\\n\\r\\v\\f]+", " ", text).strip(" \\t\\n\\r\\v\\f")',
    )


@mutant(
    "casefold-not-lower",
    clauses=("S6-HASH-07", "S6-SCORE-02"),
    interpretations=("INT-06",),
)
def _() -> SourcePatch:
    """Normalization uses Unicode case folding (str.casefold: ß -> ss) instead of lowercasing."""
    return patch(
        "_text.py", "    return collapse(text).lower()", "    return collapse(text).casefold()"
    )


@mutant("term-length-in-bytes", clauses=("S6-SCORE-05",), interpretations=("INT-07",))
def _() -> SourcePatch:
    """The term length filter counts UTF-8 bytes, not code points ('é' is kept)."""
    return patch(
        "_query.py",
        _LENGTH_FILTER,
        '    parts = [term for term in parts if len(term.encode("utf-8")) >= 2]',
    )


@mutant("one-char-terms-kept", clauses=("S6-SCORE-05",))
def _() -> SourcePatch:
    """Derived terms shorter than two code points are kept."""
    return patch("_query.py", _LENGTH_FILTER, "    parts = list(parts)")


@mutant("terms-not-deduplicated", clauses=("S6-SCORE-06",), interpretations=("INT-10",))
def _() -> SourcePatch:
    """Derived and supplied terms keep duplicates (a repeated term counts twice)."""
    return patch("_query.py", "    return tuple(dict.fromkeys(terms))", "    return tuple(terms)")


@mutant("supplied-terms-verbatim", clauses=("S6-INPUT-11",), interpretations=("INT-08",))
def _() -> SourcePatch:
    """Supplied scoring.query_terms are used as given (not trimmed, collapsed, lowercased)."""
    return patch("_query.py", _SUPPLIED, "    return tuple(dict.fromkeys(terms))")


@mutant("supplied-terms-derived", clauses=("S6-INPUT-11",), interpretations=("INT-08",))
def _() -> SourcePatch:
    """Supplied query_terms go through every derivation step (split on whitespace, length >= 2)."""
    return patch(
        "_query.py",
        _SUPPLIED,
        "    return _unique([t for term in terms for t in derive_terms(term)])",
    )
