"""Append-only SPEC-005 store writer: canonical records, memory receipts, corrections.

SPEC-005 NON-NEGOTIABLES: "Append-only writes (no in-place edits)" and "Every write produces a
memory receipt entry (memory ledger)".  The kit uses this writer to produce fixtures and the
sample stores under adam_os_data/memory/; `memory.read` itself never writes (S6-SEC-01).

Record (one line: the canonical bytes of the object, RFC 8785 by default, then LF):

    {"created_at_utc", "hash", "memory_id", "refs", "source", "tags", "text", "ts_utc", "type"}

- SPEC-005 base fields, plus `ts_utc` equal to `created_at_utc` and refs written as objects
  ({"kind": "run_id", "value": ...}), so the line is ALSO a valid SPEC-006 record (INT-24).
- `created_at_utc` is given by the caller, never read from the clock (use `utc_now()` to ask
  for the clock explicitly); it must be a UTC timestamp under the INT-20 grammar and is stored
  in the INT-21 normal form.
- `tags` are stored lowercased, deduplicated and sorted by code point: exactly the list a
  SPEC-006 reader normalizes them to (INT-25), so both specs see the same tags.
- memory_id format (SPEC-005: "stable, deterministic format"):
      "<prefix>-" + the first 16 hex digits of sha256(JCS({type, created_at_utc, source,
      tags, text, refs}))
  with prefix "epi" / "pro" / "sem" for episodic / procedural / semantic.  The same content
  at the same instant is the same memory, so appending it twice is refused
  (duplicate_memory_id), never silently written twice.
- `hash` (INT-47): lowercase hex SHA-256 of the JCS bytes of the record without `hash`,
  computed first and then added (SPEC-005 INTEGRITY RULES 3 and 4).
- Hash forms.  `hash_form="jcs"` (the default) is the form INT-47 pins.  A user whose store was
  started by another writer can keep appending in that writer's form, so the whole store stays
  one form: `"python-json"` is Python's `json.dumps(sort_keys=True, separators=(",", ":"),
  ensure_ascii=False, allow_nan=False)` and `"python-json-ascii"` the same with
  `ensure_ascii=True` (INT-47 lists both; `store check` recognizes them and reports a notice,
  not a violation).  The chosen form makes the line, the hash AND the memory_id (so that values
  RFC 8785 cannot tell apart, such as two integers beyond 2**53, never collide).  A record must
  still be representable in RFC 8785 (no NaN, no lone surrogate, string keys only) whatever
  the form.
- A correction is a new record whose first ref is {"kind": "corrects", "memory_id": <old>}
  (SPEC-005 APPEND-ONLY RULES: "Corrections require a new memory record referencing the old
  memory_id"); the old id must already be in the same store.

Memory receipt (one canonical JSON line per write in the ledger), metadata only: kind
"memory.write", memory_id, store_path, record_hash (the record's SPEC-005 hash), type,
created_at_utc, line_bytes (length of the record line including its LF) and offset (where that
line starts in the store).  No text, tags or refs (SPEC-006 LEDGER RECEIPT CONSTRAINTS apply
the same metadata-only rule to reads).

Concurrency.  Each append is, in order: open the store with O_WRONLY|O_APPEND|O_CREAT (never
O_TRUNC) and take fcntl.flock(LOCK_EX) on it; read what other writers appended since our last
look (to keep memory_id unique and to resolve corrections); open and lock the ledger the same
way; one os.write() of the whole record line, fsync; one os.write() of the receipt line, fsync;
release both.  O_APPEND alone makes each write() land at the current end of the file
atomically on a local filesystem, so concurrent single-write appends never overwrite each
other.  The lock is still taken because (1) POSIX allows a short write (a signal, a full disk),
and the rest of a line must follow it without another writer's bytes in between; (2) "check the
id is unique / the corrected id exists, then append" must be atomic across processes; (3) the
ledger then lists a store's receipts in the store's own line order.  Locks are always taken
store first, then ledger, so writers cannot deadlock.  flock is advisory and unreliable on NFS:
use local files.  Both files are checked (last byte is LF) before either is written, and the
receipt is written after the record: a crash between the two writes leaves a record without
receipt, never a receipt pointing at nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from reference._canonical import canonical_bytes, sha256_hex
from reference._errors import CanonicalizationError
from reference._timestamps import parse_utc

__all__ = [
    "DEFAULT_LEDGER",
    "HASH_FORMS",
    "ID_PREFIXES",
    "SOURCES",
    "WRITE_ERROR_CODES",
    "MemoryReceipt",
    "StoreWriteError",
    "StoreWriter",
    "append_record",
    "build_record",
    "correct_record",
    "make_ref",
    "memory_id_for",
    "record_line",
    "utc_now",
]

#: SPEC-005 "type": "episodic | procedural | semantic" -> the memory_id prefix.
ID_PREFIXES: Final[dict[str, str]] = {"episodic": "epi", "procedural": "pro", "semantic": "sem"}
#: SPEC-005 "source": "user | system".
SOURCES: Final = frozenset({"user", "system"})
#: SPEC-005 STORE FILE LOCATIONS: the default ledger beside the three stores.
DEFAULT_LEDGER: Final = "adam_os_data/memory/ledger.jsonl"
RECEIPT_KIND: Final = "memory.write"
CORRECTS: Final = "corrects"
#: The canonical forms the writer can hash and write in (module docstring; INT-47).
HASH_FORMS: Final = ("jcs", "python-json", "python-json-ascii")

#: code -> (SPEC-005 rule, meaning).  The closed set of writer error codes.
WRITE_ERROR_CODES: Final[dict[str, tuple[str, str]]] = {
    "invalid_record": ("CANONICAL MEMORY RECORD", "a field is missing, mistyped or out of range"),
    "duplicate_memory_id": ("INTEGRITY 1", "the store already holds this memory_id"),
    "unknown_memory_id": ("APPEND-ONLY", "a correction names a memory_id not in the store"),
    "store_unterminated": ("APPEND-ONLY", "the last line has no LF; appending would merge lines"),
    "store_io": ("APPEND-ONLY", "the operating system refused to open, lock, write or sync"),
    "invalid_option": ("INTEGRITY 3", "hash_form is not one of HASH_FORMS"),
}

_FLAGS_APPEND: Final = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
_FLAGS_READ: Final = os.O_RDONLY | os.O_CLOEXEC
_MODE: Final = 0o644
_CHUNK: Final = 1 << 20


class StoreWriteError(Exception):
    """A refused write: stable `code` (WRITE_ERROR_CODES), the `field` at fault, a message."""

    def __init__(self, code: str, field: str, message: str) -> None:
        if code not in WRITE_ERROR_CODES:  # pragma: no cover - programming error
            raise KeyError(code)
        super().__init__(message)
        self.code = code
        self.field = field
        self.rule = WRITE_ERROR_CODES[code][0]
        self.message = message

    def to_json(self) -> dict[str, str]:
        """The error as a JSON object (code, field, rule, message)."""
        return {"code": self.code, "field": self.field, "rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class MemoryReceipt:
    """One ledger entry: metadata of a write, never its content."""

    memory_id: str
    store_path: str
    record_hash: str
    type: str
    created_at_utc: str
    line_bytes: int
    offset: int
    kind: str = RECEIPT_KIND

    def to_json(self) -> dict[str, Any]:
        """The receipt object written to the ledger."""
        return {
            "created_at_utc": self.created_at_utc,
            "kind": self.kind,
            "line_bytes": self.line_bytes,
            "memory_id": self.memory_id,
            "offset": self.offset,
            "record_hash": self.record_hash,
            "store_path": self.store_path,
            "type": self.type,
        }


# ------------------------------------------------------------------------------ records


def utc_now() -> str:
    """The current time as a UTC timestamp (INT-21 form, whole seconds): the ONLY clock read.

    The writer never calls this itself; callers that want "now" pass `created_at_utc=utc_now()`.
    """
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    return now.strftime("%Y-%m-%dT%H:%M:%SZ")


def make_ref(kind: str, value: str) -> dict[str, str]:
    """A SPEC-006-compatible pointer object, e.g. make_ref("run_id", "run-0042") (INT-24)."""
    return {"kind": kind, "value": value}


def _invalid(field_name: str, message: str) -> StoreWriteError:
    return StoreWriteError("invalid_record", field_name, message)


def _check_refs(refs: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """S6-REC-09: "if present MUST be list[dict]"; a `corrects` ref must name a memory_id."""
    if isinstance(refs, str | bytes | Mapping):
        raise _invalid("refs", f"refs must be a list of objects, got {refs!r}")
    checked: list[dict[str, Any]] = []
    for index, ref in enumerate(refs):
        if not isinstance(ref, Mapping) or not all(isinstance(k, str) for k in ref):
            raise _invalid(f"refs[{index}]", f"a ref must be an object, got {ref!r}")
        item = dict(ref)
        if item.get("kind") == CORRECTS:
            target = item.get("memory_id")
            if not isinstance(target, str) or not target:
                raise _invalid(f"refs[{index}]", f"a corrects ref needs a memory_id: {ref!r}")
        checked.append(item)
    return checked


def _check_tags(tags: Iterable[str]) -> list[str]:
    """SPEC-005 tags ["string", ...], stored as INT-25 normalizes them (lower, unique, sorted)."""
    if isinstance(tags, str | bytes):
        raise _invalid("tags", f"tags must be a list of strings, got {tags!r}")
    listed = list(tags)
    for index, tag in enumerate(listed):
        if not isinstance(tag, str):
            raise _invalid(f"tags[{index}]", f"a tag must be a string, got {tag!r}")
    return sorted({tag.lower() for tag in listed})


def _check_form(hash_form: str) -> str:
    if hash_form not in HASH_FORMS:
        raise StoreWriteError(
            "invalid_option",
            "hash_form",
            f"hash_form must be one of {HASH_FORMS}, got {hash_form!r}",
        )
    return hash_form


def _canonical(value: Any, field_name: str, hash_form: str = "jcs") -> bytes:
    """`value` in the canonical form `hash_form` (module docstring)."""
    try:
        jcs = canonical_bytes(value)  # also the check: lone surrogates, NaN, non-string keys
    except CanonicalizationError as exc:
        raise _invalid(field_name, f"not representable as canonical JSON: {exc}") from exc
    if _check_form(hash_form) == "jcs":
        return jcs
    # INT-47's alternatives: Python's json module, keys by code point, numbers as Python
    # writes them (integers exact, 1.0 stays 1.0, 1e+16).
    text = json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=hash_form == "python-json-ascii",
        allow_nan=False,
    )
    return text.encode("utf-8")


def memory_id_for(content: Mapping[str, Any], *, hash_form: str = "jcs") -> str:
    """The deterministic memory_id of normalized content fields (see the module docstring)."""
    digest = sha256_hex(_canonical(dict(content), "record", hash_form))
    return f"{ID_PREFIXES[content['type']]}-{digest[:16]}"


def build_record(
    *,
    type: str,
    created_at_utc: str,
    source: str,
    text: str,
    tags: Iterable[str] = (),
    refs: Iterable[Mapping[str, Any]] = (),
    hash_form: str = "jcs",
) -> dict[str, Any]:
    """Validate the fields and return the canonical record, `hash` included.

    Steps: (1) check every field; (2) memory_id from the content fields; (3) add ts_utc
    (INT-24); (4) hash = sha256 of JCS(record without hash) (INT-47), or of the `hash_form`
    bytes, then add it (SPEC-005 INTEGRITY 4: "hash field is written AFTER computing
    canonical digest").
    """
    _check_form(hash_form)
    # (1) SPEC-005 CANONICAL MEMORY RECORD.
    if type not in ID_PREFIXES:
        raise _invalid("type", f"type must be episodic, procedural or semantic, got {type!r}")
    if source not in SOURCES:
        raise _invalid("source", f"source must be user or system, got {source!r}")
    if not isinstance(text, str):
        raise _invalid("text", f"text must be a string, got {text!r}")
    # SPEC-005 INTEGRITY 2: "created_at_utc must be UTC only" (grammar pinned by INT-20).
    parsed = parse_utc(created_at_utc) if isinstance(created_at_utc, str) else None
    if parsed is None:
        raise _invalid(
            "created_at_utc", f"created_at_utc must be a UTC timestamp, got {created_at_utc!r}"
        )
    content: dict[str, Any] = {
        "type": type,
        "created_at_utc": parsed[0],  # INT-21 normal form
        "source": source,
        "tags": _check_tags(tags),
        "text": text,
        "refs": _check_refs(refs),
    }
    # (2) the id, (3) the SPEC-006 timestamp.
    record = dict(content, memory_id=memory_id_for(content, hash_form=hash_form), ts_utc=parsed[0])
    # (4) INT-47.
    record["hash"] = sha256_hex(_canonical(record, "record", hash_form))
    return record


def record_line(record: Mapping[str, Any], *, hash_form: str = "jcs") -> bytes:
    """The bytes appended for a record: its canonical form (RFC 8785 by default) and one LF."""
    return _canonical(dict(record), "record", hash_form) + b"\n"


def _corrected_ids(record: Mapping[str, Any]) -> list[str]:
    return [ref["memory_id"] for ref in record["refs"] if ref.get("kind") == CORRECTS]


# ------------------------------------------------------------------------------ the files


@dataclass
class _StoreIndex:
    """memory_ids seen in one store file, up to `offset` bytes of the file (dev, ino)."""

    identity: tuple[int, int]
    offset: int = 0
    ids: set[str] = field(default_factory=set)


def _io_error(path: str, action: str, exc: OSError) -> StoreWriteError:
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "error")
    return StoreWriteError("store_io", path, f"cannot {action} {path!r}: {reason}")


def _write_all(fd: int, data: bytes) -> None:
    """One os.write() of the whole line; only a short write (POSIX allows it) loops."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(path: str) -> None:
    """Make a newly created file's directory entry durable."""
    fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_terminated(rfd: int, size: int, path: str) -> None:
    if size and os.pread(rfd, 1, size - 1) != b"\n":
        raise StoreWriteError(
            "store_unterminated", path, f"{path!r} does not end with LF; refusing to append"
        )


def _scan_ids(rfd: int, index: _StoreIndex, size: int) -> None:
    """Add the memory_ids of the lines in [index.offset, size) (every line ends with LF)."""
    pending = b""
    position = index.offset
    while position < size:
        chunk = os.pread(rfd, min(_CHUNK, size - position), position)
        if not chunk:  # pragma: no cover - the file shrank under the lock
            break
        position += len(chunk)
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue  # not a record: it has no memory_id to collide with
            if type(obj) is dict and type(obj.get("memory_id")) is str:
                index.ids.add(obj["memory_id"])
    index.offset = size


@contextlib.contextmanager
def _locked_tail(path: str, name: str) -> Iterator[tuple[int, int]]:
    """Open for appending (never O_TRUNC), take LOCK_EX, refuse a tail without LF.

    Yields (fd, size); closing the fd on exit releases the lock.
    """
    try:
        fd = os.open(path, _FLAGS_APPEND, _MODE)
    except OSError as exc:
        raise _io_error(name, "open", exc) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size:
            rfd = os.open(path, _FLAGS_READ)
            try:
                _check_terminated(rfd, size, name)
            finally:
                os.close(rfd)
        yield fd, size
    except OSError as exc:
        raise _io_error(name, "append to", exc) from exc
    finally:
        os.close(fd)


def _commit(fd: int, path: str, size: int, data: bytes, name: str) -> None:
    """One write of the whole line at the end of the file, then fsync (and the directory's
    fsync when the file was new)."""
    try:
        _write_all(fd, data)
        os.fsync(fd)
        if not size:
            _fsync_dir(path)
    except OSError as exc:
        raise _io_error(name, "append to", exc) from exc


class StoreWriter:
    """Appends records to stores under `root` and a receipt per write to one ledger.

    Store and ledger names are paths relative to `root` (absolute ones work too); a receipt's
    store_path is the name as given, so repo-relative names give machine-independent ledgers.
    The writer remembers how far it has read each store, so an append costs O(new bytes).
    `hash_form` is the canonical form of every record it writes (module docstring): keep the
    default unless the stores were started in another form.  Receipts are always RFC 8785.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        ledger: str = DEFAULT_LEDGER,
        hash_form: str = "jcs",
    ):
        self.root = os.fspath(root)
        self.ledger = ledger
        self.hash_form = _check_form(hash_form)
        self._indexes: dict[str, _StoreIndex] = {}

    def _path(self, name: str) -> str:
        return os.path.join(self.root, name)

    def append(
        self,
        store: str,
        *,
        type: str,
        created_at_utc: str,
        source: str,
        text: str,
        tags: Iterable[str] = (),
        refs: Iterable[Mapping[str, Any]] = (),
    ) -> MemoryReceipt:
        """Build a record, append it to `store`, append its receipt to the ledger."""
        record = build_record(
            type=type,
            created_at_utc=created_at_utc,
            source=source,
            text=text,
            tags=tags,
            refs=refs,
            hash_form=self.hash_form,
        )
        return self._append(store, record)

    def correct(
        self,
        store: str,
        corrects: str,
        *,
        type: str,
        created_at_utc: str,
        source: str,
        text: str,
        tags: Iterable[str] = (),
        refs: Iterable[Mapping[str, Any]] = (),
    ) -> MemoryReceipt:
        """Append a correction of memory `corrects`, which must already be in `store`."""
        first = {"kind": CORRECTS, "memory_id": corrects}
        return self.append(
            store,
            type=type,
            created_at_utc=created_at_utc,
            source=source,
            text=text,
            tags=tags,
            refs=[first, *refs],
        )

    def _append(self, store: str, record: Mapping[str, Any]) -> MemoryReceipt:
        """Append a record made by `build_record`; its id and corrections are checked here."""
        path = self._path(store)
        ledger_path = self._path(self.ledger)
        line = record_line(record, hash_form=self.hash_form)
        # Steps 1-2: lock the store, then read everything other writers appended so far.
        with _locked_tail(path, store) as (fd, size):
            stat = os.fstat(fd)
            identity = (stat.st_dev, stat.st_ino)
            index = self._indexes.get(store)
            if index is None or index.identity != identity or index.offset > size:
                index = self._indexes[store] = _StoreIndex(identity)
            rfd = os.open(path, _FLAGS_READ)
            try:
                _scan_ids(rfd, index, size)
            finally:
                os.close(rfd)
            # Step 3: SPEC-005 INTEGRITY 1 "memory_id must be unique within its store" and
            # APPEND-ONLY "Corrections require a new memory record referencing the old
            # memory_id" (the old one must exist, earlier in the same store).
            memory_id = record["memory_id"]
            if memory_id in index.ids:
                raise StoreWriteError(
                    "duplicate_memory_id", "memory_id", f"{store!r} already holds {memory_id!r}"
                )
            for target in _corrected_ids(record):
                if target not in index.ids:
                    raise StoreWriteError(
                        "unknown_memory_id",
                        "refs",
                        f"cannot correct {target!r}: no such memory_id in {store!r}",
                    )
            receipt = MemoryReceipt(
                memory_id=memory_id,
                store_path=store,
                record_hash=record["hash"],
                type=record["type"],
                created_at_utc=record["created_at_utc"],
                line_bytes=len(line),
                offset=size,
            )
            # Step 4: lock the ledger too (always store first, then ledger: no deadlock) and
            # refuse before writing anything if it cannot take a receipt.
            with _locked_tail(ledger_path, self.ledger) as (ledger_fd, ledger_size):
                # Step 5: the record: one write, fsync.
                _commit(fd, path, size, line, store)
                index.ids.add(memory_id)
                index.offset = size + len(line)
                # Step 6: its receipt, still under the store lock (ledger order = store order).
                receipt_line = canonical_bytes(receipt.to_json()) + b"\n"
                _commit(ledger_fd, ledger_path, ledger_size, receipt_line, self.ledger)
        return receipt


def append_record(
    store_path: str,
    *,
    ledger_path: str = DEFAULT_LEDGER,
    type: str,
    created_at_utc: str,
    source: str,
    text: str,
    tags: Iterable[str] = (),
    refs: Iterable[Mapping[str, Any]] = (),
    hash_form: str = "jcs",
) -> MemoryReceipt:
    """Append one record to `store_path` and its receipt to `ledger_path` (one-shot writer)."""
    return StoreWriter(ledger=ledger_path, hash_form=hash_form).append(
        store_path,
        type=type,
        created_at_utc=created_at_utc,
        source=source,
        text=text,
        tags=tags,
        refs=refs,
    )


def correct_record(
    store_path: str,
    corrects: str,
    *,
    ledger_path: str = DEFAULT_LEDGER,
    type: str,
    created_at_utc: str,
    source: str,
    text: str,
    tags: Iterable[str] = (),
    refs: Iterable[Mapping[str, Any]] = (),
    hash_form: str = "jcs",
) -> MemoryReceipt:
    """Append a correction of `corrects` (which must exist in `store_path`); one-shot writer."""
    return StoreWriter(ledger=ledger_path, hash_form=hash_form).correct(
        store_path,
        corrects,
        type=type,
        created_at_utc=created_at_utc,
        source=source,
        text=text,
        tags=tags,
        refs=refs,
    )
