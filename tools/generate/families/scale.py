"""Scale: stores of thousands of records (generated text from a fixed vocabulary with
``random.Random(<seed>)``), with recency and trust on, a sprinkling of invalid and blank lines,
duplicate memory_ids and tags. The intent: the number of trust_denied, invalid_record_schema
and selected entries the generator knows it put in (the trust snapshot names records by
memory_id and by record_hash, the latter computed here from the normalized record).

Each size goes to its own file (``gen-scale-<part>.json``) to keep files under ~3 MB.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tools.generate.families._case import (
    Case,
    Json,
    dropped_reasons,
    line,
    make_request,
    record_hash,
    snapshot,
    store,
)

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: stores of thousands of records with recency, trust, invalid and blank lines."
)

WORDS = (
    "amber river stone cloud maple north quiet ember harbor lantern meadow copper falcon "
    "willow summit canyon orchard velvet signal ledger beacon thistle granite marble cedar "
    "harvest pepper saffron cobalt juniper raven prism lattice tundra"
).split()
TAGS = ("Project", "project", "ops", "Ops", "notes", "Travel", "finance", "ideas", "log")
NOW = "2024-06-15T12:00:00Z"
_NOW = datetime(2024, 6, 15, 12, 0, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Spec:
    """One scale vector."""

    slug: str
    part: str
    stores: tuple[int, ...]  # records per store
    seed: int
    query: str
    budget: dict[str, Json]
    scoring: dict[str, Json]
    invalid_every: int  # 0: none
    blank_every: int
    deny_ids: int
    deny_hashes: int
    dup_every: int


SPECS: tuple[Spec, ...] = (
    Spec(
        "2000-recency-trust",
        "2000",
        (2000,),
        61,
        "amber river stone",
        {"max_excerpt_tokens": 300},
        {"enable_recency_weight": True},
        0,
        0,
        20,
        20,
        0,
    ),
    Spec(
        "2000-budget-stop",
        "2000",
        (2000,),
        62,
        "cedar ledger",
        {"max_excerpt_tokens": 50, "per_item_max_excerpt_tokens": 10},
        {},
        97,
        0,
        0,
        0,
        0,
    ),
    Spec(
        "3000-max-items",
        "3000",
        (3000,),
        63,
        "harbor Ops notes",
        {"max_excerpt_tokens": 5000, "max_items": 400},
        {"enable_tag_overlap": True},
        0,
        50,
        10,
        0,
        7,
    ),
    Spec(
        "2500-invalid-mix",
        "3000",
        (1500, 1000),
        64,
        "falcon prism quiet",
        {"max_excerpt_tokens": 200},
        {"enable_recency_weight": True, "recency_half_life_days": 7},
        20,
        33,
        0,
        5,
        0,
    ),
    Spec(
        "5000-recency-trust",
        "5000",
        (3000, 2000),
        65,
        "maple summit orchard signal",
        {"max_excerpt_tokens": 1000, "max_items": 100},
        {"enable_recency_weight": True, "recency_half_life_days": 90},
        250,
        0,
        30,
        30,
        11,
    ),
)


def _ts(rng: random.Random) -> str | None:
    roll = rng.random()
    if roll < 0.1:
        return None
    if roll < 0.12:
        return "not a timestamp"
    seconds = rng.randrange(0, 2 * 365 * 86_400)
    millis = rng.randrange(0, 1000)
    stamp = _NOW - timedelta(seconds=seconds)
    fraction = f"{millis:03d}".rstrip("0")
    return stamp.strftime("%Y-%m-%dT%H:%M:%S") + (f".{fraction}" if fraction else "") + "Z"


@dataclass
class _Built:
    files: dict[str, Json]
    paths: list[str]
    records: list[tuple[str, str, list[str], str | None]]  # memory_id, text, normalized tags, ts
    invalid: int


def _build(spec: Spec) -> _Built:
    rng = random.Random(spec.seed)
    files: dict[str, Json] = {}
    paths: list[str] = []
    records: list[tuple[str, str, list[str], str | None]] = []
    invalid = 0
    serial = 0
    for index, count in enumerate(spec.stores):
        path = f"stores/part-{index}.jsonl"
        paths.append(path)
        lines: list[Json] = []
        for _ in range(count):
            serial += 1
            if spec.blank_every and serial % spec.blank_every == 0:
                lines.append(" " * rng.randrange(0, 3))
            if spec.invalid_every and serial % spec.invalid_every == 0:
                invalid += 1
                lines.append(
                    rng.choice(('{"memory_id":"bad","text":5}', "{", "[]", '{"text":"no id"}'))
                )
                continue
            mid = f"r{serial:05d}"
            if spec.dup_every and serial % spec.dup_every == 0:
                mid = f"r{serial - 1:05d}"
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(3, 14)))
            if rng.random() < 0.2:
                text = text.capitalize() + "."
            tags = sorted({rng.choice(TAGS) for _ in range(rng.randrange(0, 3))})
            ts = _ts(rng)
            fields: dict[str, Json] = {}
            if ts is not None:
                fields["ts_utc"] = ts
            if tags:
                fields["tags"] = tags
            lines.append(line(mid, text, **fields))
            valid_ts = ts if ts is not None and ts.endswith("Z") and ts[0].isdigit() else None
            records.append((mid, text, sorted({t.lower() for t in tags}), valid_ts))
        files[path] = store(*lines)
    return _Built(files, paths, records, invalid)


def _counts(trust: int, invalid: int, selected: int | None) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        reasons = [reason for _, reason in dropped_reasons(result)]
        got = (reasons.count("trust_denied"), reasons.count("invalid_record_schema"))
        if got != (trust, invalid):
            return f"(trust_denied, invalid) {got!r}, intended {(trust, invalid)!r}"
        count = len(result["package"]["selection"]["selected"])
        if selected is not None and count != selected:
            return f"{count} selected, intended {selected}"
        return None

    return check


def cases() -> Iterator[Case]:
    """One vector per :data:`SPECS` row."""
    for spec in SPECS:
        built = _build(spec)
        rng = random.Random(spec.seed * 7)
        entries: list[dict[str, Json]] = []
        denied_ids = {mid for mid, _, _, _ in rng.sample(built.records, spec.deny_ids)}
        entries += [{"memory_id": mid, "classification": "malicious"} for mid in sorted(denied_ids)]
        by_hash = rng.sample(built.records, spec.deny_hashes)
        hashes = {record_hash(mid, text, tags=tags, ts=ts) for mid, text, tags, ts in by_hash}
        entries += [{"record_hash": h, "classification": "malicious"} for h in sorted(hashes)]
        entries += [{"memory_id": "r00001", "classification": "benign"}]
        files = dict(built.files)
        trust: dict[str, Json] | None = None
        if spec.deny_ids or spec.deny_hashes:
            files["trust.json"] = snapshot(*entries, source="generated")
            trust = {"trust_snapshot_path": "trust.json"}
        denied = sum(
            1
            for mid, text, tags, ts in built.records
            if mid in denied_ids or record_hash(mid, text, tags=tags, ts=ts) in hashes
        )
        total = sum(spec.stores)
        yield Case(
            id=f"scale-{spec.slug}",
            description=f"{total} records in {len(spec.stores)} store(s): "
            f"{spec.slug.split('-', 1)[1].replace('-', ' ')}.",
            comment=(
                f"seed {spec.seed}; stores {list(spec.stores)}; query {spec.query!r}; budget "
                f"{spec.budget!r}; scoring {spec.scoring!r}; now {NOW}; invalid every "
                f"{spec.invalid_every}, blank every {spec.blank_every}; denied {denied} by "
                f"{spec.deny_ids} memory_ids and {spec.deny_hashes} record_hashes."
            ),
            clauses=(
                "S6-ACC-01",
                "S6-READ-06",
                "S6-TRUNC-09",
                "S6-TOK-02",
                "S6-TRUST-08",
                "S6-OUT-01",
                "S6-OUT-09",
                "S6-OUT-16",
            ),
            # INT-09, INT-10: random texts where terms occur capitalized, inside longer words
            # and more than once; INT-14: the stores hold blank lines (blank_every); INT-30: a
            # max_items above 50 is accepted and reported as given; INT-20/21: every store holds
            # valid and invalid ts_utc strings (record_hash, order); INT-35: age_days, where
            # recency is on
            interpretations=(
                "INT-28",
                "INT-04",
                "INT-09",
                "INT-10",
                "INT-20",
                "INT-21",
                *(("INT-35",) if spec.scoring.get("enable_recency_weight") else ()),
                *(("INT-14",) if spec.blank_every else ()),
                *(("INT-30",) if spec.budget.get("max_items", 50) > 50 else ()),
                # INT-26 (stop, not skip) and INT-29 (score-0 candidates selectable)
                "INT-26",
                "INT-29",
                *(("INT-38", "INT-39") if spec.deny_ids or spec.deny_hashes else ()),
            ),
            request=make_request(
                spec.query,
                built.paths,
                tokens=spec.budget["max_excerpt_tokens"],
                budget={k: v for k, v in spec.budget.items() if k != "max_excerpt_tokens"},
                scoring=spec.scoring or None,
                trust_filter=trust,
                now_utc=NOW,
            ),
            files=files,
            check=_counts(denied, built.invalid, None),
            part=spec.part,
        )
