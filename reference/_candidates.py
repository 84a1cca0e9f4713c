"""Pass 1: record lines -> scored candidates, offered to the shortlist (READER, SCORING, TRUST).

For every record line of a chunk, in read order: parse it, score it with the fast weight, and
when the score could still reach the selection, validate it completely (INT-15..INT-25),
apply the trust filter (S6-TRUST-03, INT-39) and offer it to the shortlist.  A line whose
fast score already ranks after the shortlist's prefix cannot change the selection whether it
is valid, denied or neither, so it is not validated here: pass 2 (`_dropped`) gives every
line its dropped entry.  Nothing is kept per line.

Most lines rank after the prefix, so they are passed over as early as a sound bound allows:
after counting the terms in the text, a line whose tags could not all add their bonus, nor
a full weight (recency_bonus <= 1, S6-SCORE-17), to reach the floor is done with; likewise
after the tag bonus.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from reference._excerpt import excerpt_tokens
from reference._ordering import candidate
from reference._reader import Chunk, LineReader, Store
from reference._records import Invalid, parse_record
from reference._scoring import EXACT, Scorer
from reference._selection import Shortlist
from reference._timestamps import Timestamp, parse_utc, sort_key_missing
from reference._trust import TrustFilter

__all__ = ["scan_chunk"]

_BLANK: Final = b" \t\r"
_NO_TAGS: Final[list[Any]] = []


def _ts_key(ts: Timestamp | None) -> int:
    # S6-ORDER-02: "ts_utc descending (missing ts_utc sorts last)" as an ascending key.
    return sort_key_missing if ts is None else -ts[1] - 1


def scan_chunk(
    stores: list[Store],
    chunk: Chunk,
    scorer: Scorer,
    trust: TrustFilter,
    per_item: int,
    shortlist: Shortlist,
) -> int:
    """Offer the chunk's candidates to `shortlist`; return the CRC-32 of the chunk's bytes."""
    reader = LineReader(stores[chunk.position], chunk, hash_overlong=False)
    loads = orjson.loads
    not_json = orjson.JSONDecodeError
    term_count = scorer.term_count
    tag_overlap = scorer.tag_overlap
    fast_weight = scorer.fast_weight
    recency = scorer.recency_now_ns is not None
    top_weight = 1.0 if recency else 0.0  # S6-SCORE-17: recency_bonus is bounded [0, 1]
    top_overlap = len(scorer.terms) if scorer.enable_tag_overlap else 0
    filtering = trust.active
    position = chunk.position
    floor, tie_score = shortlist.floor, shortlist.tie_score
    for first, _, lines, _ in reader.batches():  # an overlong line is never a candidate
        offset = first
        for line in lines:
            start = offset
            offset += len(line) + 1
            # INT-14: blank lines are not records; a record line starts with "{" (almost
            # always), so only other lines are checked for blankness.
            if line[:1] != b"{" and not line.strip(_BLANK):
                continue
            try:
                obj = loads(line)
            except not_json:
                continue  # invalid (INT-15): never a candidate
            if type(obj) is not dict:
                continue
            text = obj.get("text")
            tags = obj.get("tags", _NO_TAGS)
            if type(text) is not str or type(tags) is not list:
                continue  # INT-22: invalid
            # Scores only grow by the tag bonus and the weight: a line that cannot reach the
            # floor even with every tag matching and a full weight is passed over early.
            base = term_count(text)
            if base + min(len(tags), top_overlap) * 0.5 + top_weight < floor:
                continue
            try:
                base_and_tags = base + tag_overlap(tags) * 0.5
            except TypeError:  # a tag that is not a string: invalid
                continue
            if base_and_tags + top_weight < floor:
                continue
            ts_raw = obj.get("ts_utc", "")
            if type(ts_raw) is not str:
                continue  # INT-22: invalid
            ts: Timestamp | None = None
            if recency:
                ts = parse_utc(ts_raw) if ts_raw else None
                weight, exponent = fast_weight(ts)
            else:
                weight, exponent = 0.0, EXACT
            fast = base_and_tags + weight
            if fast < floor:
                continue
            if fast == tie_score and exponent == EXACT:  # equal exact scores: compare ts
                if not recency:
                    ts = parse_utc(ts_raw) if ts_raw else None
                if _ts_key(ts) > shortlist.tie_ts:
                    continue
            # The line may reach the selection: validate it completely.
            record = parse_record(line, obj)
            if isinstance(record, Invalid):
                continue
            memory_id, text, _, ts, digest = record
            # S6-TRUST-08: denied candidates are dropped, never ranked
            if filtering and trust.denies(memory_id, digest):
                continue
            tokens = excerpt_tokens(text, per_item)
            shortlist.add(candidate(base_and_tags, weight, exponent, _ts_key(ts), position,
                                    memory_id, start, len(line), tokens))  # fmt: skip
            floor, tie_score = shortlist.floor, shortlist.tie_score
    return reader.crc
