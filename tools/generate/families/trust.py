"""Trust filtering (TRUST FILTERING, INT-38 snapshot format, INT-39 matching): by memory_id, by
record_hash, by an entry naming both (either key matches), classifications outside the deny
list, an empty deny list, the default ["malicious"], unknown snapshot members; and every
snapshot error.

The stores: ``stores/s.jsonl`` holds m1, m2 (two versions), m3; ``stores/t.jsonl`` holds m1 with
the same content as in s (so one record_hash matches both). Every record matches the query, so
the selection (intent) is the rank order ``s:m1, s:m2, s:m2, s:m3, t:m1`` minus the denied.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping

from tools.generate.families._case import (
    Case,
    Json,
    dropped_reasons,
    line,
    make_request,
    record_hash,
    snapshot,
    snapshot_text,
    store,
)

__all__ = ["DESCRIPTION", "cases"]

DESCRIPTION = (
    "Generated: trust filtering by memory_id and record_hash, deny lists, snapshot errors."
)

SNAP = "trust.json"
_M1 = ("m1", "alpha one")
_M2A = ("m2", "alpha two")
_M2B = ("m2", "alpha two again")
_M3 = ("m3", "alpha three")
H1 = record_hash(*_M1)
H2A = record_hash(*_M2A)
H2B = record_hash(*_M2B)
H3 = record_hash(*_M3, tags=["x"])
_M3_LINE = line(*_M3, tags=["X"])
_STORES: dict[str, Json] = {
    "stores/s.jsonl": store(line(*_M1), line(*_M2A), line(*_M2B), _M3_LINE),
    "stores/t.jsonl": store(line(*_M1)),
}
_PATHS = ["stores/s.jsonl", "stores/t.jsonl"]
#: rank order of (label, memory_id): the two m2 versions by ascending record_hash
_RANKED: tuple[tuple[str, str], ...] = (
    ("s:m1", "m1"),
    *sorted((("s:m2a", "m2"), ("s:m2b", "m2")), key=lambda r: H2A if r[0] == "s:m2a" else H2B),
    ("s:m3", "m3"),
    ("t:m1", "m1"),
)


def _kept(*denied: str) -> tuple[str, ...]:
    return tuple(mid for label, mid in _RANKED if label not in denied)


#: slug -> (entries, trust_filter members besides the path, denied labels, what, clauses)
MATCHES: tuple[
    tuple[str, list[dict[str, Json]], dict[str, Json], tuple[str, ...], str, tuple[str, ...]], ...
] = (
    (
        "id-m3",
        [{"memory_id": "m3", "classification": "malicious"}],
        {},
        ("s:m3",),
        "by memory_id",
        ("S6-TRUST-03",),
    ),
    (
        "id-m1-two-stores",
        [{"memory_id": "m1", "classification": "malicious"}],
        {},
        ("s:m1", "t:m1"),
        "a memory_id in every store",
        ("S6-TRUST-03",),
    ),
    (
        "id-m2-two-versions",
        [{"memory_id": "m2", "classification": "malicious"}],
        {},
        ("s:m2a", "s:m2b"),
        "every record with the memory_id",
        ("S6-TRUST-03",),
    ),
    (
        "hash-m2a",
        [{"record_hash": H2A, "classification": "malicious"}],
        {},
        ("s:m2a",),
        "by record_hash: one version only",
        ("S6-TRUST-04",),
    ),
    (
        "hash-m1-two-stores",
        [{"record_hash": H1, "classification": "malicious"}],
        {},
        ("s:m1", "t:m1"),
        "one record_hash in two stores",
        ("S6-TRUST-04",),
    ),
    (
        "hash-m3-tags",
        [{"record_hash": H3, "classification": "malicious"}],
        {},
        ("s:m3",),
        "record_hash over normalized tags",
        ("S6-TRUST-04", "S6-READ-14"),
    ),
    (
        "both-match",
        [{"memory_id": "m2", "record_hash": H2A, "classification": "malicious"}],
        {},
        ("s:m2a", "s:m2b"),
        "an entry naming both keys: m2a equal on both, m2b on memory_id alone, both denied",
        ("S6-TRUST-03", "S6-TRUST-04"),
    ),
    (
        "both-id-only",
        [{"memory_id": "m2", "record_hash": H3, "classification": "malicious"}],
        {},
        ("s:m2a", "s:m2b", "s:m3"),
        "an entry naming m2 and m3's record_hash denies every m2 and m3: either key matches",
        ("S6-TRUST-03", "S6-TRUST-04"),
    ),
    (
        "both-hash-only",
        [{"memory_id": "m3", "record_hash": H2A, "classification": "malicious"}],
        {},
        ("s:m2a", "s:m3"),
        "an entry naming m3 and m2a's record_hash denies m3 and m2a (not m2b): either key",
        ("S6-TRUST-03", "S6-TRUST-04"),
    ),
    (
        "both-neither",
        [{"memory_id": "m9", "record_hash": "0" * 64, "classification": "malicious"}],
        {},
        (),
        "an entry naming both keys, neither of any record: kept",
        ("S6-TRUST-04", "S6-TRUST-02"),
    ),
    (
        "not-denied-class",
        [{"memory_id": "m1", "classification": "suspicious"}],
        {},
        (),
        "a classification not in the deny list",
        ("S6-TRUST-05", "S6-TRUST-01"),
    ),
    (
        "custom-deny",
        [{"memory_id": "m1", "classification": "suspicious"}],
        {"deny_classifications": ["suspicious"]},
        ("s:m1", "t:m1"),
        "a custom deny list",
        ("S6-TRUST-05", "S6-INPUT-12"),
    ),
    (
        "class-case",
        [{"memory_id": "m1", "classification": "Malicious"}],
        {},
        (),
        "classification match is case-sensitive",
        ("S6-TRUST-05", "S6-TRUST-02"),
    ),
    (
        "class-space",
        [{"memory_id": "m1", "classification": "malicious "}],
        {},
        (),
        "classification match is exact",
        ("S6-TRUST-05",),
    ),
    (
        "deny-many",
        [
            {"memory_id": "m1", "classification": "b"},
            {"memory_id": "m3", "classification": "a"},
            {"memory_id": "m2", "classification": "c"},
        ],
        {"deny_classifications": ["a", "b"]},
        ("s:m1", "t:m1", "s:m3"),
        "several deny classifications",
        ("S6-TRUST-05",),
    ),
    (
        "default-deny",
        [
            {"memory_id": "m3", "classification": "malicious"},
            {"memory_id": "m1", "classification": "spam"},
        ],
        {},
        ("s:m3",),
        "deny defaults to ['malicious']",
        ("S6-INPUT-12", "S6-TRUST-05"),
    ),
    (
        "explicit-malicious",
        [
            {"memory_id": "m3", "classification": "malicious"},
            {"memory_id": "m1", "classification": "spam"},
        ],
        {"deny_classifications": ["malicious"]},
        ("s:m3",),
        "explicit ['malicious']",
        ("S6-INPUT-12",),
    ),
    (
        "empty-deny",
        [{"memory_id": "m1", "classification": "malicious"}],
        {"deny_classifications": []},
        (),
        "an empty deny list denies nothing",
        ("S6-INPUT-12", "S6-TRUST-05"),
    ),
    ("empty-entries", [], {}, (), "no entries", ("S6-TRUST-01", "S6-TRUST-02")),
    (
        "unknown-entry-members",
        [
            {
                "memory_id": "m1",
                "classification": "malicious",
                "source": "phase4",
                "confidence": 0.93,
                "evidence": {"rule": "r1", "hits": [1, 2]},
            }
        ],
        {},
        ("s:m1", "t:m1"),
        "unknown entry members ignored",
        ("S6-TRUST-03",),
    ),
    (
        "empty-string-id",
        [{"memory_id": "", "classification": "malicious"}],
        {},
        (),
        "memory_id '' names no record of these stores (none has memory_id '')",
        ("S6-TRUST-02",),
    ),
    (
        "uppercase-hash",
        [{"record_hash": H1.upper(), "classification": "malicious"}],
        {},
        (),
        "record_hash compared exactly",
        ("S6-TRUST-04", "S6-TRUST-02"),
    ),
    (
        "raw-line-hash",
        [
            {
                "record_hash": hashlib.sha256(_M3_LINE.encode()).hexdigest(),
                "classification": "malicious",
            }
        ],
        {},
        (),
        "the raw line's SHA-256 is not the record_hash",
        ("S6-TRUST-04", "S6-HASH-01"),
    ),
    (
        "two-classes-one-id",
        [
            {"memory_id": "m3", "classification": "benign"},
            {"memory_id": "m3", "classification": "malicious"},
        ],
        {},
        ("s:m3",),
        "any matching deny entry denies",
        ("S6-TRUST-05",),
    ),
    (
        "unmatched-id",
        [{"memory_id": "m9", "classification": "malicious"}],
        {},
        (),
        "an id no record has",
        ("S6-TRUST-02", "S6-TRUST-06"),
    ),
    (
        "text-looks-bad",
        [{"memory_id": "m9", "classification": "malicious"}],
        {"deny_classifications": ["malicious", "suspicious"]},
        (),
        "no inference from content",
        ("S6-TRUST-06", "S6-ACC-06"),
    ),
    (
        "all-denied",
        [{"memory_id": m, "classification": "malicious"} for m in ("m1", "m2", "m3")],
        {},
        ("s:m1", "s:m2a", "s:m2b", "s:m3", "t:m1"),
        "every candidate denied",
        ("S6-TRUST-08", "S6-OUT-16"),
    ),
)


def _reasons_check(denied: int) -> Callable[[Json], str | None]:
    def check(result: Json) -> str | None:
        got = sum(1 for _, reason in dropped_reasons(result) if reason == "trust_denied")
        return None if got == denied else f"{got} trust_denied entries, intended {denied}"

    return check


def _match_cases() -> Iterator[Case]:
    for slug, entries, extra, denied, what, clauses in MATCHES:
        files = dict(_STORES)
        files[SNAP] = snapshot(*entries)
        yield Case(
            id=f"trust-{slug}",
            description=f"Trust filter: {what}.",
            comment=f"snapshot entries {json.dumps(entries)[:300]}; trust_filter extras {extra!r}.",
            clauses=(
                "S6-TRUST-08",
                "S6-ACC-05",
                "S6-ACC-06",
                "S6-TRUST-01",
                "S6-TRUST-06",
                *clauses,
            ),
            interpretations=("INT-38", "INT-39"),
            request=make_request(
                "alpha", _PATHS, trust_filter={"trust_snapshot_path": SNAP, **extra}
            ),
            files=files,
            selected=_kept(*denied),
            check=_reasons_check(len(denied)),
        )
    yield Case(
        id="trust-no-snapshot",
        description="Without trust_snapshot_path nothing is trust-filtered.",
        comment="a snapshot file exists but the request does not name it; deny list given.",
        clauses=("S6-TRUST-07", "S6-TRUST-02"),
        interpretations=(),
        request=make_request(
            "alpha", _PATHS, trust_filter={"deny_classifications": ["malicious", "spam"]}
        ),
        files={**_STORES, SNAP: snapshot({"memory_id": "m1", "classification": "malicious"})},
        selected=_kept(),
    )
    deny_m1 = snapshot({"memory_id": "m1", "classification": "malicious"})
    yield Case(
        id="trust-no-max-items-use",
        description="Denied candidates do not count toward max_items.",
        comment="m1 denied (both stores); max_items 2: the next two are selected.",
        clauses=("S6-TRUST-08", "S6-TOK-05"),
        interpretations=("INT-39", "INT-27", "INT-38"),
        request=make_request(
            "alpha", _PATHS, budget={"max_items": 2}, trust_filter={"trust_snapshot_path": SNAP}
        ),
        files={**_STORES, SNAP: deny_m1},
        selected=_kept("s:m1", "t:m1")[:2],
    )
    yield Case(
        id="trust-no-budget-use",
        description="Denied candidates do not use budget.",
        comment="every excerpt is 3 or 4 tokens; max 3 tokens; m1 (first) denied: the next fits.",
        clauses=("S6-TRUST-08", "S6-TRUNC-11"),
        interpretations=("INT-39", "INT-38"),
        request=make_request("alpha", _PATHS, tokens=3, trust_filter={"trust_snapshot_path": SNAP}),
        files={**_STORES, SNAP: deny_m1},
        check=lambda r: None if len(r["package"]["selection"]["selected"]) == 1 else "one selected",
    )
    yield Case(
        id="trust-invalid-line-not-trust-checked",
        description="An invalid line with a denied memory_id is invalid_record_schema, "
        "not trust_denied.",
        comment="stores/s.jsonl gets a line {memory_id m1, text 5}; m1 is denied.",
        clauses=("S6-REC-11", "S6-TRUST-08"),
        interpretations=("INT-39", "INT-19", "INT-38"),
        request=make_request(
            "alpha", ["stores/s.jsonl"], trust_filter={"trust_snapshot_path": SNAP}
        ),
        files={"stores/s.jsonl": store(line("m1", 5), line(*_M3)), SNAP: deny_m1},
        check=lambda r: (
            None
            if dropped_reasons(r) == [("m1", "invalid_record_schema")]
            else f"dropped {dropped_reasons(r)!r}"
        ),
    )


def _raw(text: str) -> dict[str, Json]:
    return {"text": text}


def _nest(depth: int) -> str:
    """A JSON array text nested ``depth`` deep."""
    return "[" * depth + "]" * depth


_ENTRY = '{"memory_id":"m1","classification":"malicious"}'
_BAD = ("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path")
_MISSING = ("trust_snapshot_not_found", "/trust_filter/trust_snapshot_path")

#: slug -> (snapshot file entry or None for no file, snapshot path, intended error or None)
ERRORS: tuple[tuple[str, Mapping[str, Json] | None, str, tuple[str, str] | None], ...] = (
    ("missing-file", None, SNAP, _MISSING),
    ("missing-dir", None, "nodir/trust.json", _MISSING),
    ("not-a-dir", None, "stores/s.jsonl/trust.json", _MISSING),
    ("directory", {"directory": True}, SNAP, _BAD),
    ("empty-file", _raw(""), SNAP, _BAD),
    ("truncated", _raw('{"format":"phase6-trust/1","entries":['), SNAP, _BAD),
    ("not-json", _raw("malicious: m1\n"), SNAP, _BAD),
    ("trailing-comma", _raw(f'{{"format":"phase6-trust/1","entries":[{_ENTRY},]}}'), SNAP, _BAD),
    ("nan", _raw('{"format":"phase6-trust/1","entries":[],"x":NaN}'), SNAP, _BAD),
    ("bom", _raw(f'\ufeff{{"format":"phase6-trust/1","entries":[{_ENTRY}]}}'), SNAP, _BAD),
    ("single-quotes", _raw("{'format':'phase6-trust/1','entries':[]}"), SNAP, _BAD),
    ("comment", _raw('{"format":"phase6-trust/1",/* c */"entries":[]}'), SNAP, _BAD),
    ("trailing-garbage", _raw('{"format":"phase6-trust/1","entries":[]} x'), SNAP, _BAD),
    (
        "two-documents",
        _raw(
            '{"format":"phase6-trust/1","entries":[]}\n{"format":"phase6-trust/1","entries":[]}\n'
        ),
        SNAP,
        _BAD,
    ),
    ("format-v2", snapshot_text({"format": "phase6-trust/2", "entries": []}), SNAP, _BAD),
    ("format-missing", snapshot_text({"entries": []}), SNAP, _BAD),
    ("format-number", snapshot_text({"format": 1, "entries": []}), SNAP, _BAD),
    ("format-upper", snapshot_text({"format": "PHASE6-TRUST/1", "entries": []}), SNAP, _BAD),
    ("top-array", snapshot_text([{"memory_id": "m1", "classification": "malicious"}]), SNAP, _BAD),
    ("top-null", _raw("null\n"), SNAP, _BAD),
    ("entries-missing", snapshot_text({"format": "phase6-trust/1"}), SNAP, _BAD),
    ("entries-object", snapshot_text({"format": "phase6-trust/1", "entries": {}}), SNAP, _BAD),
    ("entries-null", snapshot_text({"format": "phase6-trust/1", "entries": None}), SNAP, _BAD),
    ("entry-number", snapshot_text({"format": "phase6-trust/1", "entries": [1]}), SNAP, _BAD),
    ("entry-string", snapshot_text({"format": "phase6-trust/1", "entries": ["m1"]}), SNAP, _BAD),
    ("entry-null", snapshot_text({"format": "phase6-trust/1", "entries": [None]}), SNAP, _BAD),
    ("entry-array", snapshot_text({"format": "phase6-trust/1", "entries": [[]]}), SNAP, _BAD),
    ("entry-no-ids", snapshot({"classification": "malicious"}), SNAP, _BAD),
    ("entry-null-id", snapshot({"memory_id": None, "classification": "malicious"}), SNAP, _BAD),
    ("entry-null-hash", snapshot({"record_hash": None, "classification": "malicious"}), SNAP, _BAD),
    (
        "entry-id-and-null-hash",
        snapshot({"memory_id": "m1", "record_hash": None, "classification": "malicious"}),
        SNAP,
        _BAD,
    ),
    ("entry-id-number", snapshot({"memory_id": 1, "classification": "malicious"}), SNAP, _BAD),
    (
        "entry-hash-array",
        snapshot({"record_hash": [H1], "classification": "malicious"}),
        SNAP,
        _BAD,
    ),
    ("entry-no-class", snapshot({"memory_id": "m1"}), SNAP, _BAD),
    ("entry-null-class", snapshot({"memory_id": "m1", "classification": None}), SNAP, _BAD),
    ("entry-number-class", snapshot({"memory_id": "m1", "classification": 3}), SNAP, _BAD),
    (
        "depth-64",
        _raw(
            f'{{"format":"phase6-trust/1","entries":[{{"memory_id":"m1","classification":"malicious","x":{_nest(61)}}}]}}'
        ),
        SNAP,
        None,
    ),
    (
        "depth-65",
        _raw(
            f'{{"format":"phase6-trust/1","entries":[{{"memory_id":"m1","classification":"malicious","x":{_nest(62)}}}]}}'
        ),
        SNAP,
        _BAD,
    ),
    (
        "depth-65-top",
        _raw(f'{{"format":"phase6-trust/1","entries":[],"x":{_nest(64)}}}'),
        SNAP,
        _BAD,
    ),
    (
        "depth-64-top",
        _raw(f'{{"format":"phase6-trust/1","entries":[],"x":{_nest(63)}}}'),
        SNAP,
        None,
    ),
    (
        "lone-surrogate",
        _raw(
            '{"format":"phase6-trust/1","entries":[{"memory_id":"\\ud800","classification":"malicious"}]}'
        ),
        SNAP,
        _BAD,
    ),
    (
        "lone-surrogate-overwritten",
        _raw('{"format":"phase6-trust/1","entries":[],"x":"\\udc00","x":1}'),
        SNAP,
        _BAD,
    ),
    ("overflow", _raw('{"format":"phase6-trust/1","entries":[],"x":1e400}'), SNAP, _BAD),
    (
        "bad-utf8",
        {
            "base64": base64.b64encode(
                b'{"format":"phase6-trust/1","entries":[],"x":"\xc3("}'
            ).decode()
        },
        SNAP,
        _BAD,
    ),
    (
        "dup-format-last-valid",
        _raw('{"format":"x","format":"phase6-trust/1","entries":[]}'),
        SNAP,
        None,
    ),
    (
        "dup-format-last-invalid",
        _raw('{"format":"phase6-trust/1","format":"x","entries":[]}'),
        SNAP,
        _BAD,
    ),
    (
        "unknown-top",
        snapshot_text(
            {
                "format": "phase6-trust/1",
                "entries": [],
                "generated_at": "2024-01-01T00:00:00Z",
                "source": {"phase": 4},
            }
        ),
        SNAP,
        None,
    ),
    ("path-dot", snapshot(), "./trust.json", None),
    ("path-dotdot", snapshot(), "stores/../trust.json", None),
    ("path-double-slash", snapshot(), ".//trust.json", None),
    ("crlf-file", _raw('{"format":"phase6-trust/1",\r\n"entries":[]}\r\n'), SNAP, None),
    ("no-final-newline", _raw('{"format":"phase6-trust/1","entries":[]}'), SNAP, None),
)


def _error_cases() -> Iterator[Case]:
    for slug, spec, path, error in ERRORS:
        files = {"stores/s.jsonl": store(line(*_M1), line(*_M3))}
        if spec is not None:
            files[SNAP] = dict(spec)
        for deny in (
            ((), ("empty",))
            if error is not None and slug in ("format-v2", "entry-no-ids", "missing-file")
            else ((),)
        ):
            trust_filter: dict[str, Json] = {"trust_snapshot_path": path}
            if deny:
                trust_filter["deny_classifications"] = []
            yield Case(
                id=f"trust-snapshot-{slug}" + ("-deny-empty" if deny else ""),
                description=f"Trust snapshot {slug}: "
                + (f"error {error[0]}." if error else "a valid snapshot.")
                + (" Checked even with an empty deny list." if deny else ""),
                comment=f"trust_snapshot_path {path!r}; the file: "
                f"{json.dumps(spec)[:200] if spec else 'absent'}.",
                clauses=("S6-INPUT-13", "S6-TRUST-03") if error else ("S6-INPUT-13", "S6-TRUST-07"),
                interpretations=("INT-38",)
                + (("INT-18",) if "depth" in slug else ())
                + (("INT-16",) if "dup" in slug or "overwritten" in slug else ())
                + (("INT-12",) if "path" in slug else ()),
                request=make_request("alpha", trust_filter=trust_filter),
                files=files,
                error=error,
            )
    yield Case(
        id="trust-snapshot-after-store-error",
        description="A missing store is reported before a missing snapshot.",
        comment="store_paths ['stores/none.jsonl']; snapshot absent too: store_not_found first.",
        clauses=("S6-ERR-05", "S6-INPUT-13"),
        interpretations=("INT-38", "INT-13"),
        request=make_request(
            "alpha", ["stores/none.jsonl"], trust_filter={"trust_snapshot_path": SNAP}
        ),
        files={},
        error=("store_not_found", "/store_paths/0"),
    )
    yield Case(
        id="trust-snapshot-path-empty",
        description="An empty trust_snapshot_path is a request error.",
        comment="trust_snapshot_path ''.",
        clauses=("S6-INPUT-13",),
        interpretations=("INT-38",),
        request=make_request("alpha", trust_filter={"trust_snapshot_path": ""}),
        files={"stores/s.jsonl": store(line(*_M1))},
        error=("invalid_trust_filter", "/trust_filter/trust_snapshot_path"),
    )


def cases() -> Iterator[Case]:
    """Matching rules, then snapshot errors and edge-valid snapshots."""
    yield from _match_cases()
    yield from _error_cases()
