"""Recency (SCORING 'Recency weight', INT-04, INT-35, INT-36): half-lives 1..365 against ages of
0, whole half-life multiples (exact powers of two: the intent), fractions of a day, one second,
one nanosecond; future timestamps (clamped to 1); invalid ts_utc (no bonus, sorts last); the
switches (enable_recency_weight, now_utc absent); subnormal and underflowing weights; leap years;
and the evaluation order (base + tag_bonus) + recency_bonus.

Unless a row says otherwise the store holds "m1" (with the ts_utc under test, text "memo") and
"m2" (no ts_utc): the query matches neither, so m1's score IS the weight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

from tools.generate.families._case import (
    Case,
    Json,
    Relation,
    line,
    make_request,
    scores,
    store,
)

__all__ = ["DESCRIPTION", "HALF_LIVES", "NOW", "cases", "ts_before"]

DESCRIPTION = (
    "Generated: recency weight over half-lives, ages, future and invalid timestamps and switches."
)

NOW = "2024-06-15T12:00:00Z"
_NOW = datetime(2024, 6, 15, 12, 0, 0, tzinfo=UTC)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NS_PER_DAY = 86_400 * 10**9
HALF_LIVES = (1, 2, 3, 7, 10, 14, 30, 45, 60, 90, 180, 365)


def ts_before(age_ns: int, now: datetime = _NOW) -> str:
    """The UTC timestamp ``age_ns`` nanoseconds before ``now`` (negative: after), normalized."""
    total = (now - _EPOCH) // timedelta(microseconds=1) * 1000 - age_ns
    seconds, nanos = divmod(total, 10**9)
    stamp = (_EPOCH + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")
    fraction = f"{nanos:09d}".rstrip("0")
    return stamp.rjust(19, "0") + (f".{fraction}" if fraction else "") + "Z"


def _first_score(
    expected: float | None, *, below_one: bool = False
) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = scores(result)[0]
        if expected is not None and got != expected:
            return f"first score {got!r}, intended {expected!r}"
        if below_one and not 0.0 < got < 1.0:
            return f"first score {got!r}, intended within (0, 1)"
        return None

    return check


#: slug -> (age in ns as a function of the half-life in days, exact weight or None)
AGES: tuple[tuple[str, Callable[[int], int], float | None], ...] = (
    ("a0", lambda h: 0, 1.0),
    ("x1", lambda h: h * NS_PER_DAY, 0.5),
    ("x2", lambda h: 2 * h * NS_PER_DAY, 0.25),
    ("x10", lambda h: 10 * h * NS_PER_DAY, 2.0**-10),
    ("12h", lambda h: NS_PER_DAY // 2, None),
    ("1s", lambda h: 10**9, None),
    ("1ns", lambda h: 1, None),
    ("ms", lambda h: 1_234_567_891 * 10**6, None),
)


def _grid() -> Iterator[Case]:
    for h in HALF_LIVES:
        for slug, age_of, exact in AGES:
            if slug == "a0" and h not in (1, 30, 365):
                continue
            age = age_of(h)
            ts = ts_before(age)
            yield Case(
                id=f"recency-h{h:03d}-{slug}",
                description=f"Recency weight for half-life {h} d at age {slug}.",
                comment=f"half-life {h}; now {NOW}; ts {ts} (age {age} ns); intended weight "
                + (f"{exact!r} exactly." if exact is not None else "in (0, 1)."),
                clauses=("S6-SCORE-14", "S6-SCORE-16", "S6-SCORE-17", "S6-SCORE-12"),
                interpretations=("INT-04", "INT-35"),
                request=make_request(
                    "zz",
                    scoring={"enable_recency_weight": True, "recency_half_life_days": h},
                    now_utc=NOW,
                ),
                files={"stores/s.jsonl": store(line("m1", "memo", ts_utc=ts), line("m2", "memo"))},
                selected=("m1", "m2"),
                check=_first_score(exact, below_one=exact is None and age > 1),
            )


#: slug -> (ts, half-life, exact weight, why)
SPECIAL_WEIGHTS: tuple[tuple[str, str, int, float, str], ...] = (
    ("future-1ns", ts_before(-1), 30, 1.0, "a future ts: weight clamped to 1"),
    ("future-1s", ts_before(-(10**9)), 30, 1.0, "a future ts: weight clamped to 1"),
    ("future-1d", ts_before(-NS_PER_DAY), 7, 1.0, "a future ts: weight clamped to 1"),
    ("future-1y", ts_before(-365 * NS_PER_DAY), 365, 1.0, "a future ts: weight clamped to 1"),
    ("future-max", "9999-12-31T23:59:59.999999999Z", 1, 1.0, "the latest ts: clamped"),
    ("min-normal", ts_before(1022 * NS_PER_DAY), 1, 2.0**-1022, "2**-1022, smallest normal"),
    ("subnormal", ts_before(1060 * NS_PER_DAY), 1, 2.0**-1060, "2**-1060, subnormal"),
    ("min-subnormal", ts_before(1074 * NS_PER_DAY), 1, 5e-324, "2**-1074, smallest subnormal"),
    ("halfway-to-zero", ts_before(1075 * NS_PER_DAY), 1, 0.0, "2**-1075 rounds to even: 0"),
    ("underflow", ts_before(1100 * NS_PER_DAY), 1, 0.0, "2**-1100 underflows to 0"),
    ("oldest", "0001-01-01T00:00:00Z", 1, 0.0, "0001-01-01: weight 0"),
    ("oldest-hl365", "0001-01-01T00:00:00Z", 365, 0.0, "0001-01-01 at half-life 365: underflows"),
    ("offset-form", "2024-06-14T12:00:00+00:00", 1, 0.5, "'+00:00' is UTC: one day, 0.5"),
)

#: (slug, ts, now, half-life, weight): day counts across February
LEAP: tuple[tuple[str, str, str, int, float], ...] = (
    ("leap-2024", "2024-02-28T12:00:00Z", "2024-03-01T12:00:00Z", 1, 0.25),
    ("leap-2100", "2100-02-28T12:00:00Z", "2100-03-01T12:00:00Z", 1, 0.5),
    ("leap-2000", "2000-02-28T12:00:00Z", "2000-03-01T12:00:00Z", 1, 0.25),
    ("leap-1900", "1900-02-28T12:00:00Z", "1900-03-01T12:00:00Z", 1, 0.5),
    ("year-2023", "2023-01-01T00:00:00Z", "2024-01-01T00:00:00Z", 365, 0.5),
    ("year-2024", "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z", 366, 0.5),
)

#: invalid ts_utc strings: no bonus and treated as missing (INT-20)
INVALID_TS: tuple[tuple[str, str], ...] = (
    ("plus-one", "2024-06-15T11:00:00+01:00"),
    ("minus-zero", "2024-06-15T12:00:00-00:00"),
    ("no-offset", "2024-06-15T12:00:00"),
    ("lower-t", "2024-06-15t12:00:00Z"),
    ("lower-z", "2024-06-15T12:00:00z"),
    ("feb-30", "2024-02-30T12:00:00Z"),
    ("hour-24", "2024-06-14T24:00:00Z"),
    ("second-60", "2024-06-14T23:59:60Z"),
    ("year-0000", "0000-06-15T12:00:00Z"),
    ("fraction-10", "2024-06-15T11:00:00.0000000001Z"),
    ("empty-fraction", "2024-06-15T11:00:00.Z"),
    ("short-month", "2024-6-15T11:00:00Z"),
    ("no-seconds", "2024-06-15T11:00Z"),
    ("basic-format", "20240615T110000Z"),
    ("comma-fraction", "2024-06-15T11:00:00,5Z"),
    ("leading-space", " 2024-06-15T11:00:00Z"),
    ("fullwidth-digits", "２０２４-06-15T11:00:00Z"),
    ("date-only", "2024-06-15"),
    ("garbage", "yesterday"),
    ("empty", ""),
)


def _specials() -> Iterator[Case]:
    for slug, ts, h, weight, why in SPECIAL_WEIGHTS:
        yield Case(
            id=f"recency-{slug}",
            description=f"Recency: {why}.",
            comment=f"half-life {h}; now {NOW}; ts {ts}; intended weight {weight!r}.",
            clauses=("S6-SCORE-17", "S6-SCORE-16", "S6-SCORE-14"),
            interpretations=("INT-35", "INT-04"),
            request=make_request(
                "zz",
                scoring={"enable_recency_weight": True, "recency_half_life_days": h},
                now_utc=NOW,
            ),
            files={"stores/s.jsonl": store(line("m1", "memo", ts_utc=ts), line("m2", "memo"))},
            selected=("m1", "m2"),
            check=_first_score(weight),
        )
    for slug, ts, now, h, weight in LEAP:
        yield Case(
            id=f"recency-{slug}",
            description=f"age_days counts real calendar days ({slug}).",
            comment=f"ts {ts}, now {now}, half-life {h}: intended weight {weight!r}.",
            clauses=("S6-SCORE-14", "S6-SCORE-16"),
            interpretations=("INT-35", "INT-20"),
            request=make_request(
                "zz",
                scoring={"enable_recency_weight": True, "recency_half_life_days": h},
                now_utc=now,
            ),
            files={"stores/s.jsonl": store(line("m1", "memo", ts_utc=ts), line("m2", "memo"))},
            selected=("m1", "m2"),
            check=_first_score(weight),
        )
    for slug, ts in INVALID_TS:
        yield Case(
            id=f"recency-invalid-{slug}",
            description=f"Invalid ts_utc {ts!r}: no recency bonus, sorts as missing.",
            comment=(
                f"m1 ts {ts!r} (invalid, looks recent); m2 ts one year old (valid, small "
                "weight): m2 ranks first; m1 scores 0 and stays a valid record."
            ),
            clauses=("S6-SCORE-15", "S6-SCORE-13", "S6-ORDER-02", "S6-REC-04"),
            interpretations=("INT-20", "INT-35"),
            request=make_request(
                "zz",
                scoring={"enable_recency_weight": True, "recency_half_life_days": 30},
                now_utc=NOW,
            ),
            files={
                "stores/s.jsonl": store(
                    line("m1", "memo", ts_utc=ts),
                    line("m2", "memo", ts_utc=ts_before(365 * NS_PER_DAY)),
                )
            },
            selected=("m2", "m1"),
        )


def _switches() -> Iterator[Case]:
    recent = ts_before(NS_PER_DAY)
    files = {"stores/s.jsonl": store(line("m1", "zz", ts_utc=recent), line("m2", "alpha"))}
    rows: tuple[tuple[str, dict[str, Json] | None, str | None, tuple[str, ...], str], ...] = (
        ("enabled", {"enable_recency_weight": True}, NOW, ("S6-SCORE-12",), "weight applies"),
        (
            "no-now",
            {"enable_recency_weight": True},
            None,
            ("S6-INPUT-15", "S6-SCORE-13"),
            "now_utc absent: no bonus",
        ),
        (
            "disabled",
            {"enable_recency_weight": False},
            NOW,
            ("S6-INPUT-07", "S6-SCORE-12"),
            "explicitly disabled",
        ),
        (
            "default-off",
            None,
            NOW,
            ("S6-INPUT-07", "S6-DET-01"),
            "enable_recency_weight defaults to false",
        ),
        (
            "disabled-hl1",
            {"enable_recency_weight": False, "recency_half_life_days": 1},
            NOW,
            ("S6-INPUT-09",),
            "half-life unused when disabled",
        ),
        (
            "disabled-hl365",
            {"enable_recency_weight": False, "recency_half_life_days": 365},
            NOW,
            ("S6-INPUT-09",),
            "half-life unused when disabled",
        ),
        (
            "h30-explicit",
            {"enable_recency_weight": True, "recency_half_life_days": 30},
            NOW,
            ("S6-INPUT-08", "S6-DET-01"),
            "explicit default half-life",
        ),
        (
            "now-offset",
            {"enable_recency_weight": True},
            "2024-06-15T12:00:00+00:00",
            ("S6-INPUT-14",),
            "now_utc with +00:00",
        ),
        (
            "now-fraction",
            {"enable_recency_weight": True},
            "2024-06-15T12:00:00.000000000Z",
            ("S6-INPUT-14",),
            "now_utc with a zero fraction",
        ),
        (
            "no-now-h1",
            {"enable_recency_weight": True, "recency_half_life_days": 1},
            None,
            ("S6-INPUT-15",),
            "no now_utc, any half-life",
        ),
        (
            "no-now-no-tags",
            {"enable_recency_weight": True, "enable_tag_overlap": False},
            None,
            ("S6-INPUT-15", "S6-SCORE-13"),
            "no now_utc and no tag overlap",
        ),
    )
    relations: dict[str, tuple[Relation, ...]] = {
        "disabled": (
            ("recency-switch-default-off", "same"),
            ("recency-switch-enabled", "different"),
        ),
        "disabled-hl1": (("recency-switch-disabled", "same"),),
        "disabled-hl365": (("recency-switch-disabled", "same"),),
        "h30-explicit": (("recency-switch-enabled", "same"),),
        "now-offset": (("recency-switch-enabled", "same"),),
        "now-fraction": (("recency-switch-enabled", "same"),),
        "no-now-h1": (("recency-switch-no-now", "same"),),
        "no-now-no-tags": (("recency-switch-no-now", "same"),),
    }
    for slug, scoring, now, clauses, why in rows:
        yield Case(
            id=f"recency-switch-{slug}",
            description=f"Recency switch: {why}.",
            comment=(
                f"scoring {scoring!r}; now_utc {now!r}; m1 'zz' is one day old, m2 'alpha' has "
                "no ts; query 'alpha'. With recency m1 scores 2**(-1/30) < 1 = m2's score."
            ),
            clauses=clauses,
            interpretations=("INT-36",),
            request=make_request("alpha", scoring=scoring, now_utc=now),
            files=files,
            selected=("m2", "m1"),
            check=_first_score(1.0),
            relations=relations.get(slug, ()),
        )


#: slug -> (text, tags, ts age in half-lives, query): score = (base + tag) + weight
SUMS: tuple[tuple[str, str, list[str], int, float], ...] = (
    ("base1-x1", "alpha", [], 1, 1.5),
    ("base1-tag-x1", "alpha", ["alpha"], 1, 2.0),
    ("tag-x2", "zz", ["alpha"], 2, 0.75),
    ("base1-x3", "alpha", [], 3, 1.125),
    ("base1-tag-x10", "alpha", ["alpha"], 10, 1.5 + 2.0**-10),
)


def cases() -> Iterator[Case]:
    """The half-life x age grid, special weights, leap years, invalid ts, switches, sums."""
    yield from _grid()
    yield from _specials()
    yield from _switches()
    for slug, text, tags, k, total in SUMS:
        ts = ts_before(k * 7 * NS_PER_DAY)
        yield Case(
            id=f"recency-sum-{slug}",
            description="score = (base + tag_bonus) + recency_bonus, in that order.",
            comment=f"text {text!r}, tags {tags!r}, ts {k} half-lives (7 d) old: "
            f"intended {total!r}.",
            clauses=("S6-SCORE-18", "S6-SCORE-16", "S6-OUT-13"),
            interpretations=("INT-04", "INT-35"),
            request=make_request(
                "alpha",
                scoring={"enable_recency_weight": True, "recency_half_life_days": 7},
                now_utc=NOW,
            ),
            files={"stores/s.jsonl": store(line("m1", text, tags=tags, ts_utc=ts))},
            check=_first_score(total),
        )
