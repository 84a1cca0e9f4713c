"""The store checker's rules as data: SPEC-005 clause IDs, the finding-code table, the levels.

SPEC-005 (specs/seeds/SPEC-005.txt) has no clause register of its own yet; the S5-* IDs below
quote its text and are what `store check` reports as `clause`.  SPEC-006 rules use the S6-* IDs
of specs/clauses.toml and the INT-* entries of specs/interpretations.toml.

Every finding has a level, fixed by its code (the store-side twin of certification's
required/pinned split):

- ``required``: the line breaks the text of SPEC-005 or SPEC-006's record contract under every
  reading the register lists: a *violation* (exit status 1);
- ``pinned``: the line breaks only the reading the kit pins, and matches an alternative reading
  the register names (INT-47's other canonical forms): a *notice*, a violation under
  ``--strict``;
- ``info``: the line breaks neither spec; an observation about how the two specs meet (INT-24):
  a notice, summarized once per store, never a violation, never a non-zero exit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "BASE_FIELDS",
    "CODES",
    "LEVELS",
    "PATH_ERRORS",
    "S5_CLAUSES",
    "SOURCES",
    "STORE_TYPES",
    "Code",
    "Level",
]

#: S5 clause ID -> (SPEC-005 section, verbatim quote).
S5_CLAUSES: Final[dict[str, tuple[str, str]]] = {
    "S5-REC-01": (
        "CANONICAL MEMORY RECORD",
        "Each memory record is stored as one JSON object per line (JSONL format).",
    ),
    "S5-REC-02": ("CANONICAL MEMORY RECORD", "Base Fields (required):"),
    "S5-REC-03": (
        "CANONICAL MEMORY RECORD",
        '"memory_id": "string (stable, deterministic format)"',
    ),
    "S5-REC-04": ("CANONICAL MEMORY RECORD", '"type": "episodic | procedural | semantic"'),
    "S5-REC-05": ("CANONICAL MEMORY RECORD", '"created_at_utc": "ISO-8601 UTC timestamp"'),
    "S5-REC-06": ("CANONICAL MEMORY RECORD", '"source": "user | system"'),
    "S5-REC-07": ("CANONICAL MEMORY RECORD", '"tags": ["string", "..."]'),
    "S5-REC-08": ("CANONICAL MEMORY RECORD", '"text": "canonical text content"'),
    "S5-REC-09": (
        "CANONICAL MEMORY RECORD",
        '"refs": ["optional pointers (run_id, receipt_id, file path)"]',
    ),
    "S5-REC-10": (
        "CANONICAL MEMORY RECORD",
        '"hash": "sha256 of canonical fields (excluding hash field)"',
    ),
    "S5-INT-01": ("INTEGRITY RULES", "memory_id must be unique within its store."),
    "S5-INT-02": ("INTEGRITY RULES", "created_at_utc must be UTC only."),
    "S5-INT-03": ("INTEGRITY RULES", "hash must be computed over a canonical JSON serialization"),
    "S5-INT-04": ("INTEGRITY RULES", "hash field is written AFTER computing canonical digest."),
    "S5-INT-05": ("INTEGRITY RULES", "No field deletion permitted once written."),
    "S5-APP-01": ("APPEND-ONLY RULES", "No in-place file mutation."),
    "S5-APP-02": ("APPEND-ONLY RULES", "No record deletion in v0."),
    "S5-APP-03": (
        "APPEND-ONLY RULES",
        "Corrections require a new memory record referencing the old memory_id.",
    ),
    "S5-LOC-01": ("STORE FILE LOCATIONS", "episodic.jsonl / procedural.jsonl / semantic.jsonl"),
    "S5-NN-03": ("NON-NEGOTIABLES", "Every write produces a memory receipt entry (memory ledger)"),
}

#: SPEC-005 "type": "episodic | procedural | semantic".
STORE_TYPES: Final = ("episodic", "procedural", "semantic")
#: SPEC-005 "source": "user | system".
SOURCES: Final = ("user", "system")

JsonKind = Literal["string", "array"]
#: SPEC-005 Base Fields (required), in the spec's order, with their JSON type.
BASE_FIELDS: Final[tuple[tuple[str, JsonKind, str], ...]] = (
    ("memory_id", "string", "S5-REC-03"),
    ("type", "string", "S5-REC-04"),
    ("created_at_utc", "string", "S5-REC-05"),
    ("source", "string", "S5-REC-06"),
    ("tags", "array", "S5-REC-07"),
    ("text", "string", "S5-REC-08"),
    ("refs", "array", "S5-REC-09"),
    ("hash", "string", "S5-REC-10"),
)

#: "checker": a limit of the checker itself, not a rule of either spec (line-too-long).
Spec = Literal["SPEC-005", "SPEC-006", "cross-spec", "checker"]
Level = Literal["required", "pinned", "info"]
#: The levels, most severe first (see the module docstring).
LEVELS: Final[tuple[Level, ...]] = ("required", "pinned", "info")


@dataclass(frozen=True)
class Code:
    """One finding kind: stable code, its contract, level, clause, INT entries and meaning."""

    code: str
    spec: Spec
    level: Level
    clause: str
    interpretations: tuple[str, ...]
    meaning: str


def _table(*codes: Code) -> dict[str, Code]:
    return {c.code: c for c in codes}


#: The closed set of finding codes `store check` reports (documented in specs/store-vectors.md;
#: specs/schemas/store-check.schema.json and store-vectors.schema.json enumerate the same codes,
#: a test keeps them equal).
CODES: Final[dict[str, Code]] = _table(
    # --- SPEC-005: the line ---------------------------------------------------------------
    Code("not-json", "SPEC-005", "required", "S5-REC-01", ("INT-15", "INT-17"),
         "the line is not one JSON text (bad UTF-8, BOM, grammar, NaN/Infinity, a lone "
         "surrogate escape, a number that overflows a double)"),
    Code("not-object", "SPEC-005", "required", "S5-REC-01", ("INT-15",),
         "the line is JSON but not an object"),
    Code("blank-line", "SPEC-005", "required", "S5-REC-01", ("INT-14",),
         "an empty or whitespace-only line holds no record (a SPEC-006 reader skips it)"),
    Code("missing-final-newline", "SPEC-005", "required", "S5-APP-01", ("INT-14",),
         "the last line has no LF: the next append would be glued onto it"),
    Code("line-too-long", "checker", "required", "S5-REC-01", (),
         "the line is longer than the checker's limit (--max-line-bytes) and was not read; "
         "neither spec sets a limit, but a line the checker cannot read is never passed"),
    # --- SPEC-005: the fields ---------------------------------------------------------------
    Code("missing-field", "SPEC-005", "required", "S5-REC-02", (),
         "a required base field is absent"),
    Code("wrong-type", "SPEC-005", "required", "S5-REC-02", ("INT-22",),
         "a base field (or a tags/refs element) has the wrong JSON type; null is a wrong type"),
    Code("empty-memory-id", "SPEC-005", "required", "S5-REC-03", ("INT-22",),
         "memory_id is the empty string"),
    Code("bad-type-value", "SPEC-005", "required", "S5-REC-04", (),
         "type is not episodic, procedural or semantic"),
    Code("type-store-mismatch", "SPEC-005", "required", "S5-LOC-01", (),
         "the record's type differs from the store it is in (e.g. semantic in episodic.jsonl)"),
    Code("bad-source", "SPEC-005", "required", "S5-REC-06", (),
         "source is not user or system"),
    Code("non-utc-timestamp", "SPEC-005", "required", "S5-INT-02", ("INT-20",),
         "created_at_utc is a date-time with a non-UTC offset, -00:00, or no offset"),
    Code("bad-timestamp", "SPEC-005", "required", "S5-REC-05", ("INT-20",),
         "created_at_utc is not a date-time in the pinned grammar (garbage, impossible date, "
         "leap second, lowercase t/z, space separator)"),
    Code("hash-mismatch", "SPEC-005", "required", "S5-INT-03", ("INT-01", "INT-47"),
         "hash is not the lowercase hex SHA-256 of the record minus hash under RFC 8785 nor "
         "under any other known canonical form: the record changed after it was hashed"),
    Code("hash-alternative-form", "SPEC-005", "pinned", "S5-INT-03", ("INT-47",),
         "hash is the SHA-256 of the record minus hash under another canonical form INT-47 "
         "names (e.g. Python json.dumps), not under RFC 8785: intact, but not the pinned form"),
    # --- SPEC-005: the store ----------------------------------------------------------------
    Code("duplicate-memory-id", "SPEC-005", "required", "S5-INT-01", (),
         "memory_id already used by an earlier line of the same store"),
    Code("dangling-correction", "SPEC-005", "required", "S5-APP-03", ("INT-50",),
         "a corrects ref names a memory_id that no earlier line of the store holds"),
    Code("bad-correction-ref", "SPEC-005", "required", "S5-APP-03", ("INT-50",),
         'a {"kind": "corrects"} ref without a non-empty string memory_id'),
    # --- SPEC-006 ---------------------------------------------------------------------------
    Code("spec006-invalid", "SPEC-006", "required", "S6-REC-10",
         ("INT-15", "INT-17", "INT-18", "INT-22"),
         "a SPEC-006 reader drops the line as invalid_record_schema (the verdict names the rule)"),
    Code("ts-utc-invalid", "SPEC-006", "required", "S6-REC-04", ("INT-20", "INT-24"),
         "ts_utc is a string but not a valid UTC timestamp (SPEC-006: 'ts_utc: string "
         "(optional ISO8601 UTC timestamp)'); a SPEC-006 reader treats it as absent"),
    # --- cross-spec (INT-24): observations, never violations ---------------------------------
    Code("ts-utc-missing", "cross-spec", "info", "S6-REC-04", ("INT-24",),
         "no ts_utc (optional in SPEC-006): a SPEC-006 reader does not read created_at_utc, so "
         "the candidate has no timestamp (no recency, sorts last on tie-break 2)"),
    Code("ts-utc-mismatch", "cross-spec", "info", "S6-REC-04", ("INT-21", "INT-24"),
         "ts_utc and created_at_utc are both valid but name different instants (neither spec "
         "relates them; SPEC-006 ranks by ts_utc)"),
)  # fmt: skip

#: Why a path was not checked: code -> meaning.  A store-check report's per-path `error.code`.
PATH_ERRORS: Final[dict[str, str]] = {
    "not-found": "no such file (or a dangling symbolic link)",
    "permission-denied": "the file exists but cannot be opened for reading",
    "is-a-directory": "the path names a directory, not a store file",
    "not-a-regular-file": "a FIFO, socket or device: store check reads regular files only "
    "(a FIFO could block forever, a device could never end)",
    "changed-while-opening": "the path was replaced between its check and its opening",
    "io-error": "the operating system refused to open or read the file",
}
