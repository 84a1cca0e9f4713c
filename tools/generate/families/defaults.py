"""Defaults (S6-DET-01: 'The controller MUST treat missing optional fields as the defaults
above'): each optional member omitted and given explicitly with its default value yields the
same package (the build asserts equal package_hash), and a non-default value a different one.
"""

from __future__ import annotations

from collections.abc import Iterator

from tools.generate.families._case import (
    Case,
    Json,
    Relation,
    line,
    make_request,
    snapshot,
    store,
)

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = "Generated: omitted optional members equal their documented defaults (S6-DET-01)."

_FILES: dict[str, Json] = {
    "stores/s.jsonl": store(
        line("m1", "alpha and beta", tags=["Beta"], ts_utc="2024-06-01T00:00:00Z"),
        line("m2", "alpha only, a longer text that is cut by a small per-item cap"),
        line("m3", "nothing here", tags=["alpha"]),
        line("m4", "beta", ts_utc="2024-06-14T00:00:00Z"),
        line("m5", "x"),
    ),
    "trust.json": snapshot({"memory_id": "m5", "classification": "malicious"}),
}

_BASE = "dflt-omitted"
_VERDICT = {
    "": "the base every other row compares with",
    "same": "same package as omitted",
    "different": "a non-default value changes the package",
}

#: slug -> (budget extra, scoring, trust_filter, now_utc, relation to the base, clauses)
ROWS: tuple[
    tuple[
        str,
        dict[str, Json],
        dict[str, Json] | None,
        dict[str, Json] | None,
        str | None,
        str,
        tuple[str, ...],
    ],
    ...,
] = (
    ("omitted", {}, None, None, None, "", ("S6-DET-01", "S6-INPUT-04", "S6-INPUT-05")),
    ("per-item", {"per_item_max_excerpt_tokens": 12}, None, None, None, "same", ("S6-INPUT-04",)),
    ("max-items", {"max_items": 50}, None, None, None, "same", ("S6-INPUT-05",)),
    ("recency-off", {}, {"enable_recency_weight": False}, None, None, "same", ("S6-INPUT-07",)),
    (
        "half-life",
        {},
        {"recency_half_life_days": 30},
        None,
        None,
        "same",
        ("S6-INPUT-08", "S6-INPUT-09"),
    ),
    ("tag-overlap", {}, {"enable_tag_overlap": True}, None, None, "same", ("S6-INPUT-10",)),
    ("query-terms", {}, {"query_terms": ["alpha", "beta"]}, None, None, "same", ("S6-INPUT-11",)),
    ("empty-scoring", {}, {}, None, None, "same", ("S6-INPUT-07", "S6-INPUT-10")),
    ("empty-trust-filter", {}, None, {}, None, "same", ("S6-TRUST-07",)),
    (
        "deny-no-snapshot",
        {},
        None,
        {"deny_classifications": ["malicious"]},
        None,
        "same",
        ("S6-INPUT-12", "S6-TRUST-07"),
    ),
    (
        "now-without-recency",
        {},
        None,
        None,
        "2024-06-15T00:00:00Z",
        "same",
        ("S6-INPUT-07", "S6-INPUT-14"),
    ),
    (
        "all-explicit",
        {"per_item_max_excerpt_tokens": 12, "max_items": 50},
        {
            "enable_recency_weight": False,
            "recency_half_life_days": 30,
            "enable_tag_overlap": True,
            "query_terms": ["alpha", "beta"],
        },
        {"deny_classifications": ["malicious"]},
        None,
        "same",
        ("S6-INPUT-04", "S6-INPUT-05", "S6-INPUT-07", "S6-INPUT-08", "S6-INPUT-10", "S6-INPUT-12"),
    ),
    (
        "per-item-11",
        {"per_item_max_excerpt_tokens": 11},
        None,
        None,
        None,
        "different",
        ("S6-HASH-11", "S6-INPUT-04"),
    ),
    (
        "max-items-49",
        {"max_items": 49},
        None,
        None,
        None,
        "different",
        ("S6-HASH-11", "S6-INPUT-05"),
    ),
    (
        "tag-overlap-off",
        {},
        {"enable_tag_overlap": False},
        None,
        None,
        "different",
        ("S6-INPUT-10", "S6-HASH-10"),
    ),
    (
        "recency-on",
        {},
        {"enable_recency_weight": True},
        None,
        "2024-06-15T00:00:00Z",
        "different",
        ("S6-INPUT-07", "S6-HASH-10"),
    ),
    (
        "query-terms-other",
        {},
        {"query_terms": ["beta", "alpha"]},
        None,
        None,
        "same",
        ("S6-INPUT-11",),
    ),
)

#: with the snapshot: deny default vs explicit
SNAPSHOT_ROWS: tuple[tuple[str, dict[str, Json], str], ...] = (
    ("snapshot-deny-omitted", {"trust_snapshot_path": "trust.json"}, ""),
    (
        "snapshot-deny-explicit",
        {"trust_snapshot_path": "trust.json", "deny_classifications": ["malicious"]},
        "same",
    ),
    (
        "snapshot-deny-empty",
        {"trust_snapshot_path": "trust.json", "deny_classifications": []},
        "different",
    ),
)


def cases() -> Iterator[Case]:
    """Each row against the all-omitted base."""
    for slug, budget, scoring, trust, now, relation, clauses in ROWS:
        relations: tuple[Relation, ...] = ()
        if relation == "same":
            relations = ((_BASE, "same"),)
        elif relation == "different":
            relations = ((_BASE, "different"),)
        yield Case(
            id=f"dflt-{slug}",
            description=f"Optional members {slug}: {_VERDICT[relation]}.",
            comment=f"budget {budget!r}; scoring {scoring!r}; trust_filter {trust!r}; "
            f"now_utc {now!r}.",
            clauses=("S6-DET-01", *clauses),
            # INT-26, INT-29: the base stores a score-0 candidate past one that overflows
            interpretations=(*(("INT-30",) if budget else ()), "INT-26", "INT-29"),
            request=make_request(
                "Alpha BETA",
                tokens=12,
                budget=budget,
                scoring=scoring,
                trust_filter=trust,
                now_utc=now,
            ),
            files=_FILES,
            relations=relations,
        )
    for slug, trust_filter, relation in SNAPSHOT_ROWS:
        yield Case(
            id=f"dflt-{slug}",
            description=f"deny_classifications {slug.removeprefix('snapshot-deny-')} with a "
            "snapshot.",
            comment=f"trust_filter {trust_filter!r}; the snapshot denies m5 as malicious.",
            clauses=("S6-INPUT-12", "S6-DET-01", "S6-TRUST-05"),
            interpretations=("INT-38", "INT-39", "INT-26", "INT-29"),
            request=make_request("Alpha BETA", tokens=12, trust_filter=trust_filter),
            files=_FILES,
            relations=((("dflt-snapshot-deny-omitted", relation),) if relation else ()),  # type: ignore[arg-type]
        )
