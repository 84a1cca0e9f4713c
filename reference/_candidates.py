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

from reference._excerpt import excerpt_of
from reference._ordering import candidate
from reference._reader import Chunk, Digest, LineReader, Store, is_blank
from reference._records import Invalid, NotJSON, Record, load_line, parse_record, parse_ts
from reference._scoring import EXACT, MAX_RECENCY, TAG_BONUS, Scorer, score_of
from reference._selection import Shortlist
from reference._timestamps import Timestamp, sort_key
from reference._trust import TrustFilter

__all__ = ["scan_chunk"]

_NO_TAGS: Final[list[Any]] = []


def scan_chunk(
    stores: list[Store],
    chunk: Chunk,
    scorer: Scorer,
    trust: TrustFilter,
    per_item: int,
    shortlist: Shortlist,
    store_digest: Digest | None = None,
) -> int:
    """Offer the chunk's candidates to `shortlist`; return the CRC-32 of the chunk's bytes.

    `store_digest`, when given, is fed every byte of the chunk (the assembly record's store hash).
    """
    store = stores[chunk.position]
    reader = LineReader(store, chunk, hash_overlong=False, digest=store_digest)
    path = store.path
    term_count = scorer.term_count
    tag_overlap = scorer.tag_overlap
    fast_weight = scorer.fast_weight
    recency = scorer.recency_now_ns is not None
    top_weight = MAX_RECENCY if recency else 0.0
    top_overlap = len(scorer.terms) if scorer.counts_tags else 0
    filtering = trust.active
    position = chunk.position
    floor, tie_score = shortlist.floor, shortlist.tie_score
    for first, _, lines, _ in reader.batches():  # an overlong line is never a candidate
        offset = first
        for line in lines:
            start = offset
            offset += len(line) + 1
            # A record line starts with "{" (almost always): only other lines can be blank.
            if line[:1] != b"{" and is_blank(line):
                continue
            try:
                obj = load_line(line)
            except NotJSON:
                continue  # invalid (INT-15): never a candidate
            if type(obj) is not dict:
                continue
            record: Record | Invalid | None = None
            text = obj.get("text")
            tags = obj.get("tags", _NO_TAGS)
            ts_raw = obj.get("ts_utc", "")
            ts: Timestamp | None = None
            if type(text) is not str or type(tags) is not list or type(ts_raw) is not str:
                # Not the shape of a valid record: the record rules decide (INT-22).
                record = parse_record(line, obj, store_path=path)
                if isinstance(record, Invalid):
                    continue
                text, tags, ts, ts_raw = record[1], record[2], record[3], ""
            # Scores only grow with the tag bonus and the weight: a line that cannot reach the
            # floor with every tag matching and a full weight is passed over early.
            base = term_count(text)
            if base + min(len(tags), top_overlap) * TAG_BONUS + top_weight < floor:
                continue
            try:
                overlap = tag_overlap(tags)
            except TypeError:  # a tag that is not a string: invalid
                continue
            if score_of(base, overlap, top_weight) < floor:
                continue
            if ts_raw:
                ts = parse_ts(ts_raw)
            weight, exponent = fast_weight(ts)
            fast = score_of(base, overlap, weight)
            if fast < floor:
                continue
            if fast == tie_score and exponent == EXACT and sort_key(ts) > shortlist.tie_ts:
                continue  # an equal exact score and an older (or no) timestamp
            # The line may reach the selection: validate it completely.
            if record is None:
                record = parse_record(line, obj, store_path=path)
            if isinstance(record, Invalid):
                continue
            memory_id, text, norm_tags, ts, digest = record
            # S6-TRUST-08: "Filtered candidates MUST appear in dropped" -- never ranked.
            if filtering and trust.denies(memory_id, digest, norm_tags):
                continue
            tokens = excerpt_of(text, per_item)[1]
            shortlist.add(candidate(base, overlap, weight, exponent, sort_key(ts), position,
                                    memory_id, start, len(line), tokens))  # fmt: skip
            floor, tie_score = shortlist.floor, shortlist.tie_score
    return reader.crc
