"""The output checks of the budget, accounting, order, scores and hashes families.

Each check runs one scenario through the probe, builds the kit's model of the same files and
raises :class:`~conformance.properties._probe.PropertyFailure` naming the check, the clauses
and (where a reading decides it) the interpretations when the output breaks the property.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from conformance import readings
from conformance.properties._model import (
    REASONS,
    Model,
    ModelLine,
    canonical,
    package_hash,
    pow_half,
    record_hash,
    sha256_hex,
)
from conformance.properties._probe import Probe
from conformance.properties._shape import (
    Case,
    as_view,
    entries,
    fail,
    is_hex64,
    is_subsequence,
    line_for,
    pinned_fail,
    show,
)

__all__ = [
    "ORDER_CLAUSES",
    "check_accounting",
    "check_budget",
    "check_hashes",
    "check_order",
    "check_scores",
]


# ------------------------------------------------------------------------------ budget


def check_budget(probe: Probe, case: Case) -> None:
    """The budget is never exceeded and every excerpt is the maximal per-item prefix."""
    result, model = probe.run_with_model(case.scenario)
    view = as_view(result)
    request_budget = case.scenario.request["budget"]
    budget = view.budget
    if budget["max_excerpt_tokens"] != model.max_tokens:
        fail(
            "budget-echo",
            ("S6-OUT-04",),
            f"budget.max_excerpt_tokens is {budget['max_excerpt_tokens']}, the request says "
            f"{request_budget['max_excerpt_tokens']}",
            ("INT-32",),
        )
    if budget["per_item_max_excerpt_tokens"] != model.per_item:
        fail(
            "budget-echo",
            ("S6-INPUT-04", "S6-TRUNC-04", "S6-OUT-07"),
            f"budget.per_item_max_excerpt_tokens is {budget['per_item_max_excerpt_tokens']}, "
            f"expected min(per_item, max_excerpt_tokens) = {model.per_item}",
            ("INT-30",),
        )
    if budget["max_items"] != model.max_items:
        fail(
            "budget-echo",
            ("S6-INPUT-05", "S6-OUT-08"),
            f"budget.max_items is {budget['max_items']}, expected {model.max_items}",
            ("INT-30",),
        )
    if view.used > model.max_tokens:
        fail(
            "within-budget",
            ("S6-TOK-04",),
            f"used_excerpt_tokens {view.used} > max_excerpt_tokens {model.max_tokens}",
        )
    if len(view.selected) > model.max_items:
        fail(
            "max-items",
            ("S6-INPUT-06", "S6-TOK-05"),
            f"{len(view.selected)} items selected, max_items is {model.max_items}",
        )
    running = 0
    for index, item in enumerate(view.selected):
        running += int(item["excerpt_tokens"])
        if running > model.max_tokens:
            fail(
                "within-budget",
                ("S6-TRUNC-11", "S6-TOK-04"),
                f"after selected[{index}] the excerpt tokens add up to {running} > "
                f"{model.max_tokens}",
            )
        _check_excerpt(model, index, item)


def _check_excerpt(model: Model, index: int, item: Mapping[str, Any]) -> None:
    excerpt: str = item["excerpt"]
    size = len(excerpt.encode("utf-8", "surrogatepass"))
    if size > model.per_item * 4 or int(item["excerpt_tokens"]) > model.per_item:
        fail(
            "per-item-cap",
            ("S6-TRUNC-04", "S6-TRUNC-05"),
            f"selected[{index}] excerpt is {size} bytes / {item['excerpt_tokens']} tokens, the "
            f"per-item cap is {model.per_item} tokens = {model.per_item * 4} bytes",
        )
    line = line_for(model, item)
    candidates = (
        [line]
        if line is not None
        else [x for x in model.lines_named(item["store_path"], item["memory_id"]) if x.valid]
    )
    if not candidates:
        fail(
            "excerpt-prefix",
            ("S6-TRUNC-06",),
            f"selected[{index}] ({item['memory_id']!r} in {item['store_path']!r}) matches no "
            "record of that store",
        )
    for candidate in candidates:
        stripped = readings.strip_ws(candidate.text)
        if stripped.startswith(excerpt):
            expected, _ = model.excerpt(candidate)
            if excerpt != expected:
                fail(
                    "excerpt-maximal",
                    ("S6-TRUNC-06", "S6-TRUNC-07"),
                    f"selected[{index}] excerpt is {len(excerpt)} code points; the longest "
                    f"prefix within {model.per_item * 4} bytes cut at a code-point boundary "
                    f"has {len(expected)}: got {show(excerpt, 120)}, expected "
                    f"{show(expected, 120)}",
                    ("INT-31",),
                )
            return
    text = candidates[0].text
    fail(
        "excerpt-prefix",
        ("S6-TRUNC-01", "S6-TRUNC-02", "S6-TRUNC-06"),
        f"selected[{index}] excerpt {show(excerpt, 120)} is not a prefix of the record's "
        f"White_Space-stripped text {show(readings.strip_ws(text), 120)}",
        ("INT-05", "INT-31"),
    )


# ------------------------------------------------------------------------------ accounting


def check_accounting(probe: Probe, case: Case) -> None:
    """Token arithmetic, and every record line exactly once in selected or dropped."""
    result, model = probe.run_with_model(case.scenario)
    view = as_view(result)
    total = 0
    for index, item in enumerate(view.selected):
        size = len(item["excerpt"].encode("utf-8", "surrogatepass"))
        if int(item["excerpt_tokens"]) != -(-size // 4):
            fail(
                "estimator",
                ("S6-TOK-01", "S6-TRUNC-08"),
                f"selected[{index}] excerpt is {size} UTF-8 bytes, so excerpt_tokens must be "
                f"ceil({size}/4) = {-(-size // 4)}, got {item['excerpt_tokens']}",
            )
        total += int(item["excerpt_tokens"])
    if view.used != total:
        fail(
            "used",
            ("S6-TOK-02",),
            f"used_excerpt_tokens is {view.used}, the selected excerpt_tokens sum to {total}",
        )
    remaining = view.budget["remaining_excerpt_tokens"]
    if remaining != max(0, model.max_tokens - view.used):
        fail(
            "remaining",
            ("S6-TOK-03",),
            f"remaining_excerpt_tokens is {remaining}, expected max(0, "
            f"{model.max_tokens} - {view.used}) = {max(0, model.max_tokens - view.used)}",
        )
    for index, item in enumerate(view.dropped):
        if item["reason"] not in REASONS:
            fail(
                "reasons",
                ("S6-OUT-20",),
                f"dropped[{index}] has reason {item['reason']!r}, not one of {list(REASONS)}",
                ("INT-27",),
            )
    seen = Counter((item["store_path"], item["memory_id"]) for item in entries(view))
    wanted = Counter((line.store_path, line.memory_id) for line in model.lines)
    if seen != wanted:
        missing, extra = wanted - seen, seen - wanted
        fail(
            "exactly-once",
            ("S6-REC-11", "S6-TRUNC-12", "S6-TRUST-08"),
            "selected + dropped must list every record line exactly once (INT-28); "
            f"missing {show(sorted(missing.elements()))}, unexpected "
            f"{show(sorted(extra.elements()))}",
            ("INT-14", "INT-19", "INT-28"),
        )
    by_reason: dict[str, Counter[tuple[str, str]]] = {reason: Counter() for reason in REASONS}
    for item in view.dropped:
        if item["reason"] in by_reason:
            by_reason[item["reason"]][(item["store_path"], item["memory_id"])] += 1
    invalid = Counter((line.store_path, line.memory_id) for line in model.lines if not line.valid)
    if by_reason["invalid_record_schema"] != invalid:
        fail(
            "invalid-lines",
            ("S6-REC-10", "S6-REC-11"),
            "the lines dropped as invalid_record_schema must be exactly the invalid lines; "
            f"expected {show(sorted(invalid.elements()))}, got "
            f"{show(sorted(by_reason['invalid_record_schema'].elements()))}",
            ("INT-15", "INT-19", "INT-22"),
        )
    denied = Counter((line.store_path, line.memory_id) for line in model.lines if line.denied)
    if by_reason["trust_denied"] != denied:
        fail(
            "trust-denied",
            ("S6-TRUST-03", "S6-TRUST-07", "S6-TRUST-08"),
            "the lines dropped as trust_denied must be exactly the explicitly deny-listed ones; "
            f"expected {show(sorted(denied.elements()))}, got "
            f"{show(sorted(by_reason['trust_denied'].elements()))}",
            ("INT-38", "INT-39"),
        )
    order = [(line.store_path, line.memory_id) for line in model.lines]
    dropped = [(item["store_path"], item["memory_id"]) for item in view.dropped]
    if not is_subsequence(dropped, order):
        # INT-28 pins read order; the spec lists dropped entries but says nothing of their order
        pinned_fail(
            "read-order",
            ("S6-READ-05", "S6-READ-06"),
            "dropped must list lines in read order (stores in sorted order, lines in file "
            f"order); got {show(dropped)}",
            ("INT-28",),
        )


# ------------------------------------------------------------------------------ order

ORDER_CLAUSES = ("S6-ORDER-01", "S6-ORDER-02", "S6-ORDER-03", "S6-ORDER-04", "S6-ORDER-05")


def _order_key(model: Model, item: Mapping[str, Any]) -> tuple[Any, ...]:
    line = line_for(model, item)
    instant = line.instant if line is not None else None
    ts_key = (0, -instant[0], -instant[1]) if instant else (1, 0, 0)
    return (
        -float(item["score"]),
        ts_key,
        item["store_path"],
        item["memory_id"],
        item["record_hash"],
    )


def check_order(probe: Probe, case: Case) -> None:
    """selected is sorted by the five keys and is exactly what the stop rule selects."""
    result, model = probe.run_with_model(case.scenario)
    view = as_view(result)
    for index in range(1, len(view.selected)):
        before = _order_key(model, view.selected[index - 1])
        after = _order_key(model, view.selected[index])
        for position, (a, b) in enumerate(zip(before, after, strict=True)):
            if a < b:
                break
            if a > b:
                names = ("score", "ts_utc", "store_path", "memory_id", "record_hash")
                fail(
                    "sorted",
                    (ORDER_CLAUSES[position], "S6-TRUNC-09"),
                    f"selected[{index - 1}] and selected[{index}] are out of order on tie-break "
                    f"key {position + 1} ({names[position]}): "
                    f"{show(view.selected[index - 1], 160)} before "
                    f"{show(view.selected[index], 160)}",
                    ("INT-33",),
                )
    expected, fates = model.selection()
    got = [(item["store_path"], item["record_hash"]) for item in view.selected]
    want = [line.identity for line in expected]
    if Counter(got) != Counter(want):
        ranked = model.ranked()
        k = len(got)
        prefix = Counter(line.identity for line in ranked[:k])
        if Counter(got) == prefix:
            which = "stopped too early" if k < len(want) else "went on past the stop"
            fail(
                "stop-rule",
                ("S6-TOK-04", "S6-TOK-05", "S6-TRUNC-11"),
                f"selection {which}: {k} selected, the stop rule selects {len(want)} (budget "
                f"{model.max_tokens}, per-item {model.per_item}, max_items {model.max_items})",
                ("INT-26", "INT-27"),
            )
        fail(
            "stop-rule",
            ("S6-TRUNC-09", "S6-TOK-04", "S6-TOK-05"),
            "selected must be the first candidates in rank order up to the stop (INT-26: a "
            f"later candidate never displaces an earlier one); expected {show(want, 400)}, got "
            f"{show(got, 400)}",
            ("INT-26", "INT-27", "INT-33"),
        )
    # The reason of each line the stop rule left out, matched by identity (store_path,
    # memory_id, record_hash), not by position: the order of dropped is INT-28's, not this
    # check's business.
    stops = ("budget_exhausted", "max_items_reached")
    wanted: Counter[tuple[str, str, str, str]] = Counter()
    for line in model.lines:
        if line.read_index in fates and fates[line.read_index] in stops:
            wanted[(line.store_path, line.memory_id, line.record_hash, fates[line.read_index])] += 1
    given_reasons = Counter(
        (item["store_path"], item["memory_id"], item["record_hash"], item["reason"])
        for item in view.dropped
    )
    for key, count in wanted.items():
        if given_reasons[key] >= count:
            continue
        store_path, memory_id, record_hash, reason = key
        given = sorted(
            item["reason"]
            for item in view.dropped
            if (item["store_path"], item["memory_id"], item["record_hash"])
            == (store_path, memory_id, record_hash)
        )
        if given:
            fail(
                "stop-reason",
                ("S6-TRUNC-12", "S6-TOK-05"),
                f"{memory_id!r} in {store_path!r} is dropped as {', '.join(given)}; the stop "
                f"rule says {reason!r}",
                ("INT-26", "INT-27"),
            )


# ------------------------------------------------------------------------------ scores


def check_scores(probe: Probe, case: Case) -> None:
    """Every selected score equals base + tag_bonus + recency_bonus recomputed exactly."""
    result, model = probe.run_with_model(case.scenario)
    view = as_view(result)
    for index, item in enumerate(view.selected):
        line = line_for(model, item)
        if line is None:
            continue  # the hashes family reports entries that match no record
        expected = model.score(line)
        actual = item["score"]
        if float(actual) == expected:
            continue
        base, tag_bonus, bonus = model.score_parts(line)
        detail = (
            f"selected[{index}] ({line.memory_id!r}) has score {actual!r}, expected "
            f"{expected!r} = ({base} + {tag_bonus}) + {bonus!r} with terms {list(model.terms)}"
        )
        delta = float(actual) - expected
        if bonus and abs(delta) <= 8 * math.ulp(max(abs(expected), 1.0)):
            exponent = _exponent(model, line)
            platform = 0.5**exponent
            hint = (
                f"; this platform's pow gives {platform!r}, which is not correctly rounded"
                if platform != pow_half(exponent)
                else ""
            )
            ulps = round(abs(delta) / math.ulp(expected)) if expected else 0
            fail(
                "recency",
                ("S6-SCORE-16", "S6-SCORE-17", "S6-SCORE-18"),
                f"{detail}: {ulps} ulp off; the recency weight must be the correctly rounded "
                f"2**-{exponent!r} = {pow_half(exponent)!r}{hint}",
                ("INT-04", "INT-35"),
            )
        if bonus and abs(delta) < 1.0:
            fail(
                "recency",
                ("S6-SCORE-13", "S6-SCORE-14", "S6-SCORE-16", "S6-SCORE-17"),
                detail,
                ("INT-35", "INT-36"),
            )
        if delta % 1.0 == 0.5 or (tag_bonus and abs(delta) == tag_bonus):
            fail("tag-bonus", ("S6-SCORE-10", "S6-SCORE-11"), detail, ("INT-10", "INT-25"))
        fail(
            "formula",
            ("S6-SCORE-07", "S6-SCORE-08", "S6-SCORE-18"),
            detail,
            ("INT-04", "INT-08", "INT-09", "INT-10"),
        )


def _exponent(model: Model, line: ModelLine) -> float:
    assert model.now is not None
    assert line.instant is not None
    elapsed = (model.now[0] - line.instant[0]) * 10**9 + (model.now[1] - line.instant[1])
    return float(Fraction(elapsed, 86_400 * 10**9)) / model.half_life


# ------------------------------------------------------------------------------ hashes


def check_hashes(probe: Probe, case: Case) -> None:
    """query_hash, every record_hash and package_hash equal their independent recomputation."""
    result, model = probe.run_with_model(case.scenario)
    view = as_view(result)
    query_hash = view.package["query"]["query_hash"]
    if query_hash != model.query_hash:
        fail(
            "query-hash",
            ("S6-HASH-04", "S6-HASH-05", "S6-HASH-06", "S6-HASH-07"),
            f"query_hash is {query_hash!r}; SHA-256 of the normalized query "
            f"{show(readings.normalize_text(model.query))} is {model.query_hash!r}",
            ("INT-05", "INT-06", "INT-11"),
        )
    for where, item in [
        *((f"selected[{i}]", x) for i, x in enumerate(view.selected)),
        *((f"dropped[{i}]", x) for i, x in enumerate(view.dropped)),
    ]:
        if not is_hex64(item["record_hash"]):
            fail(
                "record-hash",
                ("S6-HASH-03", "S6-READ-14"),
                f"{where} record_hash {item['record_hash']!r} is not lowercase SHA-256 hex",
            )
        if model.lines_for(item["store_path"], item["record_hash"]):
            continue
        named = model.lines_named(item["store_path"], item["memory_id"])
        if not named:
            continue  # the accounting family reports entries that match no line
        line = named[0]
        if line.valid:
            preimage = canonical(dict(line.normalized)).decode("utf-8")
            fail(
                "record-hash",
                ("S6-HASH-01", "S6-HASH-02", "S6-READ-14", "S6-OUT-24"),
                f"{where} ({item['memory_id']!r} in {item['store_path']!r}) has record_hash "
                f"{item['record_hash']!r}; SHA-256 of the canonical normalized record "
                f"{show(preimage, 240)} is {record_hash(line.normalized)!r}",
                ("INT-01", "INT-02", "INT-17", "INT-21", "INT-25"),
            )
        fail(
            "record-hash",
            ("S6-HASH-01", "S6-REC-11"),
            f"{where} (an invalid line of {item['store_path']!r}) has record_hash "
            f"{item['record_hash']!r}; INT-19 says SHA-256 of the raw line bytes "
            f"{line.raw[:80]!r} = {sha256_hex(line.raw)!r}",
            ("INT-14", "INT-19"),
        )
    try:
        expected = package_hash(view.package)
    except Exception as exc:
        fail("package-hash", ("S6-HASH-08",), f"the package cannot be canonicalized: {exc}")
    if view.package["package_hash"] != expected:
        fail(
            "package-hash",
            ("S6-HASH-08", "S6-HASH-09", "S6-HASH-10", "S6-HASH-11", "S6-OUT-25"),
            f"package_hash is {view.package['package_hash']!r}; SHA-256 of the RFC 8785 "
            f"serialization of the package without package_hash is {expected!r}",
            ("INT-01", "INT-03"),
        )
