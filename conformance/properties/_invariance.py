"""The invariance family: transformations of an input that SPEC-006 says cannot matter.

:data:`INVARIANCES` is the one table of what is invariant, why (clauses, interpretations) and
how far (``scope``): some transformations must leave the whole result unchanged, others only
the selection, because INT-28 lists every record line in ``dropped``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from conformance import readings
from conformance.corpus import FileSpec, LinesFile, TextFile
from conformance.properties._probe import Probe
from conformance.properties._shape import Case, as_view, fail, is_subsequence, pinned_fail, show
from conformance.run import first_difference
from conformance.strategies import (
    DEFAULTS,
    INVALID_LINE_KINDS,
    SAFE_INT,
    Scenario,
    StoreLine,
    invalid_record_lines,
    scenarios,
)

__all__ = ["INVARIANCES", "Invariance", "check_invariance", "invariance_cases"]


# ------------------------------------------------------------------------------ invariance


@dataclass(frozen=True)
class Invariance:
    """One transformation of an input that SPEC-006 says must not change the output.

    ``scope`` is what must stay equal: ``result`` (package and receipt), ``package``, or
    ``selection`` (query, budget and selected identical; the original dropped entries keep
    their order and reasons, new entries only for the added lines).
    """

    name: str
    statement: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    scope: str
    make: Callable[[st.DrawFn, Scenario, frozenset[str] | None], tuple[Scenario, Scenario]]


def _edit(scenario: Scenario, note: str, change: Callable[[dict[str, Any]], None]) -> Scenario:
    request = scenario.request
    change(request)
    return scenario.with_request(request, note=note)


def _permute(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    order = draw(st.permutations(s.request["store_paths"]))
    return s, _edit(s, "permuted", lambda r: r.update(store_paths=list(order)))


def _duplicate(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    paths = s.request["store_paths"]
    copy = paths[draw(st.integers(0, len(paths) - 1))]
    where = draw(st.integers(0, len(paths)))
    return s, _edit(s, "duplicated", lambda r: r["store_paths"].insert(where, copy))


def _respell(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    paths = s.request["store_paths"]
    index = draw(st.integers(0, len(paths) - 1))
    path = readings.normalize_path(paths[index])
    head, _, tail = path.rpartition("/")
    spelled = draw(
        st.sampled_from((f"./{path}", f"{head}//{tail}", f"{head}/zz/../{tail}", f"{path}/"))
    )
    return s, _edit(s, "respelled", lambda r: r["store_paths"].__setitem__(index, spelled))


def _recency_off(draw: st.DrawFn, request: dict[str, Any]) -> None:
    """Make recency inactive: enable_recency_weight false/absent, or no now_utc."""
    scoring = request.setdefault("scoring", {})
    how = draw(st.sampled_from(("false", "absent", "no-now")))
    if how == "false":
        scoring["enable_recency_weight"] = False
    elif how == "absent":
        scoring.pop("enable_recency_weight", None)
    else:
        request.pop("now_utc", None)


def _half_life(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    base = _edit(s, "recency off", lambda r: _recency_off(draw, r))
    current = base.request.get("scoring", {}).get("recency_half_life_days", 30)
    other = draw(st.sampled_from([v for v in (1, 7, 30, 365, SAFE_INT) if v != current]))
    return base, _edit(
        base, "half-life", lambda r: r["scoring"].update(recency_half_life_days=other)
    )


def _now(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    def off(request: dict[str, Any]) -> None:
        scoring = request.setdefault("scoring", {})
        if draw(st.booleans()):
            scoring["enable_recency_weight"] = False
        else:
            scoring.pop("enable_recency_weight", None)

    base = _edit(s, "recency disabled", off)
    other = draw(st.sampled_from(("2001-02-03T04:05:06Z", "9999-12-31T23:59:59.999999999Z")))

    def change(request: dict[str, Any]) -> None:
        if "now_utc" in request and draw(st.booleans()):
            del request["now_utc"]
        else:
            request["now_utc"] = other

    return base, _edit(base, "now changed", change)


def _without_now(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    def base_change(request: dict[str, Any]) -> None:
        request.pop("now_utc", None)
        request.setdefault("scoring", {}).pop("enable_recency_weight", None)

    base = _edit(s, "no now_utc", base_change)
    return base, _edit(
        base, "recency on", lambda r: r["scoring"].update(enable_recency_weight=True)
    )


def _explicit_defaults(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    def fill(request: dict[str, Any]) -> None:
        budget = request["budget"]
        if "per_item_max_excerpt_tokens" not in budget and draw(st.booleans()):
            # "optional, defaults to max_excerpt_tokens"
            budget["per_item_max_excerpt_tokens"] = budget["max_excerpt_tokens"]
        for group, defaults in DEFAULTS.items():
            for name, value in defaults.items():
                if draw(st.booleans()):
                    members = request.setdefault(group, {})
                    members.setdefault(name, json.loads(json.dumps(value)))

    return s, _edit(s, "defaults explicit", fill)


_INERT_SNAPSHOT = "trust/inert.json"


def _inert_trust(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    base = _edit(s, "no trust filter", lambda r: r.pop("trust_filter", None))
    ids = sorted(
        {
            readings.read_line(line.data)["memory_id"]
            for _, lines in s.lines
            for line in lines
            if line.kind == "valid"
        }
    )
    deny = draw(st.sampled_from((None, [], ["quarantine"])))
    allowed = ["benign", "suspicious"] + ([] if deny is None else ["malicious"])
    case_edge = pinned is None or "INT-39" in pinned
    if case_edge:  # INT-39: classifications match case-sensitively ("Malicious" denies nothing)
        allowed.append("Malicious")
    entries = [
        {"memory_id": memory_id, "classification": draw(st.sampled_from(allowed))}
        for memory_id in ids
    ]
    document = {"format": "phase6-trust/1", "entries": entries}
    files: dict[str, FileSpec] = dict(s.files)
    files[_INERT_SNAPSHOT] = TextFile(json.dumps(document, ensure_ascii=False))
    trust: dict[str, Any] = {"trust_snapshot_path": _INERT_SNAPSHOT}
    if deny is not None:
        trust["deny_classifications"] = deny
    variant = base.with_files(files, dict(s.lines), note="inert snapshot")
    if any(e["classification"] == "Malicious" for e in entries):
        variant = variant.with_pinned("INT-39")
    return base, _edit(variant, "inert snapshot", lambda r: r.update(trust_filter=trust))


def _reflow(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    files: dict[str, FileSpec] = dict(s.files)
    lines: dict[str, list[StoreLine]] = {k: list(v) for k, v in s.lines}
    for path, store in lines.items():
        for _ in range(draw(st.integers(0, 2))):
            blank = StoreLine(draw(st.sampled_from(("", " ", "\t", " \t"))), "blank")
            store.insert(draw(st.integers(0, len(store))), blank)
        old = files[path]
        assert isinstance(old, LinesFile)
        eol = draw(st.sampled_from(("\n", "\r\n")))
        files[path] = LinesFile(tuple(x.raw for x in store), eol, draw(st.booleans()))
    variant = s.with_files(files, lines, note="line endings and blank lines")
    return s, variant.with_pinned("INT-14")


def _insert_invalid(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    files: dict[str, FileSpec] = dict(s.files)
    lines: dict[str, list[StoreLine]] = {k: list(v) for k, v in s.lines}
    paths = sorted(lines)
    kinds = [
        kind
        for rule, names in INVALID_LINE_KINDS.items()
        for kind in names
        if pinned is None or _rule_of(rule, kind) in pinned
    ]
    used: set[str] = set()
    for _ in range(draw(st.integers(1, 2))):
        path = paths[draw(st.integers(0, len(paths) - 1))]
        store = lines[path]
        line = draw(invalid_record_lines(kinds=kinds))
        _, rule, kind = line.kind.split(":", 2)
        used.add(_rule_of(rule, kind))
        store.insert(draw(st.integers(0, len(store))), line)
        old = files[path]
        assert isinstance(old, LinesFile)
        files[path] = LinesFile(tuple(x.raw for x in store), old.eol, old.final_eol)
    return s, s.with_files(files, lines, note="invalid lines inserted").with_pinned(*used)


def _rule_of(rule: str, kind: str) -> str:
    """The interpretation an invalid-line kind exercises (a non-string ts_utc: INT-22)."""
    return "INT-22" if kind == "ts-not-string" else rule


_EXTRA_STORE = "zz-extra/unmatched.jsonl"
_FILLERS = ("q", "~", "#", "*", "Ж", "ᚠ", "0")


def _append_unmatchable(
    draw: st.DrawFn, s: Scenario, pinned: frozenset[str] | None = None
) -> tuple[Scenario, Scenario]:
    request = s.request
    terms = request.get("scoring", {}).get("query_terms")
    terms = (
        readings.derive_terms(request["query"]) if terms is None else readings.supplied_terms(terms)
    )
    filler = next(ch for ch in _FILLERS if not any(ch in term for term in terms))
    budget = request["budget"]
    per_item = min(
        int(budget.get("per_item_max_excerpt_tokens", budget["max_excerpt_tokens"])),
        int(budget["max_excerpt_tokens"]),
    )
    text = filler * min(per_item * 4, 2048)
    count = draw(st.integers(1, 3))
    records = [
        StoreLine(json.dumps({"memory_id": f"zz-unmatched-{i}", "text": text}), "valid")
        for i in range(count)
    ]
    files: dict[str, FileSpec] = dict(s.files)
    files[_EXTRA_STORE] = LinesFile(tuple(x.raw for x in records))
    lines = {**dict(s.lines), _EXTRA_STORE: records}
    where = draw(st.integers(0, len(request["store_paths"])))
    variant = s.with_files(files, lines, note="unmatchable records appended")
    return s, _edit(variant, "unmatchable", lambda r: r["store_paths"].insert(where, _EXTRA_STORE))


#: Every invariance the spec implies that the family checks, in one table.
INVARIANCES: Mapping[str, Invariance] = {
    inv.name: inv
    for inv in (
        Invariance(
            "permute_store_paths",
            "Permuting store_paths does not change the result: stores are read in sorted order.",
            ("S6-READ-05",),
            ("INT-12", "INT-43"),
            "result",
            _permute,
        ),
        Invariance(
            "duplicate_store_path",
            "Listing a store path twice does not change the result (each store is read once).",
            ("S6-READ-04",),
            ("INT-12", "INT-43"),
            "result",
            _duplicate,
        ),
        Invariance(
            "respell_store_path",
            "An equivalent spelling of a store path ('./a', 'd//a', 'd/x/../a', 'a/') does not "
            "change the result: paths are normalized before use.",
            ("S6-READ-04",),
            ("INT-12", "INT-13", "INT-43"),
            "result",
            _respell,
        ),
        Invariance(
            "irrelevant_half_life",
            "With recency inactive (enable_recency_weight false/absent, or no now_utc), "
            "recency_half_life_days does not change the result.",
            ("S6-INPUT-09", "S6-INPUT-15"),
            ("INT-36",),
            "result",
            _half_life,
        ),
        Invariance(
            "irrelevant_now",
            "With enable_recency_weight false or absent, adding, changing or removing now_utc "
            "does not change the result.",
            ("S6-INPUT-07", "S6-INPUT-14"),
            ("INT-36",),
            "result",
            _now,
        ),
        Invariance(
            "recency_without_now",
            "Without now_utc, enable_recency_weight=true gives the same result as false.",
            ("S6-INPUT-15",),
            ("INT-36",),
            "result",
            _without_now,
        ),
        Invariance(
            "explicit_defaults",
            "Writing an omitted optional member with its default (per_item = "
            "max_excerpt_tokens, max_items 50, recency false, half-life 30, tag overlap true, "
            'deny ["malicious"]) does not change the result.',
            ("S6-DET-01", "S6-INPUT-04", "S6-INPUT-05", "S6-INPUT-07", "S6-INPUT-08"),
            ("INT-30",),
            "result",
            _explicit_defaults,
        ),
        Invariance(
            "inert_trust_snapshot",
            "A trust snapshot whose entries carry no deny classification does not change the "
            "result: trust filters only explicitly deny-listed items.",
            ("S6-TRUST-05", "S6-TRUST-07", "S6-ACC-06"),
            ("INT-38", "INT-39"),
            "result",
            _inert_trust,
        ),
        Invariance(
            "line_endings_and_blank_lines",
            "CRLF instead of LF, a missing final newline and blank lines do not change the "
            "result (blank lines are not records; record_hash covers the normalized record).",
            ("S6-REC-01", "S6-READ-06"),
            ("INT-14",),
            "result",
            _reflow,
        ),
        Invariance(
            "insert_invalid_lines",
            "Inserting invalid lines changes nothing but dropped, which gains exactly those "
            "lines (as invalid_record_schema).",
            ("S6-REC-10", "S6-REC-11"),
            ("INT-15", "INT-28"),
            "selection",
            _insert_invalid,
        ),
        Invariance(
            "append_unmatchable",
            "Records that cannot match (score 0, no ts_utc) in a store that sorts last rank "
            "after every other candidate: the original selection stays a prefix of the new one, "
            "and when they cannot fit (the selection already stopped, or their excerpt exceeds "
            "the remaining budget) selected and budget are unchanged. dropped does change "
            "(INT-28 lists every record line), so the package is NOT invariant.",
            ("S6-TRUNC-09", "S6-TOK-04", "S6-TOK-05"),
            ("INT-26", "INT-28", "INT-29"),
            "selection",
            _append_unmatchable,
        ),
    )
}


#: Transformations that only make sense with the pinned-only inputs of an interpretation.
_NEEDS = {"line_endings_and_blank_lines": "INT-14", "insert_invalid_lines": "INT-15"}


def invariance_cases(pinned: frozenset[str] | None = None) -> st.SearchStrategy[Case]:
    """An input and its transformed twin; ``pinned`` as for :func:`scenarios` (a
    transformation whose very point is a pinned-only input is left out when not allowed)."""
    names = tuple(
        name
        for name in INVARIANCES
        if pinned is None
        or name not in _NEEDS
        or (
            name == "insert_invalid_lines"
            and any(_rule_of(r, k) in pinned for r, ks in INVALID_LINE_KINDS.items() for k in ks)
        )
        or _NEEDS[name] in pinned
    )

    @st.composite
    def draw_case(draw: st.DrawFn) -> Case:
        scenario = draw(scenarios(pinned=pinned))
        name = draw(st.sampled_from(names))
        base, variant = INVARIANCES[name].make(draw, scenario, pinned)
        return Case(base, variant, name)

    return draw_case()


def check_invariance(probe: Probe, case: Case) -> None:
    """The transformed input gives the same output, to the extent the invariance states."""
    assert case.variant is not None
    invariance = INVARIANCES[case.transform]
    first_result = probe.run(case.scenario)
    second_result = probe.run(case.variant)
    first, second = as_view(first_result), as_view(second_result)
    fail_args = (invariance.clauses, invariance.interpretations)

    def differ(what: str, a: Any, b: Any) -> None:
        diff = first_difference(a, b)
        if diff is not None:
            fail(
                invariance.name,
                fail_args[0],
                f"{invariance.statement} But {what} changed at {diff.describe()} "
                f"(before {show(diff.expected, 160)}, after {show(diff.actual, 160)})",
                fail_args[1],
            )

    if invariance.scope == "result":
        differ("the result", first.result, second.result)
        return
    differ("the query", first.package["query"], second.package["query"])
    grown = len(second.dropped) >= len(first.dropped)
    if not grown or not is_subsequence(list(first.dropped), list(second.dropped)):
        # "keep their place": dropped is in read order, which is INT-28's reading
        pinned_fail(
            invariance.name,
            fail_args[0],
            f"{invariance.statement} But the original dropped entries did not all keep their "
            "place and reason",
            ("INT-28",),
        )
    added = Counter(show(x, 10**6) for x in second.dropped) - Counter(
        show(x, 10**6) for x in first.dropped
    )
    for entry in added.elements():
        item = json.loads(entry)
        allowed = (
            item["store_path"] == _EXTRA_STORE
            if invariance.name == "append_unmatchable"
            else item["reason"] == "invalid_record_schema"
        )
        if not allowed:
            fail(
                invariance.name,
                fail_args[0],
                f"{invariance.statement} But dropped gained an unrelated entry {entry}",
                fail_args[1],
            )
    if invariance.name == "append_unmatchable":
        prefix = list(second.selected[: len(first.selected)])
        differ("the original selection (as a prefix)", list(first.selected), prefix)
        stopped = any(
            item["reason"] in ("budget_exhausted", "max_items_reached") for item in first.dropped
        )
        extra = dict(case.variant.lines).get(_EXTRA_STORE, ())
        extra_tokens = 0
        if extra:
            text = json.loads(extra[0].raw)["text"]
            extra_tokens = -(-len(text.encode()) // 4)
        cannot_fit = (
            stopped
            or len(first.selected) >= int(first.budget["max_items"])
            or first.used + extra_tokens > int(first.budget["max_excerpt_tokens"])
        )
        if not cannot_fit:
            return
    differ("selected", list(first.selected), list(second.selected))
    differ("the budget", first.budget, second.budget)
