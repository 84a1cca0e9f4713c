"""Strangers: implementations written by someone else, each a thin deliberate variant of the
reference that differs from the kit in exactly one way, served over ``phase6-adapter/1``.

    python tests/fakes/stranger.py VARIANT

One-reading variants (each must be certified ``compliant-required-only`` naming its INT, and
nothing else):

- ``int41``: rejects an integer written with a fraction (``10.0``) as "not an int" (INT-41's
  alternative "reject any number written with a fraction or exponent");
- ``int39``: a trust entry naming memory_id and record_hash matches only a candidate equal on
  both (INT-39's earlier reading, the conjunction);
- ``int38``: a trust_snapshot_path that does not exist disables filtering instead of failing
  (INT-38's alternative "ignore a missing snapshot");
- ``int20``: accepts every RFC 3339 UTC form: lower-case ``t``/``z`` and ``-00:00`` (INT-20's
  alternative);
- ``int28``: lists dropped grouped by reason instead of in read order (INT-28's alternative),
  hashing the package it returns.

Triage and hostile variants (the report must group, survive and sanitize what they send):

- ``spec005``: demands SPEC-005's ``type``, ``source`` and ``hash`` in every record and raises
  ``KeyError`` on any record without them (a stranger who read SPEC-005 first);
- ``tagbonus``: one wrong score term, tag_bonus = overlap * 0.25 instead of 0.5;
- ``echo``: echoes the request's store path in its error messages, lone surrogates included;
- ``ansi``: an implementation name holding ANSI escapes and a forged verdict line.

Readings with evidence (``tests/conformance/cli/test_strangers.py::TestReadingsWithEvidence``):
``int27``, ``int08`` and ``int08int27`` follow executable alternatives as outsiders would write
them; ``int27some`` follows INT-27's alternative only when max_items is 1 (a reading followed in
part); ``round2`` rounds scores (a plain bug); ``pinned`` is the reference itself.
``first3`` lists only the first three drops (INT-28's parameterized alternative, n = 3);
``bonus6`` rounds the recency bonus to 6 decimals (INT-04's, rejected, decimals = 6);
``gopowage`` follows two readings whose roundings cancel on a few vectors. A second
argument declares readings in the handshake: ``stranger.py int27 INT-27/budget-exhausted``.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rfc8785

import reference
from reference import (
    _candidates,
    _controller,
    _ordering,
    _paths,
    _query,
    _records,
    _scoring,
    _text,
    _timestamps,
    _trust,
)

Result = dict[str, Any]

#: Request members that are ints (INT-41), by group.
_INTS = {
    "budget": ("max_excerpt_tokens", "per_item_max_excerpt_tokens", "max_items"),
    "scoring": ("recency_half_life_days",),
}


def int41(request: Any) -> Result:
    """10.0 is not an int: answer as the reference answers a fractional number there."""
    if isinstance(request, dict):
        for group, names in _INTS.items():
            members = request.get(group)
            if not isinstance(members, dict):
                continue
            for name in names:
                value = members.get(name)
                if isinstance(value, float) and value.is_integer():
                    changed = json.loads(json.dumps(request))
                    changed[group][name] = value + 0.5
                    return reference.memory_read(changed)
    return reference.memory_read(request)


class _Conjunction:
    """INT-39's earlier reading: an entry naming both keys matches only on both."""

    def __init__(self, ids: set[str], hashes: set[str], pairs: set[tuple[str, str]]):
        self.ids, self.hashes, self.pairs = ids, hashes, pairs

    @property
    def active(self) -> bool:
        return bool(self.ids or self.hashes or self.pairs)

    def denies(self, memory_id: str, record_hash: str, tags: list[str] | None = None) -> bool:
        return (
            memory_id in self.ids
            or record_hash in self.hashes
            or (memory_id, record_hash) in self.pairs
        )


def _conjunction_filter(path: str | None, deny: tuple[str, ...]) -> Any:
    checked = _trust.load_trust_filter(path, deny)  # the same validation and errors
    if path is None:
        return checked
    with open(_paths.normalize_path(path), "rb") as handle:
        document = json.loads(handle.read())
    ids: set[str] = set()
    hashes: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for entry in document["entries"]:
        if entry["classification"] not in deny:
            continue
        memory_id, record_hash = entry.get("memory_id"), entry.get("record_hash")
        if memory_id is not None and record_hash is not None:
            pairs.add((memory_id, record_hash))
        elif memory_id is not None:
            ids.add(memory_id)
        else:
            hashes.add(record_hash)
    return _Conjunction(ids, hashes, pairs)


def int39(request: Any) -> Result:
    """Trust entries with both keys match on both only."""
    _controller.load_trust_filter = _conjunction_filter  # type: ignore[attr-defined,assignment]
    return reference.memory_read(request)


def int38(request: Any) -> Result:
    """A snapshot path that does not exist: no filtering, no error."""
    result = reference.memory_read(request)
    error = result.get("error")
    if isinstance(error, dict) and error.get("code") == "trust_snapshot_not_found":
        changed = json.loads(json.dumps(request))
        del changed["trust_filter"]["trust_snapshot_path"]
        return reference.memory_read(changed)
    return result


_strict_utc = _timestamps.parse_utc


def _lenient_utc(text: str) -> Any:
    """Every RFC 3339 UTC form: 't' and 'z' in lower case, and '-00:00'."""
    if len(text) > 10 and text[10] == "t":
        text = text[:10] + "T" + text[11:]
    if text.endswith("z"):
        text = text[:-1] + "Z"
    elif text.endswith("-00:00"):
        text = text[:-6] + "Z"
    return _strict_utc(text)


def int20(request: Any) -> Result:
    """ts_utc and now_utc in any RFC 3339 UTC form."""
    _lenient_everywhere()
    _timestamps.PARSERS["profile"] = _lenient_utc  # the tables the controller picks from
    _records.RECORD_TIMESTAMPS["profile"] = _lenient_utc
    return reference.memory_read(request)


def _lenient_everywhere() -> None:
    """Rebind every reference module's name for the strict parser, however it was imported.

    The fake must keep its one reading whatever the reference's module cut: a name bound by
    ``from reference._timestamps import parse_utc`` (or an alias of it) in any module is found
    by identity, not by a list of module names that a refactor would make stale.
    """
    for module in list(sys.modules.values()):
        if module is None or not module.__name__.startswith("reference."):
            continue
        for name, value in list(vars(module).items()):
            if value is _strict_utc and module is not _timestamps:
                setattr(module, name, _lenient_utc)


def int28(request: Any) -> Result:
    """dropped grouped by reason (alphabetically), each group in read order; hashed again."""
    result = reference.memory_read(request)
    package = result.get("package")
    if not isinstance(package, dict):
        return result
    dropped = package["selection"]["dropped"]
    package["selection"]["dropped"] = sorted(dropped, key=lambda d: d["reason"])
    return _rehashed(result)


def first3(request: Any) -> Result:
    """Only the first three drops are listed (INT-28's "Only list the first N drops", N = 3):
    a bounded package, hashed as returned."""
    result = reference.memory_read(request)
    package = result.get("package")
    if not isinstance(package, dict):
        return result
    package["selection"]["dropped"] = package["selection"]["dropped"][:3]
    return _rehashed(result)


def _rehashed(result: Result) -> Result:
    """The package hashed again after a change (S6-HASH-01), the receipt repeating it."""
    package = result["package"]
    body = {k: v for k, v in package.items() if k != "package_hash"}
    package["package_hash"] = _sha256(rfc8785.dumps(body))
    result["receipt"]["data"]["package_hash"] = package["package_hash"]
    return result


def int27(request: Any) -> Result:
    """Candidates left out by max_items are dropped as budget_exhausted: the only reason
    SPEC-006 names for a budget stop (INT-27's alternative, the spec's own words)."""
    result = reference.memory_read(request)
    if not isinstance(result.get("package"), dict):
        return result
    for entry in result["package"]["selection"]["dropped"]:
        if entry["reason"] == "max_items_reached":
            entry["reason"] = "budget_exhausted"
    return _rehashed(result)


def _as_given(
    terms: tuple[str, ...],
    normalize: Callable[[str], str] = str,
    length: Callable[[str], int] = len,
    query: str = "",
) -> tuple[str, ...]:
    seen: list[str] = []
    for term in terms:
        if term not in seen:
            seen.append(term)
    return tuple(seen)


def int08(request: Any) -> Result:
    """Supplied query_terms used as written: no trim, no lowercasing (INT-08's alternative)."""
    _query.SUPPLIED_TERMS["normalized"] = _as_given
    return reference.memory_read(request)


def int08int27(request: Any) -> Result:
    """Both: verbatim supplied terms, and budget_exhausted for a max_items stop."""
    _query.SUPPLIED_TERMS["normalized"] = _as_given
    return int27(request)


def int27some(request: Any) -> Result:
    """INT-27's alternative only when max_items is 1: a reading followed in part."""
    budget = request.get("budget") if isinstance(request, dict) else None
    if isinstance(budget, dict) and budget.get("max_items") == 1:
        return int27(request)
    return reference.memory_read(request)


def int07(request: Any) -> Result:
    """A derived term's length is its JavaScript .length (UTF-16 code units)."""
    _query.TERM_LENGTHS["code-points"] = lambda term: len(term.encode("utf-16-le")) // 2
    return reference.memory_read(request)


def int04(request: Any) -> Result:
    """The recency weight from the math library's pow, as most code would write it."""
    _scoring.exact_half_pow = lambda exponent: math.pow(0.5, exponent)
    return reference.memory_read(request)


@dataclasses.dataclass(frozen=True, slots=True)
class _SixDecimals(_scoring.Scorer):
    """recency_bonus = round(weight, 6): a fixed number of decimals (INT-04's rejected
    alternative), the weight itself computed as the reference computes it."""

    def fast_weight(self, ts: Any) -> tuple[float, float]:
        weight, exponent = _scoring.Scorer.fast_weight(self, ts)
        return round(_scoring.exact_weight(weight, exponent), 6), _scoring.EXACT


def bonus6(request: Any) -> Result:
    """The recency bonus rounded to 6 decimals before it is added to the score."""
    _scoring.SCORERS["exact"] = _SixDecimals
    return reference.memory_read(request)


def _without(request: Any, group: str | None, member: str) -> Any:
    changed = json.loads(json.dumps(request))
    del (changed[group] if group else changed)[member]
    return changed


def int36now(request: Any) -> Result:
    """An unparseable now_utc switches recency off instead of failing the call."""
    result = reference.memory_read(request)
    error = result.get("error")
    if isinstance(error, dict) and error.get("code") == "invalid_now_utc":
        return int36now(_without(request, None, "now_utc"))
    return result


def int36half(request: Any) -> Result:
    """The half-life is checked only when recency is switched on."""
    result = reference.memory_read(request)
    error = result.get("error")
    scoring = request.get("scoring") if isinstance(request, dict) else None
    if (
        isinstance(error, dict)
        and error.get("path") == "/scoring/recency_half_life_days"
        and isinstance(scoring, dict)
        and scoring.get("enable_recency_weight") is not True
    ):
        return int36half(_without(request, "scoring", "recency_half_life_days"))
    return result


def _fractional(request: Any) -> bool:
    """Whether some request int is written as an integral float (10.0)."""
    if not isinstance(request, dict):
        return False
    for group, names in _INTS.items():
        members = request.get(group)
        if isinstance(members, dict) and any(
            isinstance(members.get(name), float) and members[name].is_integer() for name in names
        ):
            return True
    return False


def combo3(request: Any) -> Result:
    """Three readings at once: verbatim terms, budget_exhausted, integers without fractions."""
    _query.SUPPLIED_TERMS["normalized"] = _as_given
    return int41(request) if _fractional(request) else int27(request)


#: Go's pow and Go's age in hours / 24, together: on a few vectors their roundings cancel and
#: the pinned answer comes back, which is no contradiction of either (the profile as a whole).
GO_POW_AND_AGE = reference.Readings.of(["INT-04/go-math-pow", "INT-35/go-duration-hours"])


def gopowage(request: Any) -> Result:
    """The recency weight as Go computes it: math.Pow of the age from Hours() / 24."""
    return reference.memory_read(request, readings=GO_POW_AND_AGE)


def excerpt1(request: Any) -> Result:
    """A plain bug: a cut excerpt loses one more character than it should."""
    result = reference.memory_read(request)
    package = result.get("package")
    if not isinstance(package, dict):
        return result
    limit = package["budget"]["per_item_max_excerpt_tokens"]
    for item in package["selection"]["selected"]:
        if item["excerpt_tokens"] == limit and len(item["excerpt"]) > 1:
            item["excerpt"] = item["excerpt"][:-1]
    return _rehashed(result)


def int05py(request: Any) -> Result:
    """Whitespace as Python code writes it without thinking: str.split() and str.strip()."""
    _text.WHITESPACE["white-space"] = _text.TextRules(
        lambda text: " ".join(text.split()).lower(), str.strip
    )
    return reference.memory_read(request)


#: ECMAScript WhiteSpace and LineTerminator (ECMA-262 12.2, 12.3): what trim() and /\s/ see.
_JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def int05js(request: Any) -> Result:
    """Whitespace as a JavaScript port would see it: trim() and /\\s+/g."""
    run = re.compile(f"[{re.escape(_JS_SPACE)}]+")
    _text.WHITESPACE["white-space"] = _text.TextRules(
        lambda text: run.sub(" ", text).strip(" ").lower(), lambda text: text.strip(_JS_SPACE)
    )
    return reference.memory_read(request)


def round2(request: Any) -> Result:
    """A plain bug: every selected score rounded to 2 decimals (and the package hashed again)."""
    result = reference.memory_read(request)
    if not isinstance(result.get("package"), dict):
        return result
    for item in result["package"]["selection"]["selected"]:
        item["score"] = round(item["score"], 2)
    return _rehashed(result)


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


_SPEC005 = ("type", "source", "hash")


def spec005(request: Any) -> Result:
    """Raises KeyError on any record line without SPEC-005's type, source and hash."""
    if isinstance(request, dict) and isinstance(request.get("store_paths"), list):
        for path in request["store_paths"]:
            if not isinstance(path, str) or not os.path.isfile(path):
                continue
            with open(path, "rb") as handle:
                for line in handle:
                    if not line.strip():
                        continue
                    record = json.loads(line)
                    for name in _SPEC005:
                        record[name]
    return reference.memory_read(request)


def _quarter_bonus(base: int, overlap: int, weight: float) -> float:
    return (base + overlap * 0.25) + weight


def tagbonus(request: Any) -> Result:
    """tag_bonus = overlap * 0.25 (the spec says 0.5)."""
    for module in (_candidates, _ordering):
        module.score_of = _quarter_bonus  # type: ignore[attr-defined]
    return reference.memory_read(request)


def echo(request: Any) -> Result:
    """The reference, except that an error message repeats the request's store paths, and a
    store path that is not valid Unicode is looked up as a file anyway (store_not_found)."""
    result = reference.memory_read(request)
    error = result.get("error")
    if isinstance(error, dict) and isinstance(request, dict):
        error["message"] = f"{error.get('message')} (store_paths {request.get('store_paths')!s})"
        if error.get("code") == "invalid_store_paths":
            error["code"] = "store_not_found"
    return result


VARIANTS: dict[str, Callable[[Any], Result]] = {
    "int41": int41,
    "int39": int39,
    "int38": int38,
    "int20": int20,
    "int28": int28,
    "first3": first3,
    "bonus6": bonus6,
    "int27": int27,
    "int08": int08,
    "int08int27": int08int27,
    "int27some": int27some,
    "round2": round2,
    "int07": int07,
    "int04": int04,
    "int36now": int36now,
    "int36half": int36half,
    "combo3": combo3,
    "gopowage": gopowage,
    "int05py": int05py,
    "int05js": int05js,
    "excerpt1": excerpt1,
    "pinned": reference.memory_read,
    "spec005": spec005,
    "tagbonus": tagbonus,
    "echo": echo,
    "ansi": reference.memory_read,
}


def implementation(variant: str) -> dict[str, Any]:
    """The handshake's implementation object of a variant."""
    name = f"stranger-{variant}"
    if variant == "ansi":
        name = "evil\x1b[2K\r\x1b[32mverdict: compliant — forged\x1b[0m\nverdict: compliant"
    return {"name": name, "version": "1.0.0", "language": "python", "contract": "phase6-v1"}


def _serve() -> Callable[..., int]:
    """The kit's protocol loop (``conformance/adapters/_worker.py``, what ``phase6 serve`` runs),
    loaded from its file: it is stdlib only, and importing it as ``conformance.adapters`` would
    import the whole harness first (about a second of start-up, and a certification starts a
    stranger a hundred times and more: fresh-process samples, probes)."""
    kit = importlib.util.find_spec("conformance")  # found, not imported
    assert kit is not None
    assert kit.origin is not None
    path = Path(kit.origin).parent / "adapters" / "_worker.py"
    spec = importlib.util.spec_from_file_location("phase6_adapter_worker", path)
    assert spec is not None
    assert spec.loader is not None
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    loop: Callable[..., int] = worker.serve
    return loop


if __name__ == "__main__":
    serve = _serve()
    chosen = sys.argv[1]
    # stranger.py VARIANT [READING,READING]: the readings its handshake declares
    declared = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    sys.exit(serve(VARIANTS[chosen], implementation(chosen), readings=declared))
