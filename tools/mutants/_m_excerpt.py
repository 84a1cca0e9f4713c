"""Mutants of excerpt construction and the token estimator (TRUNCATION, TOKEN BUDGETING;
INT-31, INT-46)."""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, mutant, patch

_STRIP = '    data = strip(text).encode("utf-8")\n'
_RETURN = '    return data.decode("utf-8"), tokens_for(len(data))'


@mutant("truncate-by-characters", clauses=("S6-TRUNC-06",), interpretations=("INT-31",))
def _() -> SourcePatch:
    """The excerpt is cut to max_bytes characters instead of max_bytes UTF-8 bytes."""
    return patch(
        "_excerpt.py",
        _STRIP,
        "    excerpt = strip(text)[: per_item_tokens * 4]\n"
        '    return excerpt, tokens_for(len(excerpt.encode("utf-8")))\n',
    )


@mutant("tokens-floor", clauses=("S6-TOK-01", "S6-TRUNC-08"), interpretations=("INT-46",))
def _() -> SourcePatch:
    """excerpt_tokens = floor(bytes / 4) instead of ceil."""
    return patch("_excerpt.py", "    return -(-byte_length // 4)", "    return byte_length // 4")


@mutant("tokens-per-character", clauses=("S6-TOK-01",), interpretations=("INT-46",))
def _() -> SourcePatch:
    """excerpt_tokens counts code points / 4 (rounded up) instead of UTF-8 bytes / 4."""
    return patch(
        "_excerpt.py",
        _RETURN,
        '    excerpt = data.decode("utf-8")\n    return excerpt, -(-len(excerpt) // 4)',
    )


@mutant("strip-not-applied", clauses=("S6-TRUNC-02",), interpretations=("INT-31",))
def _() -> SourcePatch:
    """Leading and trailing whitespace is kept in the excerpt."""
    return patch("_excerpt.py", _STRIP, '    data = text.encode("utf-8")\n')


@mutant("strip-ascii-only", clauses=("S6-TRUNC-02",), interpretations=("INT-31", "INT-05"))
def _() -> SourcePatch:
    """Only ASCII whitespace is stripped from the excerpt (U+00A0, U+3000, U+0085 stay)."""
    return patch(
        "_excerpt.py", _STRIP, '    data = text.strip(" \\t\\n\\r\\v\\f").encode("utf-8")\n'
    )


@mutant("strip-after-cut", clauses=("S6-TRUNC-06", "S6-TRUNC-01"), interpretations=("INT-31",))
def _() -> SourcePatch:
    """The cut excerpt is stripped again (a trailing space left by the cut is removed)."""
    return patch(
        "_excerpt.py",
        _RETURN,
        '    excerpt = strip_white_space(data.decode("utf-8"))\n'
        '    return excerpt, tokens_for(len(excerpt.encode("utf-8")))',
    )


@mutant("cut-keeps-split-codepoint", clauses=("S6-TRUNC-07",), interpretations=("INT-31",))
def _() -> SourcePatch:
    """A cut inside a multi-byte character moves forward past it (the excerpt exceeds max_bytes)."""
    return patch(
        "_excerpt.py",
        "        while cut > 0 and data[cut] & 0xC0 == 0x80:\n            cut -= 1\n",
        "        while cut < len(data) and data[cut] & 0xC0 == 0x80:\n            cut += 1\n",
    )
