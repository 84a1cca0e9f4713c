"""Recency 'hazard' vectors (INT-04): ages at which a platform pow is NOT correctly rounded.

INT-04 pins weight = the correctly rounded double of 2**-exponent. glibc's ``pow`` (CPython's
``0.5 ** e``) misses it for about 0.1% of exponents, V8's ``Math.pow`` (Node.js) for about 10%;
a 1-ulp error changes the score's last digit and therefore package_hash. Each vector here has
one record whose score IS the weight (no term matches), at a whole-millisecond age where one of
the two runtimes is wrong: an implementation that calls that pow fails exactly that vector.

The table :data:`HAZARDS` is DATA, found once by :func:`search` (``python -m
tools.generate.families.hazard --search``; it needs ``node`` on PATH) on glibc 2.36 /
CPython 3.11 and Node.js 20 (V8 11.3). The build does not re-run the search (its result depends
on the machine's libm); it re-derives the correctly rounded weight with mpmath at 80 digits and
checks that the recorded runtime value differs from it, so the table cannot rot silently.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction

from tools.generate.families._case import Case, Json, line, make_request, scores, store
from tools.generate.families.recency import ts_before

__all__ = ["DESCRIPTION", "HAZARDS", "cases", "correct_weight", "search"]

DESCRIPTION = "Generated: recency ages where glibc's or V8's pow is not correctly rounded (INT-04)."

NOW = "2024-06-15T12:00:00Z"
MS_PER_DAY = 86_400_000
SEED = 6006

#: (age in ms, half-life in days, runtime that is wrong, its value as float.hex, or "" when
#: both are wrong: then "glibc=<hex>;v8=<hex>")
HAZARDS: tuple[tuple[int, int, str, str], ...] = (
    (21379966111, 30, "v8", "0x1.af00ef5ad4b2cp-9"),
    (29553588836, 30, "v8", "0x1.8386df880e14ap-12"),
    (26399189522, 30, "v8", "0x1.c26b8db9ee55cp-11"),
    (19583641316, 30, "v8", "0x1.5c6549b6ce202p-8"),
    (1458121932, 30, "v8", "0x1.5aad98feb6a3ep-1"),
    (3279354093, 30, "v8", "0x1.aa081fda6356ep-2"),
    (3581016896, 30, "v8", "0x1.890370ce58d02p-2"),
    (4095034962, 30, "v8", "0x1.568a0ac0bb8bcp-2"),
    (24004490680, 30, "v8", "0x1.ab456c9319520p-10"),
    (8921914292, 30, "v8", "0x1.78dd66e5c4e78p-4"),
    (9528261054, 30, "v8", "0x1.407437c18b0a8p-4"),
    (5929171900, 30, "v8", "0x1.a37ecc107c8fep-3"),
    (18605995089, 30, "v8", "0x1.c47ef851246dep-8"),
    (3869955257, 30, "v8", "0x1.6bca3755420ccp-2"),
    (5127651199, 30, "glibc+v8", "glibc=0x1.03e304d2ce438p-2;v8=0x1.03e304d2ce438p-2"),
    (32571386963, 30, "glibc+v8", "glibc=0x1.59d1fb0f0a536p-13;v8=0x1.59d1fb0f0a536p-13"),
    (18521355071, 30, "glibc", "0x1.cedacbf20b911p-8"),
    (34462215937, 30, "glibc", "0x1.a12425aadf8edp-14"),
    (9421224220, 30, "glibc", "0x1.49c250f3e9eb7p-4"),
    (28536036220, 30, "glibc", "0x1.fcb8355703d2fp-12"),
    (29104947406, 30, "glibc+v8", "glibc=0x1.b4ec9cc79a1dcp-12;v8=0x1.b4ec9cc79a1dcp-12"),
    (32470045137, 30, "glibc+v8", "glibc=0x1.635200f0a3104p-13;v8=0x1.635200f0a3104p-13"),
    (3028863605, 30, "glibc", "0x1.c78c19aa19edbp-2"),
    (9853770057, 30, "glibc", "0x1.25bd31504a1adp-4"),
    (18516922003, 30, "glibc+v8", "glibc=0x1.cf67593fb677cp-8;v8=0x1.cf67593fb677cp-8"),
    (4019567766, 30, "glibc+v8", "glibc=0x1.5d85b79fedd77p-2;v8=0x1.5d85b79fedd77p-2"),
    (10241172976, 30, "glibc", "0x1.08d4d440bb29dp-4"),
    (2519538205, 30, "glibc+v8", "glibc=0x1.05025024af1acp-1;v8=0x1.05025024af1acp-1"),
    (12471679845, 7, "v8", "0x1.4cdff8c54b240p-21"),
    (19638769006, 7, "v8", "0x1.714260b5dff28p-33"),
    (14180164386, 7, "v8", "0x1.77d61e871ab1cp-24"),
    (28434151992, 7, "glibc+v8", "glibc=0x1.fb019b713b092p-48;v8=0x1.fb019b713b092p-48"),
    (34249226623, 7, "glibc", "0x1.4b11a4169eb03p-57"),
    (13383733841, 7, "glibc", "0x1.d4250563c219bp-23"),
    (6065258371, 365, "v8", "0x1.c01933df863afp-1"),
    (17800942736, 365, "v8", "0x1.5a37bd542236ap-1"),
    (9136161751, 365, "v8", "0x1.a2d9ec5450262p-1"),
    (17849631737, 365, "glibc", "0x1.59d8f09fc5957p-1"),
    (32635526259, 365, "glibc+v8", "glibc=0x1.f3c65714eb28ep-2;v8=0x1.f3c65714eb28ep-2"),
    (34095651722, 365, "glibc", "0x1.e3fd7cab43e8dp-2"),
)


def exponent_of(age_ms: int, half_life: int) -> float:
    """INT-35: age_days exact, rounded once; INT-04: exponent = age_days / half_life, rounded."""
    return float(Fraction(age_ms, MS_PER_DAY)) / half_life


def correct_weight(exponent: float) -> float:
    """The correctly rounded double of 2**-exponent (mpmath, 80 significant digits)."""
    import mpmath

    with mpmath.workdps(80):
        return float(mpmath.power(2, -mpmath.mpf(exponent)))


def _ulps(a: float, b: float) -> int:
    import struct

    def bits(x: float) -> int:
        return int(struct.unpack("<q", struct.pack("<d", x))[0])

    return bits(a) - bits(b)


def search(per_runtime: int = 14, half_lives: tuple[int, ...] = (30, 7, 365)) -> list[str]:
    """Deterministically look for hazard ages; return table rows as Python source lines.

    Candidate ages come from ``random.Random(SEED)``; for each half-life the first
    ``per_runtime`` ages where glibc is wrong and the first where V8 is wrong are kept.
    """
    rows: list[str] = []
    for half_life in half_lives:
        rng = random.Random(SEED + half_life)
        want = per_runtime if half_life == 30 else max(2, per_runtime // 4)
        found = {"glibc": 0, "v8": 0}
        while min(found.values()) < want:
            ages = [rng.randrange(1, 400 * MS_PER_DAY) for _ in range(4000)]
            exps = [exponent_of(a, half_life) for a in ages]
            v8 = _node_pow(exps)
            for age, exp, v8_value in zip(ages, exps, v8, strict=True):
                right = correct_weight(exp)
                glibc = 0.5**exp
                wrong = [name for name, v in (("glibc", glibc), ("v8", v8_value)) if v != right]
                if not wrong or all(found[w] >= want for w in wrong):
                    continue
                for w in wrong:
                    found[w] += 1
                if len(wrong) == 2:
                    value = f"glibc={glibc.hex()};v8={v8_value.hex()}"
                    rows.append(f'    ({age}, {half_life}, "glibc+v8", "{value}"),')
                else:
                    value = (glibc if wrong[0] == "glibc" else v8_value).hex()
                    rows.append(f'    ({age}, {half_life}, "{wrong[0]}", "{value}"),')
    return rows


def _node_pow(exponents: list[float]) -> list[float]:
    script = (
        "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{"
        "console.log(JSON.stringify(JSON.parse(d).map(e=>Math.pow(0.5,e))))})"
    )
    done = subprocess.run(
        ["node", "-e", script],
        input=json.dumps(exponents),
        capture_output=True,
        text=True,
        check=True,
    )
    values: list[float] = [float(v) for v in json.loads(done.stdout)]
    return values


def _runtime_values(runtime: str, recorded: str) -> dict[str, float]:
    if runtime == "glibc+v8":
        parts = dict(item.split("=") for item in recorded.split(";"))
        return {name: float.fromhex(value) for name, value in parts.items()}
    return {runtime: float.fromhex(recorded)}


def _score_is(expected: float) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = scores(result)[0]
        return None if got == expected else f"score {got!r}, intended {expected!r}"

    return check


_RUNTIMES = {"glibc": "glibc 2.36 pow (CPython 0.5 ** e)", "v8": "V8 Math.pow (Node.js 20)"}


def cases() -> Iterator[Case]:
    """One vector per table row."""
    for age_ms, half_life, runtime, recorded in HAZARDS:
        exponent = exponent_of(age_ms, half_life)
        right = correct_weight(exponent)
        wrong = _runtime_values(runtime, recorded)
        if any(v == right for v in wrong.values()):
            raise AssertionError(f"hazard table row {age_ms} is not a hazard: {runtime}")
        ts = ts_before(age_ms * 10**6)
        who = " and ".join(_RUNTIMES[name] for name in wrong)
        off = ", ".join(
            f"{name} gives {value.hex()} ({_ulps(value, right):+d} ulp)"
            for name, value in wrong.items()
        )
        check = _score_is(right)
        yield Case(
            id=f"hazard-h{half_life:03d}-{age_ms}ms",
            description=f"Recency weight where {who} is not correctly rounded.",
            comment=(
                f"wrong: {runtime}. age {age_ms} ms, half-life {half_life} d, now {NOW}, ts {ts}; "
                f"exponent {exponent!r} ({exponent.hex()}); correctly rounded 2**-e = {right!r} "
                f"({right.hex()}); {off}."
            ),
            clauses=("S6-SCORE-16", "S6-SCORE-17", "S6-OUT-25", "S6-OUT-13"),
            interpretations=("INT-04", "INT-35", "INT-01", "INT-48"),
            request=make_request(
                "zz",
                scoring={"enable_recency_weight": True, "recency_half_life_days": half_life},
                now_utc=NOW,
            ),
            files={"stores/s.jsonl": store(line("m1", "memo", ts_utc=ts))},
            check=check,
        )


if __name__ == "__main__":
    if sys.argv[1:] != ["--search"]:
        sys.exit("usage: python -m tools.generate.families.hazard --search")
    print("\n".join(search()))
