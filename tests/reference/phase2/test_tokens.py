"""The token estimator and the whitespace table (P2-TOK-01, P2-TOK-02, P2-INT-01, P2-INT-02)."""

from __future__ import annotations

import ast
import inspect
import unicodedata

import pytest

from reference.phase2 import WHITE_SPACE, estimate_tokens
from reference.phase2 import _tokens as tokens_module
from reference.phase2._tokens import is_blank, word_count


class TestEstimator:
    """estimate(text) = max(words, ceil(code points / 4))."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("", 0),
            ("a", 1),
            ("hi", 1),
            ("abcd", 1),
            ("abcde", 2),
            ("passport", 2),
            ("a b c d e", 5),
            ("x" * 17, 5),
            ("ééééé", 2),
            ("😀" * 5, 2),
            ("a\u00a0b\u3000c", 3),
            ("a\u200bb\u200bc", 2),
            ("a\u001fb", 1),
            ("  ", 1),
            ("a  b", 2),
            ("Memory policy: answer from the context below; prefer the most recent facts.", 19),
        ],
    )
    def test_examples(self, text: str, expected: int) -> None:
        """The register's worked examples and the policy snippet (P2-INT-01, P2-INT-04)."""
        assert estimate_tokens(text) == expected

    def test_words_are_white_space_runs(self) -> None:
        """Words are maximal runs outside the 25 White_Space code points (P2-INT-02)."""
        assert word_count(" a\tb\n\nc\u2028d ") == 4
        assert word_count("\u200b\ufeff\u180e") == 1

    def test_pure_function(self) -> None:
        """P2-TOK-02: counting calls no model: the module imports only typing and
        collections.abc, and the same text always gives the same count."""
        tree = ast.parse(inspect.getsource(tokens_module))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert imported <= {
            "annotations",
            "__future__",
            "Final",
            "typing",
            "Callable",
            "collections.abc",
        }
        assert [estimate_tokens("a b é 😀") for _ in range(3)] == [4, 4, 4]


class TestWhiteSpace:
    """The table is the Unicode White_Space property."""

    def test_twenty_five_code_points(self) -> None:
        """Exactly 25 code points, all separators or controls the property lists."""
        assert len(WHITE_SPACE) == 25
        for char in WHITE_SPACE:
            assert unicodedata.category(char) in {"Zs", "Zl", "Zp", "Cc"}

    @pytest.mark.parametrize("text", ["", " ", "\u3000\t\n", "\u2028\u2029"])
    def test_blank(self, text: str) -> None:
        """Empty and whitespace-only texts are blank (a blank query, P2-INT-17)."""
        assert is_blank(text)

    @pytest.mark.parametrize("text", ["a", "\u200b", " x ", "\u001f"])
    def test_not_blank(self, text: str) -> None:
        """Anything with a non-whitespace code point is not blank."""
        assert not is_blank(text)
