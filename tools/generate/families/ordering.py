"""Tie-breaking (ORDER keys 1-5, INT-33), each key in isolation: two or more candidates equal
on every other key, with the LATER keys arranged to disagree with the key under test (the
record_hash order is made to point the other way by choosing a text suffix), so only the key
under test can produce the intended order. Each vector also exists with the store's lines in
reverse order, so that read order cannot produce it either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from tools.generate.families._case import (
    Case,
    Json,
    line,
    make_request,
    record_hash,
    store,
)

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: every tie-break key in isolation (score, ts_utc, store_path, memory_id, "
    "record_hash)."
)

Rec = tuple[str, str, dict[str, Json]]  # (memory_id, text, extra fields)


def _hash(rec: Rec, ts_normalized: str | None = None) -> str:
    mid, text, extra = rec
    tags = sorted({t.lower() for t in extra.get("tags", [])})
    return record_hash(mid, text, tags=tags, ts=ts_normalized)


def _against_hash(
    first: Callable[[int], Rec], second: Callable[[int], Rec], ts: tuple[str | None, str | None]
) -> tuple[Rec, Rec]:
    """Pick suffixes so that hash(first) > hash(second): the hash key alone would reverse them."""
    for k in range(1000):
        a, b = first(k), second(k)
        if _hash(a, ts[0]) > _hash(b, ts[1]):
            return a, b
    raise AssertionError("no suffix found")  # pragma: no cover - 50% chance per try


def _lines(recs: Sequence[Rec]) -> list[str]:
    return [line(mid, text, **extra) for mid, text, extra in recs]


def _variants(
    slug: str,
    description: str,
    comment: str,
    clauses: tuple[str, ...],
    ints: tuple[str, ...],
    recs: Sequence[Rec],
    request: Json,
    *,
    selected: tuple[str, ...] | None = None,
    excerpts: tuple[str, ...] | None = None,
) -> Iterator[Case]:
    for order, rows in (("fwd", list(recs)), ("rev", list(reversed(recs)))):
        yield Case(
            id=f"order-{slug}-{order}",
            description=description,
            comment=comment + f" Lines in {'reverse ' if order == 'rev' else ''}intended order.",
            clauses=("S6-TRUNC-09", *clauses),
            interpretations=ints,
            request=request,
            files={"stores/s.jsonl": store(*_lines(rows))},
            selected=selected,
            excerpts=excerpts,
        )


# ------------------------------------------------------------------------------ key 1: score

#: slug -> (query, hi record maker, lo record maker, what differs)
SCORE_PAIRS: tuple[tuple[str, str, Callable[[int], Rec], Callable[[int], Rec], str], ...] = (
    ("term", "alpha", lambda k: ("m", f"alpha {k}", {}), lambda k: ("m", f"zz {k}", {}), "1 vs 0"),
    (
        "tag",
        "alpha",
        lambda k: ("m", f"zz {k}", {"tags": ["alpha"]}),
        lambda k: ("m", f"zz {k}", {}),
        "0.5 (tag) vs 0",
    ),
    (
        "two-vs-tag",
        "alpha beta",
        lambda k: ("m", f"alpha beta {k}", {}),
        lambda k: ("m", f"alpha {k}", {"tags": ["beta"]}),
        "2 vs 1.5",
    ),
    (
        "tag-vs-none",
        "alpha beta",
        lambda k: ("m", f"alpha {k}", {"tags": ["beta"]}),
        lambda k: ("m", f"alpha {k}", {}),
        "1.5 vs 1",
    ),
)

#: slug -> (ts of hi, ts of lo): later keys point the other way too
SCORE_DOMINATES: tuple[tuple[str, str | None, str | None, str, str, str, str], ...] = (
    # (slug, ts hi, ts lo, store hi, store lo, memory_id hi, memory_id lo)
    ("over-ts", "2000-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "s", "s", "m", "m"),
    ("over-missing-ts", None, "2024-01-01T00:00:00Z", "s", "s", "m", "m"),
    ("over-store", None, None, "b", "a", "m", "m"),
    ("over-memory-id", None, None, "s", "s", "m2", "m1"),
    ("over-all", None, "2024-01-01T00:00:00Z", "b", "a", "m2", "m1"),
)


def _score_cases() -> Iterator[Case]:
    for slug, query, hi, lo, what in SCORE_PAIRS:
        a, b = _against_hash(hi, lo, (None, None))
        yield from _variants(
            f"score-{slug}",
            f"Score alone orders two candidates ({what}); all other keys equal.",
            f"query {query!r}; texts {a[1]!r} (higher score) and {b[1]!r}; record_hash of the "
            "first is the larger.",
            ("S6-ORDER-01",),
            ("INT-33",),
            [a, b],
            make_request(query),
            excerpts=(a[1], b[1]),
        )
    for slug, ts_hi, ts_lo, st_hi, st_lo, id_hi, id_lo in SCORE_DOMINATES:
        hi_extra = {"ts_utc": ts_hi} if ts_hi else {}
        lo_extra = {"ts_utc": ts_lo} if ts_lo else {}
        files: dict[str, Json] = {}
        hi_line = line(id_hi, "alpha", **hi_extra)
        lo_line = line(id_lo, "zz", **lo_extra)
        if st_hi == st_lo:
            files[f"stores/{st_hi}.jsonl"] = store(lo_line, hi_line)
        else:
            files[f"stores/{st_hi}.jsonl"] = store(hi_line)
            files[f"stores/{st_lo}.jsonl"] = store(lo_line)
        yield Case(
            id=f"order-score-{slug}",
            description=f"Score ranks first even when every later key points the other way "
            f"({slug}).",
            comment=(
                f"hi: {id_hi!r} in {st_hi}, ts {ts_hi}, text 'alpha'; lo: {id_lo!r} in {st_lo}, "
                f"ts {ts_lo}, text 'zz'; query 'alpha'."
            ),
            clauses=("S6-ORDER-01", "S6-TRUNC-09"),
            # INT-43: two stores given in reverse order; the receipt lists them sorted
            interpretations=("INT-33", *(("INT-43",) if len(files) > 1 else ())),
            request=make_request("alpha", sorted(files, reverse=True)),
            files=files,
            selected=(id_hi, id_lo),
        )


# ------------------------------------------------------------------------------ key 2: ts_utc

#: slug -> (newer ts, its normalized form or None, older/missing ts, its normalized form)
TS_PAIRS: tuple[tuple[str, str | None, str | None, str | None, str | None], ...] = (
    (
        "days",
        "2024-01-02T00:00:00Z",
        "2024-01-02T00:00:00Z",
        "2024-01-01T00:00:00Z",
        "2024-01-01T00:00:00Z",
    ),
    (
        "fraction-vs-none",
        "2024-01-01T00:00:05.5Z",
        "2024-01-01T00:00:05.5Z",
        "2024-01-01T00:00:05Z",
        "2024-01-01T00:00:05Z",
    ),
    (
        "fraction-digits",
        "2024-01-01T00:00:05.1Z",
        "2024-01-01T00:00:05.1Z",
        "2024-01-01T00:00:05.09Z",
        "2024-01-01T00:00:05.09Z",
    ),
    (
        "nanoseconds",
        "2024-01-01T00:00:05.000000002Z",
        "2024-01-01T00:00:05.000000002Z",
        "2024-01-01T00:00:05.000000001Z",
        "2024-01-01T00:00:05.000000001Z",
    ),
    (
        "offset-form",
        "2024-01-01T00:00:01+00:00",
        "2024-01-01T00:00:01Z",
        "2024-01-01T00:00:00Z",
        "2024-01-01T00:00:00Z",
    ),
    (
        "offset-older",
        "2024-01-01T00:00:00Z",
        "2024-01-01T00:00:00Z",
        "2023-12-31T23:59:59.999999999+00:00",
        "2023-12-31T23:59:59.999999999Z",
    ),
    (
        "extremes",
        "9999-12-31T23:59:59Z",
        "9999-12-31T23:59:59Z",
        "0001-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z",
    ),
    (
        "leap-day",
        "2024-03-01T00:00:00Z",
        "2024-03-01T00:00:00Z",
        "2024-02-29T23:59:59Z",
        "2024-02-29T23:59:59Z",
    ),
    ("any-vs-missing", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z", None, None),
    (
        "vs-invalid-month",
        "0001-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z",
        "2024-13-01T00:00:00Z",
        None,
    ),
    (
        "vs-non-utc",
        "1970-01-01T00:00:00Z",
        "1970-01-01T00:00:00Z",
        "2024-01-01T00:00:00+01:00",
        None,
    ),
    (
        "vs-lowercase-z",
        "2000-01-01T00:00:00Z",
        "2000-01-01T00:00:00Z",
        "2025-01-01T00:00:00z",
        None,
    ),
    ("vs-space", "2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "2025-01-01 00:00:00Z", None),
    ("vs-no-offset", "2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "2025-01-01T00:00:00", None),
    ("vs-feb-30", "2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "2025-02-30T00:00:00Z", None),
    (
        "vs-leap-second",
        "2000-01-01T00:00:00Z",
        "2000-01-01T00:00:00Z",
        "2016-12-31T23:59:60Z",
        None,
    ),
    (
        "vs-ten-digits",
        "2000-01-01T00:00:00Z",
        "2000-01-01T00:00:00Z",
        "2025-01-01T00:00:00.1234567890Z",
        None,
    ),
    (
        "vs-2100-feb-29",
        "2000-01-01T00:00:00Z",
        "2000-01-01T00:00:00Z",
        "2100-02-29T00:00:00Z",
        None,
    ),
)

#: equal instants spelled differently: the normalized strings are equal, so the next keys decide
TS_EQUAL: tuple[tuple[str, str, str, str], ...] = (
    (
        "trailing-zero",
        "2024-01-01T00:00:05.10Z",
        "2024-01-01T00:00:05.1Z",
        "2024-01-01T00:00:05.1Z",
    ),
    ("offset", "2024-01-01T00:00:05+00:00", "2024-01-01T00:00:05Z", "2024-01-01T00:00:05Z"),
    ("zero-fraction", "2024-01-01T00:00:05.000Z", "2024-01-01T00:00:05Z", "2024-01-01T00:00:05Z"),
)


def _ts_cases() -> Iterator[Case]:
    for slug, new, new_n, old, old_n in TS_PAIRS:

        def hi(k: int, ts: str | None = new) -> Rec:  # bound by default
            return ("m", f"zz {k}", {"ts_utc": ts})

        def lo(k: int, ts: str | None = old) -> Rec:
            return ("m", f"yy {k}", {"ts_utc": ts} if ts is not None else {})

        a, b = _against_hash(hi, lo, (new_n, old_n))
        yield from _variants(
            f"ts-{slug}",
            f"ts_utc alone orders two candidates ({slug}).",
            f"ts {new!r} (first) vs {old!r}; score, store and memory_id equal; the first has "
            "the larger record_hash.",
            ("S6-ORDER-02",),
            ("INT-33", "INT-21") if old_n is not None else ("INT-33", "INT-20"),
            [a, b],
            make_request("q"),
            excerpts=(a[1], b[1]),
        )
    for slug, spelled, other, normalized in TS_EQUAL:
        recs: list[Rec] = [
            ("m", f"zz {k}", {"ts_utc": ts}) for k, ts in enumerate((spelled, other))
        ]
        ordered = sorted(recs, key=lambda r: _hash(r, normalized))
        yield from _variants(
            f"ts-equal-{slug}",
            f"Equal instants ({spelled!r} vs {other!r}) tie; record_hash decides.",
            f"both normalize to {normalized!r}; score, store, memory_id equal.",
            ("S6-ORDER-02", "S6-ORDER-05", "S6-READ-09"),
            ("INT-33", "INT-21"),
            recs,
            make_request("q"),
            excerpts=tuple(r[1] for r in ordered),
        )


# ------------------------------------------------------------------------------ key 3: store_path

#: (first, second) in code-point order
STORE_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("ab", "stores/a.jsonl", "stores/b.jsonl"),
    ("upper-first", "stores/B.jsonl", "stores/a.jsonl"),
    ("dash-before-slash", "stores/a-x.jsonl", "stores/a/x.jsonl"),
    ("dot-before-slash", "stores/a.jsonl", "stores/a/x.jsonl"),
    ("slash-before-digit", "stores/a/x.jsonl", "stores/a0.jsonl"),
    ("ascii-before-latin1", "stores/z.jsonl", "stores/é.jsonl"),
    ("bmp-ff21-before-nonbmp", "stores/\uff21.jsonl", "stores/\U0001f600.jsonl"),
    ("private-e000-before-nonbmp", "stores/\ue000.jsonl", "stores/\U00010000.jsonl"),
    ("fffd-before-plane16", "stores/\ufffd.jsonl", "stores/\U0010fffd.jsonl"),
    ("m10-before-m9", "stores/m10.jsonl", "stores/m9.jsonl"),
    ("upper-before-underscore", "stores/Z.jsonl", "stores/_.jsonl"),
    ("underscore-before-lower", "stores/_.jsonl", "stores/a.jsonl"),
    ("prefix-first", "stores/a", "stores/a.jsonl"),
    ("space-first", "stores/ a.jsonl", "stores/a.jsonl"),
    ("episodic-no-priority", "stores/a-semantic.jsonl", "stores/z-episodic.jsonl"),
)


def _store_check(first: str, second: str) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = [i["store_path"] for i in result["package"]["selection"]["selected"]]
        return None if got == [first, second] else f"store order {got!r}"

    return check


def _store_cases() -> Iterator[Case]:
    for slug, first, second in STORE_PAIRS:
        same = line("m", "zz")
        for variant in ("same-record", "id-against"):
            files: dict[str, Json] = {}
            if variant == "same-record":
                files = {first: store(same), second: store(same)}
                what = "one identical record in both stores (equal memory_id and record_hash)"
            else:
                files = {first: store(line("m9", "zz")), second: store(line("m1", "zz"))}
                what = "memory_id m9 in the first store, m1 in the second"
            yield Case(
                id=f"order-store-{slug}-{variant}",
                description=f"store_path alone orders candidates: {first!r} before {second!r}.",
                comment=f"{what}; store_paths given in reverse order; code-point comparison.",
                clauses=("S6-ORDER-03", "S6-READ-05", "S6-TRUNC-09", "S6-OUT-12"),
                # INT-43: the stores are given in reverse order; the receipt lists them sorted
                interpretations=(
                    "INT-33",
                    "INT-12",
                    "INT-43",
                    *(("INT-34",) if "episodic" in slug else ()),
                ),
                request=make_request("q", [second, first]),
                files=files,
                check=_store_check(first, second),
            )


# ------------------------------------------------------------------------------ key 4: memory_id

ID_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("m1-m2", "m1", "m2"),
    ("upper-first", "M", "m"),
    ("prefix-first", "a", "aa"),
    ("m10-before-m9", "m10", "m9"),
    ("ascii-before-latin1", "z", "é"),
    ("decomposed-before-precomposed", "e\u0301", "\u00e9"),
    ("bmp-ff21-before-nonbmp", "\uff21", "\U0001f600"),
    ("private-e000-before-nonbmp", "\ue000", "\U00010000"),
    ("dash-before-underscore", "A-1", "A_1"),
    ("space-first", " a", "a"),
    ("nul-suffix", "a", "a\u0000"),
    ("digits", "0", "00"),
)


def _id_cases() -> Iterator[Case]:
    for slug, first, second in ID_PAIRS:
        a, b = _against_hash(
            lambda k, mid=first: (mid, f"zz {k}", {}),  # type: ignore[misc]
            lambda k, mid=second: (mid, f"zz {k}", {}),  # type: ignore[misc]
            (None, None),
        )
        yield from _variants(
            f"id-{slug}",
            f"memory_id alone orders two candidates: {first!r} before {second!r}.",
            "score, ts and store equal; the first has the larger record_hash; code points.",
            ("S6-ORDER-04", "S6-OUT-10", "S6-READ-07"),
            ("INT-33",),
            [a, b],
            make_request("q"),
            selected=(first, second),
        )


# ------------------------------------------------------------------------------ key 5: record_hash


def _hash_cases() -> Iterator[Case]:
    for count in (2, 3, 5):
        for ts in (None, "2024-05-05T05:05:05Z"):
            extra = {"ts_utc": ts} if ts else {}
            recs: list[Rec] = [("m", f"text number {k}", extra) for k in range(count)]
            ordered = sorted(recs, key=lambda r: _hash(r, ts))
            tag = f"n{count}-{'ts' if ts else 'nots'}"
            yield from _variants(
                f"hash-{tag}",
                f"record_hash alone orders {count} candidates with one memory_id.",
                f"{count} records 'm' with different texts, ts {ts}; ascending record_hash.",
                ("S6-ORDER-05",),
                ("INT-33", "INT-23"),
                recs,
                make_request("q"),
                excerpts=tuple(r[1] for r in ordered),
            )
    for copies in (2, 3):
        yield Case(
            id=f"order-identical-x{copies}",
            description=f"{copies} byte-identical lines: equal on all keys, identical entries.",
            comment=f"the line is repeated {copies} times; every entry is the same (INT-33).",
            clauses=("S6-ORDER-05", "S6-READ-06"),
            interpretations=("INT-33", "INT-23"),
            request=make_request("q"),
            files={"stores/s.jsonl": store(*[line("m", "same text")] * copies)},
            excerpts=("same text",) * copies,
        )


def cases() -> Iterator[Case]:
    """Keys 1 to 5 in turn."""
    yield from _score_cases()
    yield from _ts_cases()
    yield from _store_cases()
    yield from _id_cases()
    yield from _hash_cases()
