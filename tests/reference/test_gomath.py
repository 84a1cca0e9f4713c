"""INT-04/go-math-pow: the reference's and the oracle's ports of Go's math.Pow against Go itself.

``tests/fixtures/go-math-pow.txt.gz`` is the output of ``tools/runtimes/go/powpairs`` under Go
1.19 (amd64, FMA): for each (x, y) the bits of math.Pow(x, y) and its
``strconv.FormatFloat(r, 'g', -1, 64)`` text.
"""

from __future__ import annotations

import gzip
import math
import struct

import pytest
from paths import FIXTURES

from reference._gomath import go_pow
from tools.oracle import go_pow_half

_LINES = gzip.decompress((FIXTURES / "go-math-pow.txt.gz").read_bytes()).decode().splitlines()


def _double(word: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(word.rjust(16, "0")))[0]
    return value


#: (x, y, Go's math.Pow(x, y), its FormatFloat text), in the file's order.
PAIRS = [
    (_double(x), _double(y), _double(pow_), text)
    for x, y, pow_, text in (line.split() for line in _LINES)
]


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or struct.pack(">d", a) == struct.pack(">d", b)


def test_the_fixture_holds_the_kits_pairs() -> None:
    """The fixture has thousands of pairs, most with the kit's base 0.5, and the special cases."""
    assert len(PAIRS) > 3000
    assert sum(1 for x, y, _, _ in PAIRS if x == 0.5 and y > 0) > 1800
    assert any(math.isnan(x) for x, _, _, _ in PAIRS)


def test_the_reference_port_is_go_bit_for_bit() -> None:
    """reference._gomath.go_pow returns Go's bits (NaN for NaN) on every pair."""
    wrong = [(x, y, text) for x, y, want, text in PAIRS if not _same(go_pow(x, y), want)]
    assert wrong == []


def test_the_oracle_port_is_go_bit_for_bit() -> None:
    """tools.oracle.go_pow_half returns Go's bits on every pair of base 0.5 and exponent > 0."""
    half = [(y, want) for x, y, want, _ in PAIRS if x == 0.5 and 0 < y < math.inf]
    assert [(y, want) for y, want in half if not _same(go_pow_half(y), want)] == []


def test_the_reference_port_prints_as_go_prints() -> None:
    """repr of the port's result is repr of the double Go's FormatFloat text names."""
    for x, y, _, text in PAIRS:
        if text not in ("NaN", "+Inf", "-Inf"):
            assert repr(go_pow(x, y)) == repr(float(text)), (x, y)


@pytest.mark.parametrize(
    ("exponent", "go"),
    [(0.001, 0.9993070929904525), (1.0, 0.5), (0.5, 0.7071067811865476),
     (0.09975, 0.9331946878431834)],  # the last: correctly rounded ...835 (tools runtimes)
)  # fmt: skip
def test_examples(exponent: float, go: float) -> None:
    """A few exponents with the value Go 1.19 prints for math.Pow(0.5, exponent)."""
    assert go_pow(0.5, exponent) == go == go_pow_half(exponent)
