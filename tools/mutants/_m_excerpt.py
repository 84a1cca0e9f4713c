"""Mutants of excerpt construction and the token estimator (TRUNCATION, TOKEN BUDGETING;
INT-31, INT-46)."""

from __future__ import annotations

from typing import Any

from tools.mutants._patch import replace
from tools.mutants._registry import mutant

_ASCII_WHITESPACE = " \t\n\r\v\f"


def _excerpt_variant(build: Any) -> None:
    """Replace the excerpt builder the package assembler calls."""
    from reference import _package

    replace(_package, "excerpt_of", build)


@mutant("truncate-by-characters", clauses=("S6-TRUNC-06",), interpretations=("INT-31",))
def _() -> None:
    """The excerpt is cut to max_bytes characters instead of max_bytes UTF-8 bytes."""
    from reference._excerpt import tokens_for
    from reference._text import strip_white_space

    def build(text: str, per_item: int) -> tuple[str, int]:
        excerpt = strip_white_space(text)[: per_item * 4]
        return excerpt, tokens_for(len(excerpt.encode("utf-8")))

    _excerpt_variant(build)


@mutant("tokens-floor", clauses=("S6-TOK-01", "S6-TRUNC-08"), interpretations=("INT-46",))
def _() -> None:
    """excerpt_tokens = floor(bytes / 4) instead of ceil."""
    from reference import _excerpt

    replace(_excerpt, "tokens_for", lambda length: length // 4)


@mutant("tokens-per-character", clauses=("S6-TOK-01",), interpretations=("INT-46",))
def _() -> None:
    """excerpt_tokens counts code points / 4 (rounded up) instead of UTF-8 bytes / 4."""
    from reference._text import strip_white_space

    def build(text: str, per_item: int) -> tuple[str, int]:
        data = strip_white_space(text).encode("utf-8")
        cut = min(len(data), per_item * 4)
        while 0 < cut < len(data) and data[cut] & 0xC0 == 0x80:
            cut -= 1
        excerpt = data[:cut].decode("utf-8")
        return excerpt, -(-len(excerpt) // 4)

    _excerpt_variant(build)


@mutant("strip-not-applied", clauses=("S6-TRUNC-02",), interpretations=("INT-31",))
def _() -> None:
    """Leading and trailing whitespace is kept in the excerpt."""
    from reference import _excerpt

    replace(_excerpt, "strip_white_space", lambda text: text)


@mutant("strip-ascii-only", clauses=("S6-TRUNC-02",), interpretations=("INT-31", "INT-05"))
def _() -> None:
    """Only ASCII whitespace is stripped from the excerpt (U+00A0, U+3000, U+0085 stay)."""
    from reference import _excerpt

    replace(_excerpt, "strip_white_space", lambda text: text.strip(_ASCII_WHITESPACE))


@mutant("strip-after-cut", clauses=("S6-TRUNC-06", "S6-TRUNC-01"), interpretations=("INT-31",))
def _() -> None:
    """The cut excerpt is stripped again (a trailing space left by the cut is removed)."""
    from reference import _excerpt
    from reference._text import strip_white_space

    original = _excerpt.excerpt_of

    def build(text: str, per_item: int) -> tuple[str, int]:
        excerpt, _ = original(text, per_item)
        excerpt = strip_white_space(excerpt)
        return excerpt, _excerpt.tokens_for(len(excerpt.encode("utf-8")))

    _excerpt_variant(build)


@mutant("cut-keeps-split-codepoint", clauses=("S6-TRUNC-07",), interpretations=("INT-31",))
def _() -> None:
    """A cut inside a multi-byte character moves forward past it (the excerpt exceeds max_bytes)."""
    from reference._excerpt import tokens_for
    from reference._text import strip_white_space

    def build(text: str, per_item: int) -> tuple[str, int]:
        data = strip_white_space(text).encode("utf-8")
        cut = per_item * 4
        if cut < len(data):
            while cut < len(data) and data[cut] & 0xC0 == 0x80:
                cut += 1
            data = data[:cut]
        return data.decode("utf-8"), tokens_for(len(data))

    _excerpt_variant(build)
