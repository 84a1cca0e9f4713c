"""Hand vectors: the success receipt (family ``receipt``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.hand._dsl import (
    L,
    bud,
    drop,
    err,
    lines,
    ok,
    package,
    rec,
    sel,
    snapshot,
    vec,
)

DESCRIPTION = "Hand-written: receipt = {kind, data{query_hash, store_paths (normalized), selected_count, package_hash}}, success only."
_RC = ["S6-RCPT-01", "S6-RCPT-02", "S6-RCPT-03", "S6-RCPT-04", "S6-RCPT-05", "S6-RCPT-06"]

# ---------------------------------------------------------------- receipt-h001
_a1 = rec("a1", "note")
_b1 = rec("b1", "note")
_h001 = vec(
    "receipt-h001",
    "Receipt store_paths are normalized, deduplicated and sorted; selected_count counts selected.",
    comment=(
        "store_paths ['b.jsonl', './a.jsonl', 'b.jsonl'] -> normalized ['b.jsonl', 'a.jsonl', 'b.jsonl'] -> deduplicated and "
        "sorted ['a.jsonl', 'b.jsonl'] (INT-12); the receipt carries that list (INT-43), kind 'memory.read', query_hash and "
        "package_hash equal to the package's, selected_count = 2. a1, b1 'note' -> score 1 each, 1 token each; tie -> "
        "a.jsonl first. used 2, remaining 98. Nothing else is in the receipt (no excerpt, text, tags or refs)."
    ),
    clauses=[*_RC, "S6-OUT-01"],
    interpretations=["INT-12", "INT-43", "INT-44"],
    request={
        "query": "note",
        "store_paths": ["b.jsonl", "./a.jsonl", "b.jsonl"],
        "budget": {"max_excerpt_tokens": 100},
    },
    files={
        "a.jsonl": lines(L(memory_id="a1", text="note")),
        "b.jsonl": lines(L(memory_id="b1", text="note")),
    },
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 50),
            [sel(_a1, "a.jsonl", 1, "note", 1), sel(_b1, "b.jsonl", 1, "note", 1)],
            [],
        ),
        ["a.jsonl", "b.jsonl"],
    ),
)

# ---------------------------------------------------------------- receipt-h002
_m1 = rec("m1", "note")
_h002 = vec(
    "receipt-h002",
    "A successful call that selects nothing still has a receipt with selected_count 0.",
    comment=(
        "s.jsonl has one record m1 'note', denied by the trust snapshot -> selected [], dropped [m1 trust_denied]. The call "
        "succeeds, so there is a receipt (success-only means: every success has one) with selected_count 0. used 0, remaining 100."
    ),
    clauses=[*_RC, "S6-TRUST-08"],
    interpretations=["INT-38", "INT-39", "INT-43"],
    request={
        "query": "note",
        "store_paths": ["s.jsonl"],
        "budget": {"max_excerpt_tokens": 100},
        "trust_filter": {"trust_snapshot_path": "trust.json"},
    },
    files={
        "s.jsonl": lines(L(memory_id="m1", text="note")),
        "trust.json": snapshot(
            {
                "format": "phase6-trust/1",
                "entries": [{"memory_id": "m1", "classification": "malicious"}],
            }
        ),
    },
    expect=ok(
        package(
            "note", "note", bud(100, 0, 100, 100, 50), [], [drop(_m1, "s.jsonl", "trust_denied")]
        ),
        ["s.jsonl"],
    ),
)

# ---------------------------------------------------------------- receipt-h003
_r3 = rec("m1", "\u00fcn\u00efcode query")
_h003 = vec(
    "receipt-h003",
    "Receipt query_hash is the package's query_hash (normalized non-ASCII query).",
    comment=(
        "query '  \\u00dcN\\u00cfCODE   Query ' -> trim, collapse, lower -> 'ünïcode query' = c3 bc 6e c3 af 63 6f 64 65 20 71 "
        "75 65 72 79 (15 bytes); query_hash = sha256 of those, in query.query_hash and in receipt.data.query_hash. "
        "query.raw keeps the original. m1 text 'ünïcode query' -> terms [ünïcode, query] both match -> 2; excerpt 15 bytes "
        "-> 4 tokens. used 4, remaining 96."
    ),
    clauses=["S6-RCPT-03", "S6-HASH-04", "S6-OUT-02", "S6-OUT-03"],
    interpretations=["INT-01", "INT-06", "INT-11", "INT-43"],
    request={
        "query": "  \u00dcN\u00cfCODE   Query ",
        "store_paths": ["s.jsonl"],
        "budget": {"max_excerpt_tokens": 100},
    },
    files={"s.jsonl": lines(L(memory_id="m1", text="\u00fcn\u00efcode query"))},
    expect=ok(
        package(
            "  \u00dcN\u00cfCODE   Query ",
            "\u00fcn\u00efcode query",
            bud(100, 4, 96, 100, 50),
            [sel(_r3, "s.jsonl", 2, "\u00fcn\u00efcode query", 4)],
            [],
        ),
        ["s.jsonl"],
    ),
)

# ---------------------------------------------------------------- receipt-h004
_h004 = vec(
    "receipt-h004",
    "A failed call returns only an error: no package, no receipt.",
    comment=(
        "store_paths ['missing.jsonl'] does not exist -> store_not_found at /store_paths/0. The result envelope is "
        "{error} alone (INT-44); 'success-only' receipts mean a failure has no receipt (INT-43)."
    ),
    clauses=["S6-RCPT-01", "S6-ERR-05", "S6-ERR-06"],
    interpretations=["INT-13", "INT-40", "INT-43", "INT-44"],
    request={
        "query": "note",
        "store_paths": ["missing.jsonl"],
        "budget": {"max_excerpt_tokens": 100},
    },
    files={},
    expect=err("store_not_found", "/store_paths/0"),
)

# ---------------------------------------------------------------- receipt-h005
_r5 = {m: rec(m, "note") for m in ("m1", "m2", "m3")}
_h005 = vec(
    "receipt-h005",
    "selected_count equals the number of selected items under max_items.",
    comment=(
        "m1, m2, m3 'note' (score 1, 1 token each), max_items 2 -> m1, m2 selected, m3 max_items_reached (INT-27) -> "
        "selected_count 2. used 2, remaining 98, max_items 2."
    ),
    clauses=["S6-RCPT-05", "S6-TOK-05"],
    interpretations=["INT-27", "INT-43"],
    request={
        "query": "note",
        "store_paths": ["s.jsonl"],
        "budget": {"max_excerpt_tokens": 100, "max_items": 2},
    },
    files={"s.jsonl": lines(*(L(memory_id=m, text="note") for m in ("m1", "m2", "m3")))},
    expect=ok(
        package(
            "note",
            "note",
            bud(100, 2, 98, 100, 2),
            [sel(_r5["m1"], "s.jsonl", 1, "note", 1), sel(_r5["m2"], "s.jsonl", 1, "note", 1)],
            [drop(_r5["m3"], "s.jsonl", "max_items_reached")],
        ),
        ["s.jsonl"],
    ),
)

VECTORS = [_h001, _h002, _h003, _h004, _h005]
