"""Pass 1: every record line -> its dropped entry or a candidate (READER, SCORING, TRUST).

For every line of a chunk, in read order: parse and validate it completely (INT-15..INT-25),
hash it (INT-02), apply the trust filter (S6-TRUST-03, INT-39) and score it with the fast
weight.  An invalid or denied line gets its dropped entry now; a valid line whose fast score
ranks after the shortlist's prefix can never be selected, so it gets its entry too, with the
reason selection stops with as far as the candidates seen so far say (pass 2 corrects it when
selection finally stops otherwise, `_dropped`); the rest are offered to the shortlist and kept
apart as candidates.  Nothing is kept per line in memory: entries go to the spool.

Most lines rank after the prefix, so they are passed over as early as a sound bound allows:
after counting the terms in the text, a line whose tags could not all add their bonus, nor
a full weight (recency_bonus <= 1, S6-SCORE-17), to reach the floor is done with; likewise
after the tag bonus.
"""

from __future__ import annotations

from typing import Any, Final

from reference._dropped import ChunkParts
from reference._ordering import candidate
from reference._reader import Chunk, Digest, LineReader, Store
from reference._records import PINNED_LINES, Invalid, LineRules, NotJSON
from reference._scoring import EXACT, MAX_RECENCY, TAG_BONUS, Scorer, score_of
from reference._selection import INVALID_RECORD, TRUST_DENIED, Shortlist
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
    parts: ChunkParts,
    first_line: int = 1,
    store_digest: Digest | None = None,
    rules: LineRules = PINNED_LINES,
) -> int:
    """Give every line of the chunk its dropped entry or offer it to `shortlist` (recorded in
    `parts`); return the CRC-32 of the chunk's bytes with an assembly record (0 without:
    nothing reads the chunk twice then).

    `first_line` is the number of the chunk's first line (assembly-record rows, INT-53);
    `store_digest`, when given, is fed every byte of the chunk (the record's store hash);
    `rules` is how a line is read (INT-14..INT-18), taken as values, not branched on.
    """
    store = stores[chunk.position]
    reader = LineReader(
        store,
        chunk,
        hash_overlong=True,
        digest=store_digest,
        checksum=parts.audit,
        limit=rules.line_limit,  # INT-18
    )
    path = store.path
    term_count = scorer.term_count
    tag_overlap = scorer.tag_overlap
    fast_weight = scorer.fast_weight
    parse_ts = scorer.parse_ts  # INT-20
    hashing = scorer.hashing  # INT-01, INT-02, INT-17, INT-47
    skip, load = rules.skip, rules.load  # INT-14..INT-18
    parse = scorer.parse_line  # INT-20..25 over INT-14..18 (rules.parse underneath)
    ts_key = scorer.ts_key  # INT-21: tie-break 2
    strip = scorer.text.strip  # INT-05
    excerpt_of = scorer.excerpt  # INT-31
    recency = scorer.recency_now_ns is not None
    top_weight = MAX_RECENCY if recency else 0.0
    top_overlap = len(scorer.terms) if scorer.counts_tags else 0
    filtering = trust.active
    position = chunk.position
    audit = parts.audit
    floor, tie_score = shortlist.floor, shortlist.tie_score
    number = first_line
    # A line that cannot be selected is dropped with the reason selection stops with, which
    # is known only at the end: it gets the reason for the candidates seen so far, and pass 2
    # corrects the runs that guessed wrong.
    parts.stop = stop = shortlist.reason
    for first, _, lines, overlong in reader.batches():
        entries, rows = parts.entries, parts.rows
        if not lines:  # an overlong line (INT-18): one line, a record unless it is blank
            if overlong is not None:
                raw_hash = overlong.raw_hash or ""
                entries.append({"memory_id": "", "record_hash": raw_hash, "store_path": path,
                                "reason": INVALID_RECORD})  # fmt: skip
                if audit:
                    rows.append({"store": position, "line": number, "memory_id": "",
                                 "record_hash": raw_hash, "outcome": INVALID_RECORD})  # fmt: skip
            number += 1
            continue
        offset = first
        for line in lines:
            start = offset
            offset += len(line) + 1
            here = number
            number += 1
            # A record line starts with "{" (almost always): only other lines can be blank.
            if line[:1] != b"{" and skip(line):
                continue  # INT-14: not a record
            try:
                obj = load(line)
            except NotJSON:
                record = parse(line, store_path=path)  # invalid (INT-15)
            else:
                record = parse(line, obj, store_path=path, parse_ts=parse_ts, hashing=hashing)
            reason = stop
            if isinstance(record, Invalid):
                # S6-REC-11: "counted as dropped with reason: invalid_record_schema" (INT-19)
                memory_id, digest = record
                reason = INVALID_RECORD
            else:
                memory_id, text, norm_tags, ts, digest = record
                if filtering and trust.denies(memory_id, digest, norm_tags):
                    # S6-TRUST-08: "Filtered candidates MUST appear in dropped" -- never ranked.
                    reason = TRUST_DENIED
                else:
                    # Scores only grow with the tag bonus and the weight: a line that cannot
                    # reach the floor with every tag matching and a full weight is passed over.
                    base = term_count(text)
                    if (
                        base + min(len(norm_tags), top_overlap) * TAG_BONUS + top_weight >= floor
                        and score_of(
                            base, (overlap := tag_overlap(obj.get("tags", _NO_TAGS))), top_weight
                        )
                        >= floor
                    ):
                        weight, exponent = fast_weight(ts)
                        fast = score_of(base, overlap, weight)
                        # An equal exact score and an older (or no) timestamp ranks after.
                        if fast >= floor and not (
                            fast == tie_score
                            and exponent == EXACT
                            and ts_key(ts) > shortlist.tie_ts
                        ):
                            tokens = excerpt_of(text, per_item, strip)[1]
                            shortlist.add(candidate(base, overlap, weight, exponent,
                                                    ts_key(ts), position, memory_id, start,
                                                    len(line), tokens, digest))  # fmt: skip
                            floor, tie_score = shortlist.floor, shortlist.tie_score
                            parts.candidate(start, memory_id, digest, here if audit else 0)
                            entries, rows = parts.entries, parts.rows
                            parts.stop = stop = shortlist.reason
                            continue
            entries.append({"memory_id": memory_id, "record_hash": digest, "store_path": path,
                            "reason": reason})  # fmt: skip
            if audit:
                rows.append({"store": position, "line": here, "memory_id": memory_id,
                             "record_hash": digest, "outcome": reason})  # fmt: skip
        parts.flush()
    parts.flush()
    return reader.crc
