"""Errors (ERROR HANDLING, specs/errors.md, INT-40..INT-42): every code and path, type confusion
(true, "10", 1.5, 10.0 accepted, 2**53), null members, unknown members in each group, and the
precedence between checks: every pair of two simultaneous faults from different checks (the
earlier check wins), each pair also with the request's members in reverse order (precedence
never depends on member order), and pairs of faults inside one group (spec member order, then
unknown members in code-point order).

The intent of each vector is the (code, path) that errors.md's table gives.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tools.generate.families._case import Case, Json, line, store

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: every error code and path, type confusion, unknown members and check precedence."
)

STORE = "stores/s.jsonl"
_FILES: dict[str, Json] = {STORE: store(line("m1", "q text"))}
_DEL = object()
BIG = 2**53  # one past the interoperable integer range (INT-41)


def _base() -> dict[str, Json]:
    return {"query": "q", "store_paths": [STORE], "budget": {"max_excerpt_tokens": 10}}


def _with(changes: dict[str, Json]) -> dict[str, Json]:
    """The base request with top-level members replaced (``_DEL`` removes one)."""
    request = _base()
    for key, value in changes.items():
        if value is _DEL:
            request.pop(key, None)
        else:
            request[key] = value
    return request


def _error(
    code: str,
    path: str,
    slug: str,
    request: Json,
    what: str,
    clauses: tuple[str, ...],
    ints: tuple[str, ...] = (),
) -> Case:
    return Case(
        id=f"err-{slug}",
        description=f"{what}: {code} at {path or '(whole request)'!r}.",
        comment=f"request {_short(request)}.",
        clauses=clauses,
        interpretations=("INT-40", *ints),
        request=request,
        files=_FILES,
        error=(code, path),
    )


def _accepted(
    slug: str, request: Json, what: str, clauses: tuple[str, ...], ints: tuple[str, ...]
) -> Case:
    return Case(
        id=f"err-ok-{slug}",
        description=f"Accepted, not an error: {what}.",
        comment=f"request {_short(request)}.",
        clauses=clauses,
        interpretations=ints,
        request=request,
        files=_FILES,
        check=lambda r: None if "package" in r else f"error {r['error']['code']!r}",
    )


def _short(value: Json) -> str:
    import json

    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 240 else text[:237] + "..."


# ------------------------------------------------------------------------------ single faults

_QUERY = ("S6-INPUT-01", "S6-ERR-02")
_PATHS = ("S6-INPUT-02", "S6-ERR-03")
_BUDGET = ("S6-INPUT-03", "S6-ERR-04")


def _request_level() -> Iterator[Case]:
    value: Json
    for slug, value in (
        ("array", []),
        ("string", "q"),
        ("number", 1),
        ("null", None),
        ("true", True),
        ("wrapped", [_base()]),
    ):
        yield _error(
            "invalid_request",
            "",
            f"request-{slug}",
            value,
            f"A request that is {slug}",
            ("S6-ERR-01", "S6-ERR-07"),
        )
    for slug, value in (
        ("missing", _DEL),
        ("null", None),
        ("number", 1),
        ("bool", False),
        ("array", ["q"]),
        ("object", {}),
        ("empty", ""),
        ("spaces", "   "),
        ("unicode-ws", "\t\n\u3000\u00a0\u2028"),
        ("lone-surrogate", "\ud800"),
        ("lone-surrogate-inside", "ab\udc00cd"),
    ):
        ints = (
            ("INT-42",)
            if "surrogate" in slug
            else ("INT-05",)
            if "ws" in slug or "spaces" in slug
            else ()
        )
        yield _error(
            "invalid_query",
            "/query",
            f"query-{slug}",
            _with({"query": value}),
            f"query {slug}",
            _QUERY,
            ints,
        )
    for slug, value in (
        ("zwsp", "\u200b"),
        ("bom", "\ufeff"),
        ("one-char", "x"),
        ("is4", "\u001c"),
    ):
        yield _accepted(
            f"query-{slug}",
            _with({"query": value}),
            f"query {value!r} is not empty after trim",
            ("S6-INPUT-01",),
            ("INT-11", "INT-05"),
        )
    for slug, value, path in (
        ("missing", _DEL, ""),
        ("null", None, ""),
        ("string", STORE, ""),
        ("number", 3, ""),
        ("object", {}, ""),
        ("empty", [], ""),
        ("number-element", [1], "/0"),
        ("empty-element", [""], "/0"),
        ("null-element", [None], "/0"),
        ("array-element", [[STORE]], "/0"),
        ("bool-element", [True], "/0"),
        ("second-number", [STORE, 2], "/1"),
        ("second-empty", [STORE, ""], "/1"),
        ("lone-surrogate", ["\ud800.jsonl"], "/0"),
        ("first-of-two-bad", [1, ""], "/0"),
    ):
        ints = ("INT-42",) if "surrogate" in slug else ()
        yield _error(
            "invalid_store_paths",
            "/store_paths" + path,
            f"paths-{slug}",
            _with({"store_paths": value}),
            f"store_paths {slug}",
            _PATHS,
            ints,
        )


#: (member, valid value, clause) of the integers checked by INT-41
_INTS: tuple[tuple[str, str, int, str], ...] = (
    ("budget", "max_excerpt_tokens", 10, "S6-INPUT-03"),
    ("budget", "per_item_max_excerpt_tokens", 5, "S6-INPUT-04"),
    ("budget", "max_items", 5, "S6-INPUT-05"),
    ("scoring", "recency_half_life_days", 30, "S6-INPUT-08"),
)
_BAD_INTS: tuple[tuple[str, Json], ...] = (
    ("zero", 0),
    ("negative", -1),
    ("neg-zero", -0.0),
    ("true", True),
    ("false", False),
    ("string", "10"),
    ("fraction", 1.5),
    ("tiny-fraction", 1.0000000000000002),
    ("big", BIG),
    ("huge", 1e300),
    ("null", None),
    ("array", [10]),
    ("object", {"v": 10}),
    ("negative-big", -BIG),
)
#: values tried on max_excerpt_tokens only (the other integers share its check)
_MAX_ONLY = frozenset({"false", "array", "object", "tiny-fraction", "huge"})
_GOOD_INTS: tuple[tuple[str, Json], ...] = (
    ("float-form", 7.0),
    ("exponent-form", 1e1),
    ("max-safe", BIG - 1),
    ("one", 1),
)


#: the budget members a package reports as INT-30 says (max_items as used, per_item effective)
_REPORTED = frozenset({"per_item_max_excerpt_tokens", "max_items"})


def _group_request(group: str, member: str, value: Json) -> dict[str, Json]:
    request = _base()
    if group == "budget":
        request["budget"] = {"max_excerpt_tokens": 10, member: value}
    else:
        request[group] = {member: value}
    return request


def _integers() -> Iterator[Case]:
    for group, member, _, clause in _INTS:
        code = f"invalid_{group}"
        short = {
            "max_excerpt_tokens": "max",
            "per_item_max_excerpt_tokens": "per-item",
            "max_items": "max-items",
            "recency_half_life_days": "half-life",
        }[member]
        clauses = (clause, "S6-ERR-04") if member == "max_excerpt_tokens" else (clause,)
        for slug, value in _BAD_INTS:
            if member != "max_excerpt_tokens" and slug in _MAX_ONLY:
                continue
            yield _error(
                code,
                f"/{group}/{member}",
                f"{short}-{slug}",
                _group_request(group, member, value),
                f"{group}.{member} = {_short(value)}",
                clauses,
                ("INT-41",)
                + (("INT-30",) if group == "budget" else ("INT-36",))
                + (("INT-42",) if slug == "null" else ()),
            )
        for slug, value in _GOOD_INTS:
            yield _accepted(
                f"{short}-{slug}",
                _group_request(group, member, value),
                f"{group}.{member} = {_short(value)} is an int",
                (clause,),
                # INT-30: the budget values a package reports (max_items, per_item)
                ("INT-41", *(("INT-30",) if member in _REPORTED else ())),
            )
    yield _error(
        "invalid_budget",
        "/budget/max_excerpt_tokens",
        "max-missing",
        _with({"budget": {"max_items": 3}}),
        "budget without max_excerpt_tokens",
        _BUDGET,
    )
    for slug, value in (
        ("missing", _DEL),
        ("null", None),
        ("array", []),
        ("string", "10"),
        ("number", 10),
        ("bool", True),
    ):
        yield _error(
            "invalid_budget",
            "/budget",
            f"budget-{slug}",
            _with({"budget": value}),
            f"budget {slug}",
            _BUDGET,
            ("INT-42",) if slug == "null" else (),
        )


def _groups() -> Iterator[Case]:
    value: Json
    for group, code in (("scoring", "invalid_scoring"), ("trust_filter", "invalid_trust_filter")):
        for slug, value in (
            ("null", None),
            ("array", []),
            ("string", "x"),
            ("bool", True),
            ("number", 0),
        ):
            yield _error(
                code,
                f"/{group}",
                f"{group.replace('_', '-')}-{slug}",
                _with({group: value}),
                f"{group} {slug}",
                ("S6-ERR-01",),
                ("INT-42",),
            )
    for member, clause in (
        ("enable_recency_weight", "S6-INPUT-07"),
        ("enable_tag_overlap", "S6-INPUT-10"),
    ):
        short = "recency" if "recency" in member else "tag-overlap"
        for slug, value in (
            ("string", "true"),
            ("one", 1),
            ("zero", 0),
            ("null", None),
            ("array", [True]),
        ):
            yield _error(
                "invalid_scoring",
                f"/scoring/{member}",
                f"{short}-{slug}",
                _group_request("scoring", member, value),
                f"scoring.{member} = {_short(value)}",
                (clause,),
                ("INT-42",) if slug == "null" else (),
            )
    for slug, value, path in (
        ("string", "alpha", ""),
        ("null", None, ""),
        ("object", {}, ""),
        ("number-element", [1], "/0"),
        ("null-element", [None], "/0"),
        ("second-number", ["a", 2], "/1"),
        ("array-element", [["a"]], "/0"),
        ("lone-surrogate", ["\ud800"], "/0"),
        ("third-bad", ["a", "b", False], "/2"),
    ):
        yield _error(
            "invalid_scoring",
            "/scoring/query_terms" + path,
            f"terms-{slug}",
            _group_request("scoring", "query_terms", value),
            f"scoring.query_terms {slug}",
            ("S6-INPUT-11",),
            ("INT-42",) if "surrogate" in slug or "null" in slug else (),
        )
    for slug, value, path in (
        ("string", "malicious", ""),
        ("null", None, ""),
        ("object", {}, ""),
        ("number-element", [1], "/0"),
        ("null-element", [None], "/0"),
        ("second-number", ["ok", 3], "/1"),
        ("lone-surrogate", ["\udfff"], "/0"),
    ):
        yield _error(
            "invalid_trust_filter",
            "/trust_filter/deny_classifications" + path,
            f"deny-{slug}",
            _group_request("trust_filter", "deny_classifications", value),
            f"deny_classifications {slug}",
            ("S6-INPUT-12",),
            ("INT-42",) if "surrogate" in slug or "null" in slug else (),
        )
    for slug, value in (
        ("empty", ""),
        ("number", 1),
        ("null", None),
        ("array", ["trust.json"]),
        ("lone-surrogate", "\ud800.json"),
    ):
        yield _error(
            "invalid_trust_filter",
            "/trust_filter/trust_snapshot_path",
            f"snapshot-path-{slug}",
            _group_request("trust_filter", "trust_snapshot_path", value),
            f"trust_snapshot_path {slug}",
            ("S6-INPUT-13",),
            ("INT-38",) + (("INT-42",) if slug in ("null", "lone-surrogate") else ()),
        )


_BAD_NOW: tuple[tuple[str, Json], ...] = (
    ("number", 1718452800),
    ("null", None),
    ("bool", True),
    ("empty", ""),
    ("date-only", "2024-06-15"),
    ("no-offset", "2024-06-15T12:00:00"),
    ("plus-one", "2024-06-15T12:00:00+01:00"),
    ("minus-zero", "2024-06-15T12:00:00-00:00"),
    ("lower-t", "2024-06-15t12:00:00Z"),
    ("lower-z", "2024-06-15T12:00:00z"),
    ("feb-30", "2024-02-30T00:00:00Z"),
    ("leap-second", "2016-12-31T23:59:60Z"),
    ("hour-24", "2024-06-15T24:00:00Z"),
    ("fraction-10", "2024-06-15T12:00:00.0000000001Z"),
    ("leading-space", " 2024-06-15T12:00:00Z"),
    ("empty-fraction", "2024-06-15T12:00:00.Z"),
    ("year-0", "0000-01-01T00:00:00Z"),
    ("lone-surrogate", "2024-06-15T12:00:00Z\ud800"),
    ("array", ["2024-06-15T12:00:00Z"]),
    ("space-sep", "2024-06-15 12:00:00Z"),
)
_GOOD_NOW = (
    ("offset", "2024-06-15T12:00:00+00:00"),
    ("nanos", "2024-06-15T12:00:00.123456789Z"),
    ("min", "0001-01-01T00:00:00Z"),
    ("max", "9999-12-31T23:59:59.999999999Z"),
    ("leap-day", "2024-02-29T00:00:00Z"),
)


def _now_and_unknown() -> Iterator[Case]:
    for slug, value in _BAD_NOW:
        yield _error(
            "invalid_now_utc",
            "/now_utc",
            f"now-{slug}",
            _with({"now_utc": value}),
            f"now_utc {slug}",
            ("S6-INPUT-14",),
            ("INT-36", "INT-20", *(("INT-42",) if slug == "null" else ())),
        )
    for slug, value in _GOOD_NOW:
        yield _accepted(
            f"now-{slug}",
            _with({"now_utc": value}),
            f"now_utc {value!r}",
            ("S6-INPUT-14",),
            ("INT-20", "INT-36"),
        )
    for slug, names, path in (
        ("foo", ["foo"], "/foo"),
        ("case", ["Query"], "/Query"),
        ("misplaced-max-items", ["max_items"], "/max_items"),
        ("two", ["b", "a"], "/a"),
        ("slash", ["a/b"], "/a~1b"),
        ("tilde", ["m~n"], "/m~0n"),
        ("empty-name", [""], "/"),
        ("receipt", ["receipt"], "/receipt"),
        ("latin1-vs-z", ["é", "z"], "/z"),
        ("nonbmp-vs-ff21", ["\U0001f600", "\uff21"], "/\uff21"),
        ("null-value", ["extra"], "/extra"),
        ("upper-before-lower", ["b", "B"], "/B"),
    ):
        request = _base()
        for name in names:
            request[name] = None if slug == "null-value" else 1
        yield _error(
            "invalid_request",
            path,
            f"unknown-{slug}",
            request,
            f"unknown top-level member(s) {names!r}",
            ("S6-ERR-01",),
            ("INT-42",),
        )
    for group, code, names, path in (
        ("budget", "invalid_budget", ["max_item"], "/budget/max_item"),
        ("budget", "invalid_budget", ["zz", "aa"], "/budget/aa"),
        ("scoring", "invalid_scoring", ["enable_recency"], "/scoring/enable_recency"),
        ("scoring", "invalid_scoring", ["Query_terms"], "/scoring/Query_terms"),
        ("trust_filter", "invalid_trust_filter", ["deny"], "/trust_filter/deny"),
        ("trust_filter", "invalid_trust_filter", ["snapshot", "a~b"], "/trust_filter/a~0b"),
    ):
        request = _base()
        members: dict[str, Json] = {"max_excerpt_tokens": 10} if group == "budget" else {}
        members.update((name, 1) for name in names)
        request[group] = members
        label = "-".join(n.replace("~", "t").replace("_", "-") for n in names).lower()
        slug = f"unknown-{group.replace('_', '-')}-{label}"
        yield _error(
            code,
            path,
            slug,
            request,
            f"unknown {group} member(s) {names!r}",
            ("S6-ERR-01",),
            ("INT-42",),
        )


# ------------------------------------------------------------------------------ filesystem


def _filesystem() -> Iterator[Case]:
    rows: tuple[tuple[str, list[str], dict[str, Json], str, str, str], ...] = (
        (
            "missing",
            ["stores/none.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "a store that does not exist",
        ),
        (
            "missing-sorted-first",
            ["stores/b.jsonl", "stores/a.jsonl"],
            {},
            "store_not_found",
            "/store_paths/1",
            "two missing stores: the first in sorted order",
        ),
        (
            "present-and-missing",
            [STORE, "stores/none.jsonl"],
            {},
            "store_not_found",
            "/store_paths/1",
            "no partial package",
        ),
        (
            "missing-first-occurrence",
            ["stores/x/../none.jsonl", "stores/none.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "index of the first spelling",
        ),
        (
            "missing-later-spelling",
            ["stores/none.jsonl", STORE, "./stores/none.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "duplicates: first occurrence",
        ),
        (
            "not-a-directory",
            ["stores/s.jsonl/x.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "a file used as a directory (ENOTDIR)",
        ),
        (
            "missing-dir",
            ["nodir/s.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "a missing directory",
        ),
        (
            "backslash",
            ["stores\\s.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "a backslash is not a separator",
        ),
        (
            "absolute-missing",
            ["/nonexistent-phase6-conformance/s.jsonl"],
            {},
            "store_not_found",
            "/store_paths/0",
            "an absolute path that does not exist",
        ),
        ("directory", ["stores"], {}, "store_not_readable", "/store_paths/0", "a directory"),
        (
            "directory-slash",
            ["stores/"],
            {},
            "store_not_readable",
            "/store_paths/0",
            "'stores/' normalizes to a directory",
        ),
        ("dot", ["."], {}, "store_not_readable", "/store_paths/0", "'.' is a directory"),
        ("dot-slash", ["./"], {}, "store_not_readable", "/store_paths/0", "'./' normalizes to '.'"),
        (
            "dotdot-to-root",
            ["stores/.."],
            {},
            "store_not_readable",
            "/store_paths/0",
            "'stores/..' normalizes to '.'",
        ),
        (
            "dir-sorted-before-missing",
            ["stores/zz-missing.jsonl", "stores/aa-dir"],
            {"stores/aa-dir": {"directory": True}},
            "store_not_readable",
            "/store_paths/1",
            "a directory sorted before a missing store",
        ),
        (
            "missing-sorted-before-dir",
            ["stores/zz-dir", "stores/aa-missing.jsonl"],
            {"stores/zz-dir": {"directory": True}},
            "store_not_found",
            "/store_paths/1",
            "a missing store sorted before a directory",
        ),
        (
            "dir-jsonl",
            ["stores/d.jsonl"],
            {"stores/d.jsonl": {"directory": True}},
            "store_not_readable",
            "/store_paths/0",
            "a directory named like a store",
        ),
    )
    for slug, paths, extra, code, path, what in rows:
        yield Case(
            id=f"err-store-{slug}",
            description=f"Store check: {what}: {code}.",
            comment=f"store_paths {paths!r}; existing: {sorted({**_FILES, **extra})!r}.",
            clauses=("S6-ERR-05", "S6-ERR-06", "S6-READ-04")
            if code == "store_not_found"
            else ("S6-ERR-01", "S6-READ-04"),
            interpretations=("INT-13", "INT-12", "INT-40"),
            request=_with({"store_paths": paths}),
            files={**_FILES, **extra},
            error=(code, path),
        )


# ------------------------------------------------------------------------------ precedence


@dataclass(frozen=True)
class Fault:
    """One fault of the precedence matrix, applied to a request under construction."""

    slug: str
    rank: int
    code: str
    apply: Callable[[dict[str, Json], dict[str, Json]], None]
    path: Callable[[dict[str, Json]], str]


def _set(
    group: str, member: str, value: Json
) -> Callable[[dict[str, Json], dict[str, Json]], None]:
    def apply(request: dict[str, Json], files: dict[str, Json]) -> None:
        request.setdefault(group, {})[member] = value

    return apply


def _add_path(path: str, spec: Json = None) -> Callable[[dict[str, Json], dict[str, Json]], None]:
    def apply(request: dict[str, Json], files: dict[str, Json]) -> None:
        request["store_paths"].append(path)
        if spec is not None:
            files[path] = spec

    return apply


def _index_of(value: Json) -> Callable[[dict[str, Json]], str]:
    return lambda request: f"/store_paths/{request['store_paths'].index(value)}"


FAULTS: tuple[Fault, ...] = (
    Fault(
        "query", 2, "invalid_query", lambda r, f: r.__setitem__("query", " "), lambda r: "/query"
    ),
    Fault("paths", 3, "invalid_store_paths", _add_path(7), _index_of(7)),  # type: ignore[arg-type]
    Fault(
        "budget",
        4,
        "invalid_budget",
        _set("budget", "max_excerpt_tokens", 0),
        lambda r: "/budget/max_excerpt_tokens",
    ),
    Fault(
        "scoring",
        5,
        "invalid_scoring",
        _set("scoring", "recency_half_life_days", 0),
        lambda r: "/scoring/recency_half_life_days",
    ),
    Fault(
        "trust",
        6,
        "invalid_trust_filter",
        _set("trust_filter", "x", 1),
        lambda r: "/trust_filter/x",
    ),
    Fault(
        "now",
        7,
        "invalid_now_utc",
        lambda r, f: r.__setitem__("now_utc", "tomorrow"),
        lambda r: "/now_utc",
    ),
    Fault("unknown", 8, "invalid_request", lambda r, f: r.__setitem__("zzz", 1), lambda r: "/zzz"),
    Fault(
        "missing",
        9,
        "store_not_found",
        _add_path("stores/a-missing.jsonl"),
        _index_of("stores/a-missing.jsonl"),
    ),
    Fault(
        "dir",
        10,
        "store_not_readable",
        _add_path("stores/b-dir", {"directory": True}),
        _index_of("stores/b-dir"),
    ),
    Fault(
        "nosnap",
        11,
        "trust_snapshot_not_found",
        _set("trust_filter", "trust_snapshot_path", "none.json"),
        lambda r: "/trust_filter/trust_snapshot_path",
    ),
    Fault(
        "badsnap",
        12,
        "invalid_trust_snapshot",
        _set("trust_filter", "trust_snapshot_path", "trust.json"),
        lambda r: "/trust_filter/trust_snapshot_path",
    ),
)
_BAD_SNAPSHOT: Json = {"text": '{"format":"phase6-trust/0","entries":[]}\n'}


def _compose(faults: tuple[Fault, ...], reverse: bool) -> tuple[dict[str, Json], dict[str, Json]]:
    request = _base()
    files = dict(_FILES)
    files["trust.json"] = _BAD_SNAPSHOT
    for fault in sorted(faults, key=lambda f: f.rank):
        fault.apply(request, files)
    if reverse:
        request = dict(reversed(list(request.items())))
        request = {
            k: dict(reversed(list(v.items()))) if isinstance(v, dict) else v
            for k, v in request.items()
        }
    return request, files


def _precedence() -> Iterator[Case]:
    combos: list[tuple[Fault, ...]] = [
        c for c in itertools.combinations(FAULTS, 2) if {f.slug for f in c} != {"nosnap", "badsnap"}
    ]
    combos += [
        (FAULTS[2], FAULTS[4], FAULTS[6]),
        (FAULTS[5], FAULTS[7], FAULTS[10]),
        tuple(f for f in FAULTS if f.slug != "nosnap"),
    ]
    for combo in combos:
        winner = min(combo, key=lambda f: f.rank)
        ranks = sorted(f.rank for f in combo)
        # Member order never matters; shown (reversed) for neighbouring checks and the big mixes.
        mirrored = len(combo) > 2 or ranks[1] - ranks[0] == 1
        for reverse in (False, True) if mirrored else (False,):
            request, files = _compose(combo, reverse)
            names = ".".join(f.slug for f in combo) if len(combo) < 5 else "all"
            yield Case(
                id=f"err-prec-{names}{'-rev' if reverse else ''}",
                description=f"Faults {names.replace('.', ' + ')}: check {winner.rank} "
                f"({winner.code}) wins" + (" (members reversed)." if reverse else "."),
                comment=f"faults {[f'{f.slug} (check {f.rank})' for f in combo]}; the lowest "
                "check number fails first.",
                clauses=("S6-ERR-01", "S6-ERR-07"),
                # INT-36: now_utc and the half-life are validated whether or not recency is
                # enabled (the scoring fault is a half-life of 0)
                # INT-13: with a missing store among the faults, skipping it changes the outcome
                # INT-42: the trust and unknown faults are unknown members
                interpretations=(
                    "INT-40",
                    *(("INT-36",) if {"now", "scoring"} & {f.slug for f in combo} else ()),
                    *(("INT-13",) if "missing" in {f.slug for f in combo} else ()),
                    *(("INT-42",) if {"trust", "unknown"} & {f.slug for f in combo} else ()),
                ),
                request=request,
                files=files,
                error=(winner.code, winner.path(request)),
            )


#: within one group: (group, code, [(slug, member, bad value, path)]) in check order
IN_GROUP: tuple[tuple[str, str, tuple[tuple[str, str, Json, str], ...]], ...] = (
    (
        "budget",
        "invalid_budget",
        (
            ("max", "max_excerpt_tokens", 0, "/budget/max_excerpt_tokens"),
            ("per-item", "per_item_max_excerpt_tokens", 0, "/budget/per_item_max_excerpt_tokens"),
            ("max-items", "max_items", 0, "/budget/max_items"),
            ("unknown", "aaa", 1, "/budget/aaa"),
        ),
    ),
    (
        "scoring",
        "invalid_scoring",
        (
            ("recency", "enable_recency_weight", "yes", "/scoring/enable_recency_weight"),
            ("half-life", "recency_half_life_days", 0, "/scoring/recency_half_life_days"),
            ("tag", "enable_tag_overlap", "yes", "/scoring/enable_tag_overlap"),
            ("terms", "query_terms", [1], "/scoring/query_terms/0"),
            ("unknown", "aaa", 1, "/scoring/aaa"),
        ),
    ),
    (
        "trust_filter",
        "invalid_trust_filter",
        (
            ("deny", "deny_classifications", [1], "/trust_filter/deny_classifications/0"),
            ("path", "trust_snapshot_path", "", "/trust_filter/trust_snapshot_path"),
            ("unknown", "aaa", 1, "/trust_filter/aaa"),
        ),
    ),
)


def _in_group() -> Iterator[Case]:
    for group, code, members in IN_GROUP:
        for (i, first), (j, second) in itertools.combinations(enumerate(members), 2):
            for reverse in (False, True) if j == i + 1 else (False,):
                body: dict[str, Json] = {"max_excerpt_tokens": 10} if group == "budget" else {}
                pair = (second, first) if reverse else (first, second)
                body.update((member, value) for _, member, value, _ in pair)
                request = _base()
                request[group] = body
                yield Case(
                    id=f"err-ingroup-{group.replace('_', '-')}-{first[0]}.{second[0]}"
                    + ("-rev" if reverse else ""),
                    description=f"Two {group} faults: {first[1]} is checked before {second[1]}.",
                    comment=f"{group} {_short(body)}; members written in "
                    f"{'reverse' if reverse else 'spec'} order.",
                    clauses=("S6-ERR-01", "S6-ERR-07"),
                    # INT-36: the half-life is validated whether or not recency is enabled
                    # INT-30: max_items 0 is an error; INT-42: unknown members are errors
                    interpretations=(
                        "INT-40",
                        *(("INT-36",) if "half-life" in (first[0], second[0]) else ()),
                        *(("INT-30",) if first[0] == "max-items" else ()),
                        *(("INT-42",) if second[0] == "unknown" else ()),
                    ),
                    request=request,
                    files=_FILES,
                    error=(code, first[3]),
                )


def cases() -> Iterator[Case]:
    """Single faults by check, filesystem checks, the precedence matrix, in-group order."""
    yield from _request_level()
    yield from _integers()
    yield from _groups()
    yield from _now_and_unknown()
    yield from _filesystem()
    yield from _precedence()
    yield from _in_group()
