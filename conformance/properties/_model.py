"""An independent model of one scenario: every store line, and what SPEC-006 says about it.

The properties need, for each line of the scenario's stores, whether it is a record, whether it
is valid, its normalized record, record_hash, score, excerpt and rank. Parsing follows the
grammar the interpretation register pins and is shared with the kit's oracle
(:mod:`conformance.readings`: White_Space INT-05, paths INT-12, lines INT-14, JSON rules
INT-15..INT-18, records INT-19..INT-22, trust snapshots INT-38/39). The arithmetic the
properties judge is recomputed here from the spec text, independently of both the oracle and
the reference:

- record_hash and package_hash: RFC 8785 via the ``rfc8785`` package, then ``hashlib``;
- scores: ``score = base + tag_bonus + recency_bonus`` with the recency weight computed as the
  correctly rounded double of 2**-exponent (60-digit ``decimal``, one rounding: INT-04);
- excerpts: strip White_Space, cut at ``per_item * 4`` UTF-8 bytes, back to a code-point
  boundary (S6-TRUNC-02..07);
- rank: the five tie-break keys (S6-ORDER-01..05), then the stop rule (INT-26, INT-27).
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from conformance import readings
from conformance.strategies import Scenario

__all__ = [
    "NS_PER_DAY",
    "REASONS",
    "KitError",
    "Model",
    "ModelLine",
    "build_model",
    "canonical",
    "package_hash",
    "pow_half",
    "record_hash",
    "sha256_hex",
]

#: INT-27: the closed set of drop reasons.
REASONS = ("invalid_record_schema", "trust_denied", "budget_exhausted", "max_items_reached")
NS_PER_DAY = 86_400 * 10**9
_HASHED_FIELDS = ("memory_id", "refs", "tags", "text", "ts_utc")


class KitError(Exception):
    """The kit cannot model a generated scenario (a bug in the kit, never a verdict)."""


#: INT-01's canonical form and the hex digest are shared by construction (conformance.readings):
#: a model that canonicalized differently would test itself, not the implementation.
canonical = readings.canonical
sha256_hex = readings.sha256_hex


def record_hash(normalized: Mapping[str, Any]) -> str:
    """INT-02: SHA-256 of JCS({memory_id, refs, tags, text, ts_utc?}) of the normalized record."""
    return sha256_hex(canonical({k: normalized[k] for k in _HASHED_FIELDS if k in normalized}))


def package_hash(package: Mapping[str, Any]) -> str:
    """INT-03: SHA-256 of JCS(the package without its package_hash member)."""
    return sha256_hex(canonical({k: v for k, v in package.items() if k != "package_hash"}))


def pow_half(exponent: float) -> float:
    """INT-04: ``0.5 ** exponent`` as the correctly rounded double of the exact 2**-exponent.

    60 significant digits, then one rounding to binary64 (``float(Decimal)`` rounds correctly);
    platform ``pow`` is not correctly rounded (glibc, V8), which is why this exists.
    """
    with decimal.localcontext() as context:
        context.prec = 60
        context.Emin = -999_999
        return float(decimal.Decimal(2) ** -decimal.Decimal(exponent))


@dataclass(frozen=True)
class ModelLine:
    """One record line (INT-14: blank lines are not records), in read order."""

    read_index: int
    store_path: str
    raw: bytes
    valid: bool
    memory_id: str
    record_hash: str
    text: str = ""
    tags: tuple[str, ...] = ()
    ts: str | None = None
    instant: tuple[int, int] | None = None
    denied: bool = False
    normalized: Mapping[str, Any] = field(default_factory=dict)

    @property
    def identity(self) -> tuple[str, str]:
        """(store_path, record_hash): how output entries are matched to lines."""
        return self.store_path, self.record_hash

    @property
    def eligible(self) -> bool:
        """A valid, not trust-denied candidate: it competes for selection."""
        return self.valid and not self.denied


@dataclass(frozen=True)
class Model:
    """The spec's view of one scenario (a valid request: the result must be a package)."""

    query: str
    terms: tuple[str, ...]
    store_paths: tuple[str, ...]
    lines: tuple[ModelLine, ...]
    max_tokens: int
    per_item: int
    max_items: int
    tag_overlap: bool
    recency: bool
    now: tuple[int, int] | None
    half_life: int
    snapshot: bool
    _by_identity: Mapping[tuple[str, str], tuple[ModelLine, ...]] = field(repr=False)

    # -- hashing and text

    @property
    def query_hash(self) -> str:
        """S6-HASH-04..07 / INT-11: SHA-256 of the trimmed, collapsed, lowercased query."""
        return sha256_hex(readings.normalize_text(self.query).encode("utf-8"))

    def lines_for(self, store_path: str, record_hash: str) -> tuple[ModelLine, ...]:
        """The lines an output entry with this store_path and record_hash stands for."""
        return self._by_identity.get((store_path, record_hash), ())

    def lines_named(self, store_path: str, memory_id: str) -> tuple[ModelLine, ...]:
        """The lines of ``store_path`` whose (dropped-entry) memory_id is ``memory_id``."""
        return tuple(
            line
            for line in self.lines
            if line.store_path == store_path and line.memory_id == memory_id
        )

    # -- scoring (SCORING)

    def recency_bonus(self, line: ModelLine) -> float:
        """'weight = 0.5 ** (age_days / recency_half_life_days)', 'bounded [0,1]' (INT-35)."""
        if not self.recency or self.now is None or line.instant is None:
            return 0.0  # 'Only allowed if now_utc is provided and candidate ts_utc is valid.'
        elapsed_ns = (self.now[0] - line.instant[0]) * 10**9 + (self.now[1] - line.instant[1])
        age_days = float(Fraction(elapsed_ns, NS_PER_DAY))  # exact, rounded once (INT-35)
        exponent = age_days / self.half_life  # one rounding (INT-04)
        if exponent <= 0:
            return 1.0  # a future (or same-instant) ts: weight >= 1, clamped (INT-35)
        return min(1.0, max(0.0, pow_half(exponent)))

    def score_parts(self, line: ModelLine) -> tuple[int, float, float]:
        """(base, tag_bonus, recency_bonus) for a valid line."""
        text = readings.normalize_text(line.text)  # INT-09: 'normalized candidate text'
        base = sum(1 for term in self.terms if term in text)  # INT-10: terms, not occurrences
        tag_bonus = 0.0
        if self.tag_overlap:  # 'overlap = count of query_terms that exactly match any tag'
            tag_bonus = sum(1 for term in self.terms if term in line.tags) * 0.5
        return base, tag_bonus, self.recency_bonus(line)

    def score(self, line: ModelLine) -> float:
        """'score = base + tag_bonus + recency_bonus', left to right in doubles (INT-04)."""
        base, tag_bonus, bonus = self.score_parts(line)
        return (float(base) + tag_bonus) + bonus

    # -- truncation

    def excerpt(self, line: ModelLine) -> tuple[str, int]:
        """S6-TRUNC-02..07: strip White_Space, cut to per_item * 4 bytes at a boundary."""
        data = readings.strip_ws(line.text).encode("utf-8")
        max_bytes = self.per_item * 4
        if len(data) > max_bytes:
            cut = max_bytes
            while cut > 0 and (data[cut] & 0xC0) == 0x80:  # a continuation byte
                cut -= 1
            data = data[:cut]
        return data.decode("utf-8"), -(-len(data) // 4)

    # -- ordering and selection

    def rank_key(self, line: ModelLine) -> tuple[Any, ...]:
        """S6-ORDER-01..05 (INT-33: code-point string order), then read order."""
        ts_key = (0, -line.instant[0], -line.instant[1]) if line.instant else (1, 0, 0)
        return (
            -self.score(line),
            ts_key,
            line.store_path,
            line.memory_id,
            line.record_hash,
            line.read_index,
        )

    def ranked(self) -> list[ModelLine]:
        """Eligible candidates in rank order ('Iterate candidates in sorted order')."""
        return sorted((line for line in self.lines if line.eligible), key=self.rank_key)

    def selection(self) -> tuple[list[ModelLine], dict[int, str]]:
        """(selected lines, read_index -> drop reason) under the stop rule.

        'Selection MUST stop when: used_excerpt_tokens would exceed max_excerpt_tokens, OR
        selected count reaches max_items' (INT-26: stop, do not skip; INT-27: max_items first).
        """
        fates: dict[int, str] = {}
        for line in self.lines:
            if not line.valid:
                fates[line.read_index] = "invalid_record_schema"
            elif line.denied:
                fates[line.read_index] = "trust_denied"
        selected: list[ModelLine] = []
        used = 0
        stop: str | None = None
        for line in self.ranked():
            if stop is None and len(selected) >= self.max_items:
                stop = "max_items_reached"
            if stop is None:
                tokens = self.excerpt(line)[1]
                if used + tokens <= self.max_tokens:
                    used += tokens
                    selected.append(line)
                    continue
                stop = "budget_exhausted"
            fates[line.read_index] = stop
        return selected, fates


def _lines_of(
    store_path: str,
    data: bytes,
    start: int,
    entries: list[dict[str, Any]] | None,
    deny: Sequence[str],
) -> list[ModelLine]:
    out: list[ModelLine] = []
    for raw in readings.split_lines(data):  # INT-14: LF only, CRLF tolerated
        if readings.is_blank(raw):
            continue  # INT-14: 'skipped silently: it is not a record'
        parsed = readings.read_line(raw)
        index = start + len(out)
        if "invalid" in parsed:  # INT-19: memory_id as far as known, hash of the raw bytes
            out.append(ModelLine(index, store_path, raw, False, parsed["invalid"], sha256_hex(raw)))
            continue
        normalized = {k: parsed[k] for k in _HASHED_FIELDS if k in parsed}
        digest = record_hash(normalized)
        if digest != parsed["record_hash"]:
            raise KitError(f"record_hash models disagree on {raw!r}")
        denied = entries is not None and readings.is_denied(parsed, entries, list(deny))
        out.append(
            ModelLine(
                read_index=index,
                store_path=store_path,
                raw=raw,
                valid=True,
                memory_id=parsed["memory_id"],
                record_hash=digest,
                text=parsed["text"],
                tags=tuple(parsed["tags"]),
                ts=parsed.get("ts_utc"),
                instant=parsed.get("_instant"),
                denied=denied,
                normalized=normalized,
            )
        )
    return out


def build_model(scenario: Scenario, root: Path) -> Model:
    """The model of ``scenario`` whose files are materialized under ``root``.

    Raises :class:`KitError` when the request is not a valid one (models exist only for
    requests that must produce a package).
    """
    try:
        options = readings.check_request(scenario.request)
        stores = readings.read_stores(options.store_paths, root)
        entries = (
            readings.read_trust_snapshot(options.snapshot, root)
            if options.snapshot is not None
            else None
        )
    except (readings.RequestError, readings.Undecided) as exc:
        raise KitError(f"the scenario's request is not a valid request: {exc}") from exc
    supplied = options.query_terms
    terms = (
        readings.derive_terms(options.query)
        if supplied is None
        else readings.supplied_terms(supplied)
    )
    lines: list[ModelLine] = []
    for store_path, data in stores:
        lines.extend(_lines_of(store_path, data, len(lines), entries, options.deny))
    by_identity: dict[tuple[str, str], list[ModelLine]] = {}
    for line in lines:
        by_identity.setdefault(line.identity, []).append(line)
    return Model(
        query=options.query,
        terms=tuple(terms),
        store_paths=tuple(path for path, _ in stores),
        lines=tuple(lines),
        max_tokens=options.max_tokens,
        per_item=min(options.per_item, options.max_tokens),  # S6-TRUNC-04, INT-30
        max_items=options.max_items,
        tag_overlap=options.tag_overlap,
        recency=options.recency and options.now is not None,  # S6-INPUT-15, INT-36
        now=options.now[:2] if options.now is not None else None,
        half_life=options.half_life,
        snapshot=entries is not None,
        _by_identity={k: tuple(v) for k, v in by_identity.items()},
    )
