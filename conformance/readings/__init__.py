"""The kit's pinned readings of SPEC-006, executable: one definition each, shared by construction.

SPEC-006 leaves many input-side questions open; the interpretation register pins an answer to
each. The pieces of the kit that must agree on those answers *by construction* import them from
here, and nowhere else defines them:

- the property model (:mod:`conformance.properties`) and the strategies
  (:mod:`conformance.strategies`), which ship;
- the store checker (:mod:`conformance.store`), which ships;
- the vector generators and the oracle (``tools/generate``, ``tools/oracle.py``), which do not.

What is shared (a change here is a re-pin: see CONTRIBUTING.md's checklist):

- text: the 25 White_Space code points, trim/split/collapse, lowercasing, query terms
  (INT-05..INT-09);
- timestamps: the INT-20 grammar and the INT-21 normalized form;
- JSON texts: what counts as JSON in a store line or a snapshot (INT-15..INT-18), and the
  RFC 8785 canonical form of every hash (INT-01);
- records: line splitting, blank lines, the record schema, tags, record_hash (INT-14, INT-19,
  INT-22, INT-25, INT-02);
- requests: the errors.md checks 1-8 and their order, the defaults (INT-40..INT-42);
- stores and trust snapshots: path normalization (INT-12), readability (INT-13), the snapshot
  document and what a deny entry matches (INT-38, INT-39).

What is deliberately NOT here: scoring, the recency weight and its correctly rounded ``pow``,
ranking, selection under the budget, excerpts and the package. The oracle computes those on its
own (``tools/oracle.py``), and so does the property model (``properties/_model.py``), so that a
generated vector's expectation is confirmed by an implementation that does not share the
reference's or each other's arithmetic. Independence is their point; sharing is the point here.

Where the register makes an alternative reading of one of these entries executable (the two
of INT-05, ``INT-07/utf-16-units``, ``INT-08/verbatim``, those of INT-12..INT-16 and INT-18,
``INT-20/case-and-minus-zero``, the two of INT-36, ``INT-39/both-keys``,
``INT-41/written-integer``), the function that holds the reading takes it as a parameter whose
default is the pinned reading (``Whitespace``, ``TermLength``, ``SuppliedTerms``, the keywords
of ``read_stores``, ``split_lines``'s ``cr``, ``TextReading``, ``TsGrammar``,
``RecencyReading``, ``TrustMatch``, ``IntReading``): the oracle passes it, every other caller
keeps the pinned reading without saying so.

Nothing here imports the reference: these are the register's readings, written from
``specs/interpretations.toml``, not from any implementation.
"""

from __future__ import annotations

from conformance.readings._json_text import (
    MAX_DEPTH,
    SAFE_INT,
    InvalidText,
    TextReading,
    canonical,
    parse_json_text,
    sha256_hex,
)
from conformance.readings._records import (
    is_blank,
    normalize_record,
    read_line,
    record_hash,
    split_lines,
)
from conformance.readings._request import (
    CLAUSE_OF_ERROR,
    CheckOrder,
    IntReading,
    MaxItemsReading,
    MembersReading,
    Options,
    RecencyReading,
    RequestError,
    check_request,
    pointer,
)
from conformance.readings._stores import (
    Undecided,
    normalize_path,
    on_disk,
    read_regular_file,
    read_stores,
    require_unicode,
)
from conformance.readings._text import (
    WHITE_SPACE,
    Lowercase,
    SuppliedTerms,
    TermLength,
    Whitespace,
    derive_terms,
    lower,
    normalize_text,
    split_ws,
    strip_ws,
    supplied_terms,
    whitespace_table,
)
from conformance.readings._timestamps import TsGrammar, parse_ts
from conformance.readings._trust import (
    ClassificationCase,
    SnapshotText,
    TrustMatch,
    is_denied,
    read_trust_snapshot,
)

__all__ = [
    "CLAUSE_OF_ERROR",
    "MAX_DEPTH",
    "SAFE_INT",
    "WHITE_SPACE",
    "CheckOrder",
    "ClassificationCase",
    "IntReading",
    "InvalidText",
    "Lowercase",
    "MaxItemsReading",
    "MembersReading",
    "Options",
    "RecencyReading",
    "RequestError",
    "SnapshotText",
    "SuppliedTerms",
    "TermLength",
    "TextReading",
    "TrustMatch",
    "TsGrammar",
    "Undecided",
    "Whitespace",
    "canonical",
    "check_request",
    "derive_terms",
    "is_blank",
    "is_denied",
    "lower",
    "normalize_path",
    "normalize_record",
    "normalize_text",
    "on_disk",
    "parse_json_text",
    "parse_ts",
    "pointer",
    "read_line",
    "read_regular_file",
    "read_stores",
    "read_trust_snapshot",
    "record_hash",
    "require_unicode",
    "sha256_hex",
    "split_lines",
    "split_ws",
    "strip_ws",
    "supplied_terms",
    "whitespace_table",
]
