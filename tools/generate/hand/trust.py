"""Hand vectors: trust filtering with a phase6-trust/1 snapshot (family ``trust``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import (
    RH,
    L,
    bud,
    directory,
    drop,
    drop_line,
    err,
    lines,
    ok,
    package,
    rec,
    sel,
    snapshot,
    text_file,
    vec,
)

DESCRIPTION = "Hand-written: trust_denied by memory_id / record_hash / an entry naming both (either key), deny lists, no snapshot, snapshot errors."
S = "s.jsonl"
T = "trust.json"
B100 = {"max_excerpt_tokens": 100}
FMT = "phase6-trust/1"


def _req(
    trust_filter: dict[str, object] | None,
    budget: dict[str, object] | None = None,
    stores: list[str] | None = None,
    query: str = "note",
) -> dict[str, object]:
    request: dict[str, object] = {
        "query": query,
        "store_paths": stores or [S],
        "budget": budget or B100,
    }
    if trust_filter is not None:
        request["trust_filter"] = trust_filter
    return request


def _snap(*entries: dict[str, object]) -> dict[str, object]:
    return snapshot({"format": FMT, "entries": list(entries)})


_m1, _m2, _m3 = rec("m1", "note"), rec("m2", "note"), rec("m3", "note")
_STORE3 = lines(
    L(memory_id="m1", text="note"), L(memory_id="m2", text="note"), L(memory_id="m3", text="note")
)
_THREE = "Store: m1, m2, m3, all text 'note' -> score 1 each, 1 token each. "

# ---------------------------------------------------------------- trust-h001
_h001 = vec(
    "trust-h001",
    "A snapshot entry naming a memory_id with classification 'malicious' (default deny list) drops it.",
    comment=_THREE
    + (
        "trust_snapshot_path 'trust.json' = {format phase6-trust/1, entries [{memory_id 'm2', classification 'malicious'}]} "
        "(INT-38); deny_classifications absent -> ['malicious'] (INPUT-12). m2 matches -> removed before selection and "
        "dropped 'trust_denied' (TRUST-08, INT-39). Selected m1, m3 (memory_id order); their scores are untouched. used 2, remaining 98."
    ),
    clauses=[
        "S6-TRUST-01",
        "S6-TRUST-03",
        "S6-TRUST-06",
        "S6-TRUST-08",
        "S6-INPUT-12",
        "S6-INPUT-13",
        "S6-ACC-05",
        "S6-ACC-06",
    ],
    interpretations=["INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"memory_id": "m2", "classification": "malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [drop(_m2, S, "trust_denied")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h002
_h002 = vec(
    "trust-h002",
    "A snapshot entry naming a record_hash drops the candidate with that hash.",
    comment=_THREE
    + (
        'Snapshot entry {record_hash: sha256 of {"memory_id":"m3","refs":[],"tags":[],"text":"note"}, classification '
        "'malicious'} -> m3 denied (TRUST-04, INT-39). Selected m1, m2; dropped m3 trust_denied. used 2, remaining 98."
    ),
    clauses=["S6-TRUST-04", "S6-TRUST-08"],
    interpretations=["INT-02", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"record_hash": RH(_m3), "classification": "malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1)],
            [drop(_m3, S, "trust_denied")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h003
_r3two = rec("m1", "note two")
_h003 = vec(
    "trust-h003",
    "An entry naming memory_id and record_hash denies a candidate equal on either key.",
    comment=(
        "Store: m1 'note' (line 0), m1 'note two' (line 1), m2 'note' (line 2); query 'note' -> all score 1. Entry A "
        "{memory_id m1, record_hash of {m1,'note two'}} -> denies line 0 (memory_id m1) and line 1 (memory_id m1, and its "
        "record_hash). Entry B {memory_id m2, record_hash of {m1,'note'}} -> denies line 2 (memory_id m2) and line 0 again "
        "(record_hash). INT-39: each key an entry names matches on its own. Every candidate denied: selected [], dropped "
        "lines 0, 1, 2 trust_denied in read order (INT-28). used 0, remaining 100."
    ),
    clauses=["S6-TRUST-03", "S6-TRUST-04", "S6-TRUST-08"],
    interpretations=["INT-23", "INT-28", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={
        S: lines(
            L(memory_id="m1", text="note"),
            L(memory_id="m1", text="note two"),
            L(memory_id="m2", text="note"),
        ),
        T: _snap(
            {"memory_id": "m1", "record_hash": RH(_r3two), "classification": "malicious"},
            {"memory_id": "m2", "record_hash": RH(_m1), "classification": "malicious"},
        ),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 0, 100, 100, 50),
            [],
            [
                drop(_m1, S, "trust_denied"),
                drop(_r3two, S, "trust_denied"),
                drop(_m2, S, "trust_denied"),
            ],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h004
_h004 = vec(
    "trust-h004",
    "A classification not in the deny list ('suspicious') filters nothing and changes no score.",
    comment=_THREE
    + (
        "Entry {memory_id m1, classification 'suspicious'}; deny list default ['malicious'] -> not a deny classification "
        "-> m1 kept, score still 1 (no 'suspicious' scoring, TRUST-06). All three selected; dropped []. used 3, remaining 97."
    ),
    clauses=["S6-TRUST-02", "S6-TRUST-05", "S6-TRUST-06", "S6-ACC-06"],
    interpretations=["INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"memory_id": "m1", "classification": "suspicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h005
_h005 = vec(
    "trust-h005",
    "An empty deny list denies nothing, even with a 'malicious' entry.",
    comment=_THREE
    + (
        "deny_classifications [] (explicit) and entry {memory_id m1, classification 'malicious'} -> 'malicious' is not in "
        "the list -> nothing denied (INT-39). All three selected. used 3, remaining 97."
    ),
    clauses=["S6-TRUST-05", "S6-INPUT-12"],
    interpretations=["INT-38", "INT-39"],
    request=_req({"deny_classifications": [], "trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"memory_id": "m1", "classification": "malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h006
_h006 = vec(
    "trust-h006",
    "The snapshot is validated even when the deny list is empty.",
    comment='deny_classifications [] but trust.json = \'{"format":"phase6-trust/1"}\' (no entries array) -> not a valid phase6-trust/1 snapshot -> invalid_trust_snapshot at /trust_filter/trust_snapshot_path (INT-38: read and validated whenever the path is given).',
    clauses=["S6-INPUT-13", "S6-ERR-01"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"deny_classifications": [], "trust_snapshot_path": T}),
    files={S: _STORE3, T: text_file('{"format":"phase6-trust/1"}\n')},
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h007
_h007 = vec(
    "trust-h007",
    "No trust_snapshot_path: filtering is disabled (a snapshot file lying around is not read).",
    comment=_THREE
    + (
        "trust_filter {deny_classifications ['malicious']} without trust_snapshot_path -> 'If no snapshot provided, trust "
        "filtering is disabled'. trust.json (which would deny m1) exists but is not named -> nothing denied. All three "
        "selected. used 3, remaining 97."
    ),
    clauses=["S6-TRUST-07", "S6-TRUST-02"],
    request=_req({"deny_classifications": ["malicious"]}),
    files={S: _STORE3, T: _snap({"memory_id": "m1", "classification": "malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h008
_h008 = vec(
    "trust-h008",
    "A custom deny list replaces the default: 'spam' denied, 'malicious' not.",
    comment=_THREE
    + (
        "deny_classifications ['spam']; entries {m1 'spam'}, {m2 'malicious'} -> only m1 denied ('malicious' is no longer in "
        "the list). Selected m2, m3; dropped m1 trust_denied. used 2, remaining 98."
    ),
    clauses=["S6-TRUST-01", "S6-TRUST-05", "S6-INPUT-12", "S6-TRUST-08"],
    interpretations=["INT-38", "INT-39"],
    request=_req({"deny_classifications": ["spam"], "trust_snapshot_path": T}),
    files={
        S: _STORE3,
        T: _snap(
            {"memory_id": "m1", "classification": "spam"},
            {"memory_id": "m2", "classification": "malicious"},
        ),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [drop(_m1, S, "trust_denied")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h009
_h009 = vec(
    "trust-h009",
    "Classification matching is case-sensitive: 'Malicious' is not 'malicious'.",
    comment=_THREE
    + "Entry {m1, 'Malicious'}; deny list ['malicious'] -> exact, case-sensitive comparison (INT-39) -> no match. All three selected. used 3, remaining 97.",
    clauses=["S6-TRUST-05", "S6-TRUST-02"],
    interpretations=["INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"memory_id": "m1", "classification": "Malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h010
_h010 = vec(
    "trust-h010",
    "A memory_id entry denies that memory_id in every store; dropped stays in read order.",
    comment=(
        "a.jsonl: m1 'note'; b.jsonl: m1 'note', m2 'note'. Entry {m1, malicious} matches both m1 candidates (INT-39: in any "
        "store). dropped in read order (INT-28): a.jsonl m1, then b.jsonl m1 (same record_hash). Selected b.jsonl m2 "
        "(score 1, 1 token). used 1, remaining 99."
    ),
    clauses=["S6-TRUST-03", "S6-TRUST-08"],
    interpretations=["INT-23", "INT-28", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}, stores=["a.jsonl", "b.jsonl"]),
    files={
        "a.jsonl": lines(L(memory_id="m1", text="note")),
        "b.jsonl": lines(L(memory_id="m1", text="note"), L(memory_id="m2", text="note")),
        T: _snap({"memory_id": "m1", "classification": "malicious"}),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m2, "b.jsonl", 1, "note", 1)],
            [drop(_m1, "a.jsonl", "trust_denied"), drop(_m1, "b.jsonl", "trust_denied")],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

# ---------------------------------------------------------------- trust-h011
_r11a = rec("m1", "note pad")
_r11c = rec("m3", "other")
_h011 = vec(
    "trust-h011",
    "Denied candidates do not count toward max_items.",
    comment=(
        "query 'note pad'. m1 'note pad' -> 2 (denied by {m1, malicious}); m2 'note' -> 1; m3 'other' -> 0. max_items 1. "
        "Denied candidates are removed before selection (INT-39): rank m2, m3 -> m2 selected (1 token); count reaches 1 -> "
        "m3 max_items_reached (INT-27). dropped in read order (INT-28): m1 trust_denied (line 0), m3 max_items_reached "
        "(line 2). used 1, remaining 99, max_items 1."
    ),
    clauses=["S6-TRUST-08", "S6-TOK-05", "S6-INPUT-06"],
    interpretations=["INT-27", "INT-28", "INT-29", "INT-38", "INT-39"],
    request=_req(
        {"trust_snapshot_path": T},
        budget={"max_excerpt_tokens": 100, "max_items": 1},
        query="note pad",
    ),
    files={
        S: lines(
            L(memory_id="m1", text="note pad"),
            L(memory_id="m2", text="note"),
            L(memory_id="m3", text="other"),
        ),
        T: _snap({"memory_id": "m1", "classification": "malicious"}),
    },
    expect=ok(
        package(
            "note pad",
            "note pad",
            bud(100, 1, 99, 100, 1),
            [sel(_m2, S, 1, "note", 1)],
            [drop(_r11a, S, "trust_denied"), drop(_r11c, S, "max_items_reached")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h012
_h012 = vec(
    "trust-h012",
    "Invalid lines are never trust-checked: they stay invalid_record_schema.",
    comment=(
        'Line 0 \'{"memory_id":"m9"}\' (no text) is invalid; the snapshot denies m9. Invalid lines are never trust-checked '
        "(INT-39) -> reason invalid_record_schema, memory_id 'm9' (INT-19), raw-line hash. Line 1 m1 'note' selected "
        "(score 1, 1 token). used 1, remaining 99."
    ),
    clauses=["S6-REC-11", "S6-TRUST-08"],
    interpretations=["INT-19", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={
        S: lines('{"memory_id":"m9"}', L(memory_id="m1", text="note")),
        T: _snap({"memory_id": "m9", "classification": "malicious"}),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m1, S, 1, "note", 1)],
            [drop_line("m9", S, 0)],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h013
_h013 = vec(
    "trust-h013",
    "trust_snapshot_path that does not exist: trust_snapshot_not_found.",
    comment="trust_snapshot_path 'missing.json' is absent from the vector's files -> trust_snapshot_not_found at /trust_filter/trust_snapshot_path (INT-38, errors.md row 11). The store is fine.",
    clauses=["S6-INPUT-13", "S6-ERR-01"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": "missing.json"}),
    files={S: _STORE3},
    expect=err("trust_snapshot_not_found", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h014
_h014 = vec(
    "trust-h014",
    "A snapshot that is not JSON: invalid_trust_snapshot.",
    comment="trust.json = '{not json' -> not valid JSON -> invalid_trust_snapshot at /trust_filter/trust_snapshot_path (INT-38).",
    clauses=["S6-INPUT-13"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: text_file("{not json\n")},
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h015
_h015 = vec(
    "trust-h015",
    "A snapshot with the wrong format tag: invalid_trust_snapshot.",
    comment="trust.json format 'phase6-trust/2' (entries valid) -> not a phase6-trust/1 document -> invalid_trust_snapshot (INT-38).",
    clauses=["S6-INPUT-13"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": T}),
    files={
        S: _STORE3,
        T: snapshot(
            {
                "format": "phase6-trust/2",
                "entries": [{"memory_id": "m1", "classification": "malicious"}],
            }
        ),
    },
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h016
_h016 = vec(
    "trust-h016",
    "A snapshot entry with neither memory_id nor record_hash: invalid_trust_snapshot.",
    comment="Entry {classification 'malicious'} names no memory_id and no record_hash; each entry must name at least one (INT-38) -> invalid_trust_snapshot.",
    clauses=["S6-INPUT-13"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"classification": "malicious"})},
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h017
_h017 = vec(
    "trust-h017",
    "A snapshot path that is a directory: invalid_trust_snapshot.",
    comment="trust.json is a directory -> exists but is not a regular readable file -> invalid_trust_snapshot (INT-38, errors.md row 12), not trust_snapshot_not_found.",
    clauses=["S6-INPUT-13"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: directory()},
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h018
_h018 = vec(
    "trust-h018",
    "Unknown entry members are ignored; the snapshot path is normalized like store paths.",
    comment=_THREE
    + (
        "trust_snapshot_path './t/../trust.json' -> 'trust.json' (INT-12 via INT-38). Entry {memory_id m2, classification "
        "'malicious', source 'phase4', confidence 0.9}: unknown members ignored (INT-38) -> m2 denied. Selected m1, m3; "
        "dropped m2 trust_denied. used 2, remaining 98."
    ),
    clauses=["S6-TRUST-03", "S6-TRUST-08", "S6-INPUT-13"],
    interpretations=["INT-12", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": "./t/../trust.json"}),
    files={
        S: _STORE3,
        T: _snap(
            {
                "memory_id": "m2",
                "classification": "malicious",
                "source": "phase4",
                "confidence": 0.9,
            }
        ),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [drop(_m2, S, "trust_denied")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h019
_r19a = rec("m1", "note", tags=["note"])
_h019 = vec(
    "trust-h019",
    "Denied candidates consume no budget: the next candidate gets the whole budget.",
    comment=(
        "max_excerpt_tokens 1. m1 'note' tags ['note'] -> 1 + 0.5 = 1.5 (top rank) but denied by {m1, malicious}; m2 'note' "
        "-> 1. Trust is applied before selection (INT-39), so m2 is first: 1 token, 0 + 1 <= 1 -> selected. Without "
        "filtering first, m1 would take the budget and m2 would be budget_exhausted. dropped m1 trust_denied. "
        "used 1, remaining 0, per_item min(1, 1) = 1."
    ),
    clauses=["S6-TRUST-08", "S6-TRUNC-11", "S6-ACC-05"],
    interpretations=["INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}, budget={"max_excerpt_tokens": 1}),
    files={
        S: lines(L(memory_id="m1", text="note", tags=["note"]), L(memory_id="m2", text="note")),
        T: _snap({"memory_id": "m1", "classification": "malicious"}),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(1, 1, 0, 1, 50),
            [sel(_m2, S, 1, "note", 1)],
            [drop(_r19a, S, "trust_denied")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h020
_h020 = vec(
    "trust-h020",
    "No trust_filter at all: nothing is filtered.",
    comment=_THREE
    + (
        "The request has no trust_filter (deny_classifications defaults to ['malicious'], no snapshot path) -> trust filtering "
        "disabled (TRUST-07); trust.json, which would deny m2, is never read. All three selected. used 3, remaining 97."
    ),
    clauses=["S6-TRUST-07", "S6-TRUST-02", "S6-DET-01"],
    request=_req(None),
    files={S: _STORE3, T: _snap({"memory_id": "m2", "classification": "malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

VECTORS = [
    _h001,
    _h002,
    _h003,
    _h004,
    _h005,
    _h006,
    _h007,
    _h008,
    _h009,
    _h010,
    _h011,
    _h012,
    _h013,
    _h014,
    _h015,
    _h016,
    _h017,
    _h018,
    _h019,
    _h020,
]

# ---------------------------------------------------------------- trust-h021
_h021 = vec(
    "trust-h021",
    "An empty entries list and unknown top-level snapshot members are valid: nothing denied.",
    comment=_THREE
    + (
        "trust.json = {format phase6-trust/1, entries [], generator 'phase4'}: an empty entries list is valid and unknown "
        "top-level members are ignored (INT-38) -> no error, nothing denied. All three selected. used 3, remaining 97."
    ),
    clauses=["S6-INPUT-13", "S6-TRUST-02", "S6-ACC-06"],
    interpretations=["INT-38"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: snapshot({"format": FMT, "entries": [], "generator": "phase4"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h022
_h022 = vec(
    "trust-h022",
    "A snapshot entry with memory_id null: invalid_trust_snapshot.",
    comment="Entry {memory_id null, record_hash absent, classification 'malicious'}: memory_id, when present, must be a string (null is a wrong type, INT-38) -> invalid_trust_snapshot at /trust_filter/trust_snapshot_path.",
    clauses=["S6-INPUT-13"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"memory_id": None, "classification": "malicious"})},
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)

# ---------------------------------------------------------------- trust-h023
_h023 = vec(
    "trust-h023",
    "A snapshot entry with memory_id '' is accepted; it names no record of this store.",
    comment=_THREE
    + (
        "Entry {memory_id '', classification 'malicious'}: '' is a memory_id like any other (INT-38, INT-22); no record "
        "of this store has memory_id '', so nothing is denied. All three selected. used 3, remaining 97."
    ),
    clauses=["S6-TRUST-03", "S6-ACC-06"],
    interpretations=["INT-22", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={S: _STORE3, T: _snap({"memory_id": "", "classification": "malicious"})},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 3, 97, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m2, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [],
        ),
        [S],
    ),
)

VECTORS += [_h021, _h022, _h023]

# ---------------------------------------------------------------- trust-h024 / trust-h025
# Added after the mutation gallery: the mutant 'trust-infers-from-tags' (a record tagged
# "malicious" is treated as denied) was killed by a property only, never by a vector.
_TAGGED = lines(
    L(memory_id="m1", text="rust notes", tags=["malicious"]),
    L(memory_id="m2", text="rust notes", tags=["Malicious", "spam"]),
)
_t1 = rec("m1", "rust notes", tags=["malicious"])
_t2 = rec("m2", "rust notes", tags=["malicious", "spam"])
_TAGGED_WORK = (
    "Store: m1 'rust notes' tags ['malicious']; m2 'rust notes' tags ['Malicious','spam'] "
    "(normalized ['malicious','spam'], INT-25). Query 'rust' -> terms ['rust']; both texts contain "
    "'rust' -> base 1; tag overlap 0 ('rust' is no tag) -> score 1 each; tie -> memory_id order "
    "m1, m2. 'rust notes' = 10 bytes -> ceil(10/4) = 3 tokens each; used 6, remaining 94. "
)
_h024 = vec(
    "trust-h024",
    "A 'malicious' tag is content, not a trust classification: without a snapshot nothing is denied.",
    comment=_TAGGED_WORK
    + "No trust_filter -> filtering disabled (TRUST-07); tags never imply trust (TRUST-02/06). Both selected, nothing dropped.",
    clauses=["S6-TRUST-02", "S6-TRUST-06", "S6-TRUST-07", "S6-ACC-06"],
    interpretations=["INT-39"],
    request=_req(None, query="rust"),
    files={S: _TAGGED},
    expect=ok(
        package(
            "rust",
            "rust",
            bud(100, 6, 94, 100, 50),
            [sel(_t1, S, 1, "rust notes", 3), sel(_t2, S, 1, "rust notes", 3)],
            [],
        ),
        [S],
    ),
)
_h025 = vec(
    "trust-h025",
    "With a snapshot that denies another memory_id, records tagged 'malicious' are still selected.",
    comment=_TAGGED_WORK
    + "Snapshot denies only m9 (classification 'malicious'): neither m1 nor m2 is named, so neither is denied "
    "(TRUST-03: only explicit entries filter). Both selected, nothing dropped.",
    clauses=["S6-TRUST-02", "S6-TRUST-03", "S6-TRUST-06", "S6-ACC-06"],
    interpretations=["INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}, query="rust"),
    files={S: _TAGGED, T: _snap({"memory_id": "m9", "classification": "malicious"})},
    expect=ok(
        package(
            "rust",
            "rust",
            bud(100, 6, 94, 100, 50),
            [sel(_t1, S, 1, "rust notes", 3), sel(_t2, S, 1, "rust notes", 3)],
            [],
        ),
        [S],
    ),
)
VECTORS += [_h024, _h025]

# ---------------------------------------------------------------- trust-h026
_h026 = vec(
    "trust-h026",
    "An entry naming both keys denies by its record_hash when its memory_id names no record.",
    comment=_THREE
    + (
        "Entry {memory_id 'm9', record_hash of {m2,'note'}, 'malicious'}: no record has memory_id m9, m2 has that "
        "record_hash -> m2 denied (INT-39: either key). Selected m1, m3 (memory_id order), 1 token each; dropped m2 "
        "trust_denied. used 2, remaining 98."
    ),
    clauses=["S6-TRUST-03", "S6-TRUST-04", "S6-TRUST-08"],
    interpretations=["INT-02", "INT-38", "INT-39"],  # INT-02: the entry denies by m2's record_hash
    request=_req({"trust_snapshot_path": T}),
    files={
        S: _STORE3,
        T: _snap({"memory_id": "m9", "record_hash": RH(_m2), "classification": "malicious"}),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_m1, S, 1, "note", 1), sel(_m3, S, 1, "note", 1)],
            [drop(_m2, S, "trust_denied")],
        ),
        [S],
    ),
)

# ---------------------------------------------------------------- trust-h027
_e0 = rec("", "note")
_h027 = vec(
    "trust-h027",
    "A valid record whose memory_id is '' is denied by an entry naming memory_id ''.",
    comment=(
        "Store: line 0 {memory_id '', text 'note'} (a valid record: '' is a string, INT-22), line 1 m1 'note'; query 'note' "
        "-> both score 1, 1 token each. Entry {memory_id '', 'malicious'} names memory_id '' (INT-38) -> line 0 denied. "
        "Selected m1; dropped '' trust_denied with the record_hash of {memory_id '', refs [], tags [], text 'note'}. "
        "used 1, remaining 99."
    ),
    clauses=["S6-TRUST-03", "S6-TRUST-08", "S6-REC-03"],
    interpretations=["INT-22", "INT-38", "INT-39"],
    request=_req({"trust_snapshot_path": T}),
    files={
        S: lines(L(memory_id="", text="note"), L(memory_id="m1", text="note")),
        T: _snap({"memory_id": "", "classification": "malicious"}),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 1, 99, 100, 50),
            [sel(_m1, S, 1, "note", 1)],
            [drop(_e0, S, "trust_denied")],
        ),
        [S],
    ),
)
VECTORS += [_h026, _h027]

# ---------------------------------------------------------------- trust-h028
_h028 = vec(
    "trust-h028",
    "A JSONL list of classification events is not a phase6-trust/1 snapshot.",
    comment=(
        "trust.json holds two lines, {memory_id m1, 'malicious'} and {memory_id m2, 'benign'}: the file is not one JSON "
        "document -> invalid_trust_snapshot at /trust_filter/trust_snapshot_path (INT-38: the format is the single "
        "phase6-trust/1 object). Read as a JSONL list of events (INT-38/jsonl-list-classification-events), m1 would be "
        "trust_denied instead."
    ),
    clauses=["S6-INPUT-13", "S6-ERR-01"],
    interpretations=["INT-38", "INT-40"],
    request=_req({"trust_snapshot_path": T}),
    files={
        S: _STORE3,
        T: text_file(
            '{"memory_id":"m1","classification":"malicious"}\n'
            '{"memory_id":"m2","classification":"benign"}\n'
        ),
    },
    expect=err("invalid_trust_snapshot", "/trust_filter/trust_snapshot_path"),
)
VECTORS += [_h028]
