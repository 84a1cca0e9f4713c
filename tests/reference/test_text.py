"""White_Space, normalization and term derivation (INT-05..INT-09, S6-SCORE-02..06)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from reference._query import derive_terms, query_hash, supplied_terms
from reference._text import SPLIT_EXTRAS, WHITE_SPACE, collapse, normalize, strip_white_space


class TestWhiteSpaceTable:
    """The White_Space table and the str.split() fast path (INT-05)."""

    def test_table_is_the_25_white_space_code_points(self) -> None:
        """INT-05: exactly 25 code points, none a letter, digit or format character."""
        assert len(WHITE_SPACE) == 25
        assert len(set(WHITE_SPACE)) == 25
        assert {unicodedata.category(c) for c in WHITE_SPACE} <= {"Cc", "Zs", "Zl", "Zp"}

    def test_split_differs_only_by_four_separators(self) -> None:
        """INT-05: str.isspace() is White_Space plus U+001C..U+001F, proving the fast path."""
        python_space = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
        assert python_space - set(WHITE_SPACE) == set(SPLIT_EXTRAS)
        assert set(WHITE_SPACE) - python_space == set()

    @pytest.mark.parametrize("extra", [*list(SPLIT_EXTRAS), "\ufeff", "\u200b", "\u180e"])
    def test_non_white_space_is_kept(self, extra: str) -> None:
        """INT-05: U+001C..U+001F, U+FEFF, U+200B and U+180E are not whitespace."""
        assert collapse(f"a{extra}b") == f"a{extra}b"
        assert strip_white_space(f"{extra}a{extra}") == f"{extra}a{extra}"

    @pytest.mark.parametrize("space", list(WHITE_SPACE))
    def test_each_white_space_collapses(self, space: str) -> None:
        """INT-05: every White_Space code point trims and collapses to one U+0020."""
        assert collapse(f"{space}a{space}{space}b{space}") == "a b"
        assert strip_white_space(f"{space}a{space}") == "a"


class TestNormalize:
    """S6-HASH-05..07: trim, collapse internal whitespace to single spaces, lowercase."""

    @pytest.mark.parametrize(
        ("raw", "expected"),
        [
            ("  Hello\t\tWORLD \n", "hello world"),
            ("\u3000Ünïcode\u00a0Text\u2028", "ünïcode text"),
            ("İstanbul", "i\u0307stanbul"),  # INT-06: full mapping, U+0130 -> i + U+0307
            ("ΟΔΟΣ", "οδος"),  # INT-06: Final_Sigma, last Σ -> ς
            ("Straße", "straße"),  # INT-06: lowercasing, not case folding
            ("a\x1cb", "a\x1cb"),  # U+001C is not White_Space
        ],
    )
    def test_normalize(self, raw: str, expected: str) -> None:
        """S6-HASH-05..07 with INT-05/INT-06: the normalized form of tricky inputs."""
        assert normalize(raw) == expected

    def test_query_hash_of_normalized_query(self) -> None:
        """S6-HASH-04: query_hash is SHA-256 hex of the normalized query's UTF-8 bytes."""
        import hashlib

        assert query_hash("  Hello \t WORLD ") == hashlib.sha256(b"hello world").hexdigest()


class TestTerms:
    """Term derivation steps 1-5 (S6-SCORE-02..06) and supplied terms (INT-08)."""

    @pytest.mark.parametrize(
        ("query", "terms"),
        [
            ("Deploy the DB a db", ("deploy", "the", "db")),  # 'a' < 2, 'db' duplicate
            ("é ab 😀 e\u0301", ("ab", "e\u0301")),  # INT-07: code points: é, 😀 dropped
            ("x y z", ()),  # every term too short
            ("foo, foo. Foo", ("foo,", "foo.", "foo")),  # punctuation is part of a term
        ],
    )
    def test_derive(self, query: str, terms: tuple[str, ...]) -> None:
        """S6-SCORE-02..06: normalize, split, drop empty/short, first occurrence wins."""
        assert derive_terms(query) == terms

    def test_supplied_terms_are_normalized_not_filtered(self) -> None:
        """INT-08: supplied terms are normalized and deduplicated; no split, no length filter."""
        assert supplied_terms(("A", " New\tYork ", "a", "", "\u00a0")) == ("a", "new york")
