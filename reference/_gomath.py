"""Go's ``math.Pow`` as Go 1.19 computes it on amd64 (INT-04/go-math-pow), bit for bit.

INT-04's first alternative is "the platform pow"; the obvious Go code calls ``math.Pow``, which
is not the C library's: it is ``src/math/pow.go`` (pure Go, after FreeBSD's e_pow.c), built on
``Modf``, ``Frexp``, ``Ldexp`` (pure Go) and ``Exp``, ``Log``, which amd64 computes in assembly
(``exp_amd64.s``: Shibata's method with a Taylor series, its FMA branch taken on every CPU with
AVX and FMA; ``log_amd64.s``: FreeBSD's e_log.c without normalizing subnormals). Each function
below is a line-for-line port of its Go source; ``_fused`` stands for one FMA instruction (one
rounding of a * b + c, computed exactly with fractions). Checked bit for bit against Go 1.19
(amd64, FMA) on the 3,541 (base, exponent) pairs ``tools/runtimes/go/powpairs`` writes to
``tests/fixtures/go-math-pow.txt.gz`` (``tests/reference/test_gomath.py``).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Final

__all__ = ["go_pow"]

_SHIFT: Final = 52
_MASK: Final = 0x7FF
_BIAS: Final = 1023
_SMALLEST_NORMAL: Final = 2.2250738585072014e-308


def _bits(x: float) -> int:
    return int.from_bytes(struct.pack(">d", x), "big")


def _float(bits: int) -> float:
    value: float = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
    return value


def _fused(a: float, b: float, c: float) -> float:
    """a * b + c rounded once (VFMADD); the exact sum of an exact product, then one rounding."""
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    return float(exact) if exact else a * b + c


def _normalize(x: float) -> tuple[float, int]:
    """math.normalize: a subnormal x scaled into the normal range, and the exponent taken."""
    if abs(x) < _SMALLEST_NORMAL:
        return x * (1 << 52), -52
    return x, 0


def _frexp(f: float) -> tuple[float, int]:
    """math.frexp (frexp.go)."""
    if f == 0 or math.isinf(f) or math.isnan(f):
        return f, 0
    f, exp = _normalize(f)
    x = _bits(f)
    exp += ((x >> _SHIFT) & _MASK) - _BIAS + 1
    x &= ~(_MASK << _SHIFT)
    x |= (-1 + _BIAS) << _SHIFT
    return _float(x), exp


def _ldexp(frac: float, exp: int) -> float:
    """math.ldexp (ldexp.go)."""
    if frac == 0 or math.isinf(frac) or math.isnan(frac):
        return frac
    frac, e = _normalize(frac)
    exp += e
    x = _bits(frac)
    exp += ((x >> _SHIFT) & _MASK) - _BIAS
    if exp < -1075:
        return math.copysign(0.0, frac)
    if exp > 1023:
        return -math.inf if frac < 0 else math.inf
    m = 1.0
    if exp < -1022:
        exp += 53
        m = 1.0 / (1 << 53)
    x &= ~(_MASK << _SHIFT)
    x |= (exp + _BIAS) << _SHIFT
    return m * _float(x)


def _modf(f: float) -> tuple[float, float]:
    """math.modf (modf.go): (integer part, fraction); Modf(+Inf) is (+Inf, NaN)."""
    if f < 1:
        if f < 0:
            whole, frac = _modf(-f)
            return -whole, -frac
        if f == 0:
            return f, f
        return 0.0, f
    x = _bits(f)
    e = ((x >> _SHIFT) & _MASK) - _BIAS
    if e < 64 - 12:
        x &= ~((1 << (64 - 12 - e)) - 1)
    whole = _float(x)
    return whole, f - whole


def _is_odd_int(x: float) -> bool:
    """isOddInt (pow.go); int64 of a value beyond 2**63 is 0x8000000000000000 on amd64 (even)."""
    whole, frac = _modf(x)
    return frac == 0 and abs(whole) < 2.0**63 and int(whole) & 1 == 1


# exp_amd64.s
_LOG2E: Final = 1.4426950408889634073599246810018920
_LN2U: Final = 0.69314718055966295651160180568695068359375
_LN2L: Final = 0.28235290563031577122588448175013436025525412068e-12
_OVERFLOW: Final = 7.09782712893384e02
#: exprodata<>+24 .. +64: 1/3!, 1/4!, ..., 1/8!
_TAYLOR: Final = (
    1.6666666666666666667e-1,
    4.1666666666666666667e-2,
    8.3333333333333333333e-3,
    1.3888888888888888889e-3,
    1.9841269841269841270e-4,
    2.4801587301587301587e-5,
)


def _cvtsd2sl(x: float) -> int:
    """CVTSD2SL: to int32 rounding to nearest even; out of range or NaN: 0x80000000."""
    if not math.isfinite(x) or not -(2.0**31) <= round(x) <= 2.0**31 - 1:
        return -(2**31)
    return round(x)


def _exp(x: float) -> float:
    """archExp (exp_amd64.s), the avxfma branch."""
    if math.isinf(x) or math.isnan(x):
        return 0.0 if x == -math.inf else x
    if x > _OVERFLOW:
        return math.inf
    exponent = _cvtsd2sl(_LOG2E * x)
    k = float(exponent)
    x = _fused(-_LN2U, k, x)
    x = _fused(-_LN2L, k, x)
    x *= 0.0625
    series = _TAYLOR[-1]
    for coefficient in (*reversed(_TAYLOR[:-1]), 0.5, 1.0):
        series = _fused(series, x, coefficient)
    x *= series
    for _ in range(3):
        x *= x + 2.0
    x = _fused(x, x + 2.0, 1.0)
    biased = exponent + 0x3FF
    if biased <= 0:  # denormal
        if biased < -52:
            return 0.0
        x *= _float((biased + 0x3FE) << _SHIFT)
        biased = 1
    elif biased >= 0x7FF:
        return math.inf
    return x * _float(biased << _SHIFT)


# log_amd64.s
_HSQRT2: Final = 7.07106781186547524401e-01
_LN2HI: Final = 6.93147180369123816490e-01
_LN2LO: Final = 1.90821492927058770002e-10
_L1: Final = 6.666666666666735130e-01
_L2: Final = 3.999999999940941908e-01
_L3: Final = 2.857142874366239149e-01
_L4: Final = 2.222219843214978396e-01
_L5: Final = 1.818357216161805012e-01
_L6: Final = 1.531383769920937332e-01
_L7: Final = 1.479819860511658591e-01


def _log(x: float) -> float:
    """archLog (log_amd64.s): the exponent and mantissa read from the bits, unnormalized."""
    bits = _bits(x)
    if bits & ~(1 << 63) == 0:
        return -math.inf
    if bits >> 63:
        return math.nan
    if bits >= 0x7FF0000000000000:
        return x
    f1 = _float((bits & 0x000FFFFFFFFFFFFF) | 0x3FE0000000000000)
    k = float(((bits >> 52) & 0x7FF) - 0x3FE)
    if f1 <= _HSQRT2:  # CMPSD ..., 5: not (sqrt(2)/2 < f1)
        k -= 1.0
        f1 *= 2.0
    f = f1 - 1.0
    s = f / (2.0 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (_L1 + s4 * (_L3 + s4 * (_L5 + s4 * _L7)))
    t2 = s4 * (_L2 + s4 * (_L4 + s4 * _L6))
    r = t1 + t2
    hfsq = 0.5 * f * f
    return k * _LN2HI - ((hfsq - (s * (hfsq + r) + k * _LN2LO)) - f)


def go_pow(x: float, y: float) -> float:
    """math.Pow(x, y) (pow.go, Go 1.19, amd64 with FMA)."""
    if y == 0 or x == 1:
        return 1.0
    if y == 1:
        return x
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == 0:
        if y < 0:
            return math.copysign(math.inf, x) if _is_odd_int(y) else math.inf
        return x if _is_odd_int(y) else 0.0  # y > 0
    if math.isinf(y):
        if x == -1:
            return 1.0
        return 0.0 if (abs(x) < 1) == (y > 0) else math.inf
    if math.isinf(x):
        if x < 0:
            return go_pow(1 / x, -y)  # Pow(-0, -y)
        return 0.0 if y < 0 else math.inf
    if y == 0.5:
        return math.sqrt(x) if x >= 0 else math.nan
    if y == -0.5:
        return 1 / math.sqrt(x) if x >= 0 else math.nan

    yi, yf = _modf(abs(y))
    if yf != 0 and x < 0:
        return math.nan
    if yi >= 2.0**63:
        if x == -1:
            return 1.0
        return 0.0 if (abs(x) < 1) == (y > 0) else math.inf

    a1 = 1.0  # ans = a1 * 2**ae
    ae = 0
    if yf != 0:  # ans *= x**yf
        if yf > 0.5:
            yf -= 1
            yi += 1
        a1 = _exp(yf * _log(x))

    x1, xe = _frexp(x)  # ans *= x**yi, by squarings of x, powers of two kept apart
    i = int(yi)
    while i != 0:
        if xe < -(1 << 12) or xe > (1 << 12):
            ae += xe
            break
        if i & 1 == 1:
            a1 *= x1
            ae += xe
        x1 *= x1
        xe <<= 1
        if x1 < 0.5:
            x1 += x1
            xe -= 1
        i >>= 1

    if y < 0:  # ans = 1 / ans, in the opposite order
        a1 = 1 / a1 if a1 else math.copysign(math.inf, a1)
        ae = -ae
    return _ldexp(a1, ae)
