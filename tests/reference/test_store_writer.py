"""The append-only SPEC-005 store writer (reference/_writer.py): records, appends, receipts."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
import rfc8785
from paths import REPO

import reference._writer as writer_module
from conformance.store import check_store
from reference import (
    MemoryReceipt,
    StoreWriteError,
    StoreWriter,
    append_record,
    build_record,
    correct_record,
    make_ref,
    memory_read,
    utc_now,
)

BASE_FIELDS = {"memory_id", "type", "created_at_utc", "source", "tags", "text", "refs", "hash"}
RECEIPT_KEYS = {
    "kind",
    "memory_id",
    "store_path",
    "record_hash",
    "type",
    "created_at_utc",
    "line_bytes",
    "offset",
}
FIELDS: dict[str, Any] = {
    "type": "episodic",
    "created_at_utc": "2025-01-06T09:00:00Z",
    "source": "user",
    "text": "Walkthrough with Maya: quote due Friday.",
    "tags": ["kitchen", "meeting"],
    "refs": [make_ref("run_id", "run-2025-01-06-001")],
}


def jcs_sha(value: Any) -> str:
    """SHA-256 hex of the RFC 8785 bytes, computed without the reference's helpers."""
    return hashlib.sha256(rfc8785.dumps(value)).hexdigest()


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


@pytest.fixture
def writer(tmp_path: Path) -> StoreWriter:
    return StoreWriter(tmp_path, ledger="ledger.jsonl")


class TestBuildRecord:
    def test_has_spec005_base_fields_and_ts_utc(self) -> None:
        """A record carries the eight SPEC-005 base fields plus ts_utc = created_at_utc."""
        record = build_record(**FIELDS)
        assert set(record) == BASE_FIELDS | {"ts_utc"}
        assert record["ts_utc"] == record["created_at_utc"]

    def test_line_is_canonical(self) -> None:
        """The appended line is the RFC 8785 canonical form of the record plus one LF."""
        record = build_record(**FIELDS)
        assert writer_module.record_line(record) == rfc8785.dumps(record) + b"\n"

    def test_hash_is_jcs_of_record_without_hash(self) -> None:
        """INT-47: hash = sha256 hex of JCS(record minus hash), computed before it is added."""
        record = build_record(**FIELDS)
        body = {k: v for k, v in record.items() if k != "hash"}
        assert record["hash"] == jcs_sha(body)

    def test_memory_id_is_deterministic(self) -> None:
        """The same content at the same instant always gets the same memory_id."""
        assert build_record(**FIELDS)["memory_id"] == build_record(**FIELDS)["memory_id"]

    def test_memory_id_format(self) -> None:
        """memory_id = type prefix + first 16 hex of sha256(JCS(content fields))."""
        record = build_record(**FIELDS)
        content = {k: record[k] for k in ("type", "created_at_utc", "source", "tags", "text")}
        content["refs"] = record["refs"]
        assert re.fullmatch(r"epi-[0-9a-f]{16}", record["memory_id"])
        assert record["memory_id"] == "epi-" + jcs_sha(content)[:16]

    @pytest.mark.parametrize(
        ("change", "value"),
        [
            ("text", "Walkthrough with Maya: quote due Monday."),
            ("created_at_utc", "2025-01-06T09:00:01Z"),
            ("source", "system"),
            ("tags", ["kitchen"]),
            ("refs", []),
        ],
    )
    def test_memory_id_depends_on_content(self, change: str, value: Any) -> None:
        """Changing any content field changes the memory_id."""
        assert (
            build_record(**FIELDS | {change: value})["memory_id"]
            != build_record(**FIELDS)["memory_id"]
        )

    @pytest.mark.parametrize(
        ("kind", "prefix"), [("episodic", "epi"), ("procedural", "pro"), ("semantic", "sem")]
    )
    def test_prefix_per_type(self, kind: str, prefix: str) -> None:
        """Each store type has its own memory_id prefix."""
        assert build_record(**FIELDS | {"type": kind})["memory_id"].startswith(prefix + "-")

    def test_tags_stored_as_spec006_normalizes_them(self) -> None:
        """Tags are lowercased, deduplicated and sorted by code point (INT-25)."""
        record = build_record(**FIELDS | {"tags": ["Work", "work", "B", "a"]})
        assert record["tags"] == ["a", "b", "work"]

    @pytest.mark.parametrize(
        ("given", "stored"),
        [
            ("2025-01-06T09:00:00+00:00", "2025-01-06T09:00:00Z"),
            ("2025-01-06T09:00:00.120Z", "2025-01-06T09:00:00.12Z"),
            ("2025-01-06T09:00:00.000Z", "2025-01-06T09:00:00Z"),
        ],
    )
    def test_timestamp_stored_in_normal_form(self, given: str, stored: str) -> None:
        """created_at_utc and ts_utc are stored in the INT-21 normal form."""
        record = build_record(**FIELDS | {"created_at_utc": given})
        assert record["created_at_utc"] == record["ts_utc"] == stored

    @pytest.mark.parametrize(
        ("change", "value", "field"),
        [
            ("type", "note", "type"),
            ("source", "agent", "source"),
            ("text", None, "text"),
            ("created_at_utc", "2025-01-06T10:00:00+01:00", "created_at_utc"),
            ("created_at_utc", "2025-01-06T09:00:00", "created_at_utc"),
            ("created_at_utc", "2025-02-29T09:00:00Z", "created_at_utc"),
            ("tags", "kitchen", "tags"),
            ("tags", ["kitchen", 3], "tags[1]"),
            ("refs", ["run-2025-01-06-001"], "refs[0]"),
            ("refs", [{"kind": "corrects"}], "refs[0]"),
            ("text", "lone \ud800 surrogate", "record"),
        ],
    )
    def test_invalid_fields_refused(self, change: str, value: Any, field: str) -> None:
        """A bad field raises StoreWriteError(invalid_record) naming the field."""
        with pytest.raises(StoreWriteError) as caught:
            build_record(**FIELDS | {change: value})
        assert (caught.value.code, caught.value.field) == ("invalid_record", field)

    def test_never_reads_the_clock(
        self, writer: StoreWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Appending works with the clock module removed: created_at_utc comes from the caller."""
        monkeypatch.setattr(writer_module, "datetime", None)
        writer.append("s.jsonl", **FIELDS)
        assert (tmp_path / "s.jsonl").stat().st_size > 0

    def test_utc_now_helper(self) -> None:
        """utc_now() is the explicit clock helper and returns a valid INT-21 timestamp."""
        now = utc_now()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now)
        assert build_record(**FIELDS | {"created_at_utc": now})["created_at_utc"] == now


class TestAppend:
    def test_existing_bytes_untouched(self, writer: StoreWriter, tmp_path: Path) -> None:
        """Appending never changes the bytes already in the store (append-only)."""
        store = tmp_path / "s.jsonl"
        before = b'{"foreign":"line, kept as is"}\n' + writer_module.record_line(
            build_record(**FIELDS | {"text": "older"})
        )
        store.write_bytes(before)
        receipt = writer.append("s.jsonl", **FIELDS)
        after = store.read_bytes()
        assert after[: len(before)] == before
        assert len(after) == len(before) + receipt.line_bytes
        assert receipt.offset == len(before)

    def test_open_flags_append_never_truncate(
        self, writer: StoreWriter, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Every write fd is opened O_WRONLY|O_APPEND|O_CREAT and never O_TRUNC."""
        seen: list[int] = []
        real_open = os.open

        def spy(path: Any, flags: int, *args: Any) -> int:
            seen.append(flags)
            return real_open(path, flags, *args)

        monkeypatch.setattr("reference._writer.os.open", spy)
        writer.append("s.jsonl", **FIELDS)
        writes = [f for f in seen if f & (os.O_WRONLY | os.O_RDWR)]
        assert len(writes) == 2  # the store and the ledger
        for flags in writes:
            assert flags & os.O_APPEND
            assert flags & os.O_CREAT
            assert flags & os.O_WRONLY
            assert not flags & os.O_TRUNC

    def test_one_write_and_fsync_per_file(
        self, writer: StoreWriter, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """One os.write of the whole line per file, each followed by an fsync."""
        calls: list[tuple[str, int]] = []
        real_write, real_fsync = os.write, os.fsync

        def write_spy(fd: int, data: Any) -> int:
            calls.append(("write", len(data)))
            return real_write(fd, data)

        def fsync_spy(fd: int) -> None:
            calls.append(("fsync", fd))
            real_fsync(fd)

        monkeypatch.setattr("reference._writer.os.write", write_spy)
        monkeypatch.setattr("reference._writer.os.fsync", fsync_spy)
        receipt = writer.append("s.jsonl", **FIELDS)
        kinds = [kind for kind, _ in calls]
        # store: write, fsync, fsync(dir: new file); ledger: write, fsync, fsync(dir)
        assert kinds.count("write") == 2
        assert calls[0] == ("write", receipt.line_bytes)
        assert kinds[1] == "fsync"

    def test_refuses_unterminated_store(self, writer: StoreWriter, tmp_path: Path) -> None:
        """A store whose last line has no LF is refused: the append would merge two lines."""
        store = tmp_path / "s.jsonl"
        store.write_bytes(b'{"memory_id":"x","text":"no newline"}')
        with pytest.raises(StoreWriteError) as caught:
            writer.append("s.jsonl", **FIELDS)
        assert caught.value.code == "store_unterminated"
        assert store.read_bytes() == b'{"memory_id":"x","text":"no newline"}'
        assert not (tmp_path / "ledger.jsonl").exists()

    def test_refuses_unterminated_ledger_before_writing(
        self, writer: StoreWriter, tmp_path: Path
    ) -> None:
        """A ledger without a final LF is refused before the record is written."""
        (tmp_path / "ledger.jsonl").write_bytes(b'{"kind":"memory.write"}')
        with pytest.raises(StoreWriteError) as caught:
            writer.append("s.jsonl", **FIELDS)
        assert (caught.value.code, caught.value.field) == ("store_unterminated", "ledger.jsonl")
        assert (tmp_path / "s.jsonl").read_bytes() == b""

    def test_duplicate_memory_id_refused(self, writer: StoreWriter, tmp_path: Path) -> None:
        """SPEC-005 INTEGRITY 1: the same record twice is refused, the store unchanged."""
        writer.append("s.jsonl", **FIELDS)
        before = (tmp_path / "s.jsonl").read_bytes()
        with pytest.raises(StoreWriteError) as caught:
            StoreWriter(tmp_path, ledger="ledger.jsonl").append("s.jsonl", **FIELDS)
        assert caught.value.code == "duplicate_memory_id"
        assert (tmp_path / "s.jsonl").read_bytes() == before
        assert len(lines_of(tmp_path / "ledger.jsonl")) == 1

    def test_sees_other_writers_appends(self, tmp_path: Path) -> None:
        """A writer re-reads what another writer appended before checking uniqueness."""
        first = StoreWriter(tmp_path, ledger="ledger.jsonl")
        second = StoreWriter(tmp_path, ledger="ledger.jsonl")
        first.append("s.jsonl", **FIELDS | {"text": "warm the index"})
        second.append("s.jsonl", **FIELDS)
        with pytest.raises(StoreWriteError):
            first.append("s.jsonl", **FIELDS)

    def test_written_store_passes_store_check(self, writer: StoreWriter, tmp_path: Path) -> None:
        """Records written by the writer pass every SPEC-005, SPEC-006 and cross-spec check."""
        for i in range(5):
            writer.append("episodic.jsonl", **FIELDS | {"text": f"event {i}"})
        report = check_store(str(tmp_path / "episodic.jsonl"))
        assert report.violations == 0
        assert {line.spec006.verdict for line in report.lines} == {"valid"}

    def test_reference_reader_accepts_every_record(
        self, writer: StoreWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """memory.read selects or budget-drops every written record, never invalid_record_schema."""
        for i in range(3):
            writer.append("s.jsonl", **FIELDS | {"text": f"kitchen event {i}"})
        monkeypatch.chdir(tmp_path)
        result = memory_read(
            {"query": "kitchen", "store_paths": ["s.jsonl"], "budget": {"max_excerpt_tokens": 99}}
        )
        assert len(result["package"]["selection"]["selected"]) == 3

    def test_module_level_append_record(self, tmp_path: Path) -> None:
        """append_record is the one-shot form of StoreWriter.append."""
        receipt = append_record(
            str(tmp_path / "s.jsonl"), ledger_path=str(tmp_path / "l.jsonl"), **FIELDS
        )
        assert isinstance(receipt, MemoryReceipt)
        assert orjson.loads((tmp_path / "l.jsonl").read_bytes())["memory_id"] == receipt.memory_id


class TestReceipt:
    def test_receipt_is_metadata_only(self, writer: StoreWriter, tmp_path: Path) -> None:
        """The ledger line has exactly the metadata keys: no text, tags or refs."""
        writer.append("s.jsonl", **FIELDS)
        (entry,) = [orjson.loads(line) for line in lines_of(tmp_path / "ledger.jsonl")]
        assert set(entry) == RECEIPT_KEYS
        assert entry["kind"] == "memory.write"
        ledger = (tmp_path / "ledger.jsonl").read_bytes()
        for content in (FIELDS["text"], "kitchen", "run-2025-01-06-001"):
            assert content.encode() not in ledger

    def test_receipt_points_at_its_line(self, writer: StoreWriter, tmp_path: Path) -> None:
        """offset and line_bytes locate the record; record_hash is its SPEC-005 hash."""
        for i in range(3):
            writer.append("s.jsonl", **FIELDS | {"text": f"event {i}"})
        data = (tmp_path / "s.jsonl").read_bytes()
        for line in lines_of(tmp_path / "ledger.jsonl"):
            entry = orjson.loads(line)
            record = orjson.loads(data[entry["offset"] : entry["offset"] + entry["line_bytes"]])
            assert record["memory_id"] == entry["memory_id"]
            assert record["hash"] == entry["record_hash"]
            assert (record["type"], record["created_at_utc"]) == (
                entry["type"],
                entry["created_at_utc"],
            )
            assert entry["store_path"] == "s.jsonl"

    def test_ledger_is_canonical_jsonl(self, writer: StoreWriter, tmp_path: Path) -> None:
        """Each ledger line is the RFC 8785 form of its receipt."""
        receipt = writer.append("s.jsonl", **FIELDS)
        assert (tmp_path / "ledger.jsonl").read_bytes() == rfc8785.dumps(receipt.to_json()) + b"\n"


class TestCorrection:
    def test_correction_is_a_new_record(self, writer: StoreWriter, tmp_path: Path) -> None:
        """A correction appends a record whose first ref is {kind: corrects, memory_id: old}."""
        old = writer.append("s.jsonl", **FIELDS)
        before = (tmp_path / "s.jsonl").read_bytes()
        new = writer.correct(
            "s.jsonl",
            old.memory_id,
            **FIELDS | {"text": "quote due Monday", "created_at_utc": "2025-01-07T09:00:00Z"},
        )
        data = (tmp_path / "s.jsonl").read_bytes()
        assert data.startswith(before)
        record = orjson.loads(data[len(before) :])
        assert record["memory_id"] == new.memory_id != old.memory_id
        assert record["refs"][0] == {"kind": "corrects", "memory_id": old.memory_id}
        assert check_store(str(tmp_path / "s.jsonl")).violations == 0

    def test_missing_id_refused(self, writer: StoreWriter, tmp_path: Path) -> None:
        """Correcting an id the store does not hold raises unknown_memory_id and writes nothing."""
        writer.append("s.jsonl", **FIELDS)
        before = (tmp_path / "s.jsonl").read_bytes(), (tmp_path / "ledger.jsonl").read_bytes()
        with pytest.raises(StoreWriteError) as caught:
            writer.correct("s.jsonl", "epi-0000000000000000", **FIELDS | {"text": "fix"})
        assert caught.value.to_json()["code"] == "unknown_memory_id"
        assert caught.value.field == "refs"
        after = (tmp_path / "s.jsonl").read_bytes(), (tmp_path / "ledger.jsonl").read_bytes()
        assert after == before

    def test_id_in_another_store_refused(self, writer: StoreWriter) -> None:
        """A correction must name a memory_id of the same store."""
        other = writer.append("a.jsonl", **FIELDS)
        writer.append("b.jsonl", **FIELDS | {"text": "b"})
        with pytest.raises(StoreWriteError):
            writer.correct("b.jsonl", other.memory_id, **FIELDS | {"text": "fix"})

    def test_manual_corrects_ref_checked_too(self, writer: StoreWriter) -> None:
        """A corrects ref passed to append is checked like one made by correct."""
        refs = [{"kind": "corrects", "memory_id": "epi-0000000000000000"}]
        with pytest.raises(StoreWriteError):
            writer.append("s.jsonl", **FIELDS | {"refs": refs})

    def test_module_level_correct_record(self, tmp_path: Path) -> None:
        """correct_record is the one-shot form and refuses a missing id on an empty store."""
        store, ledger = str(tmp_path / "s.jsonl"), str(tmp_path / "l.jsonl")
        old = append_record(store, ledger_path=ledger, **FIELDS)
        correct_record(store, old.memory_id, ledger_path=ledger, **FIELDS | {"text": "fix"})
        with pytest.raises(StoreWriteError):
            correct_record(str(tmp_path / "t.jsonl"), old.memory_id, ledger_path=ledger, **FIELDS)


def python_json(value: Any, *, ascii_only: bool = False) -> bytes:
    """Python's json.dumps form, computed here without the writer's helpers (INT-47)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii_only, allow_nan=False
    ).encode()


def as_double(digits: str) -> int | float:
    """INT-17: integers beyond 2**53 - 1 are read as the nearest double."""
    value = int(digits)
    return value if abs(value) <= 2**53 - 1 else float(value)


#: refs holding what RFC 8785 and Python's json.dumps write differently (INT-47).
DIFFERING = [{"kind": "seq", "value": 12345678901234567890, "w": 1.0, "e": 1e16, "t": 1e-07}]


class TestHashForms:
    def test_default_is_jcs(self, writer: StoreWriter, tmp_path: Path) -> None:
        """Without hash_form the writer writes RFC 8785, as before."""
        writer.append("s.jsonl", **FIELDS | {"refs": DIFFERING})
        (line,) = lines_of(tmp_path / "s.jsonl")
        record = json.loads(line, parse_int=as_double)  # INT-17: RFC 8785 reads doubles
        assert line == rfc8785.dumps(record) + b"\n"
        assert record["hash"] == jcs_sha({k: v for k, v in record.items() if k != "hash"})
        assert b"12345678901234567000" in line

    @pytest.mark.parametrize("ascii_only", [False, True], ids=["python-json", "python-json-ascii"])
    def test_python_forms(self, tmp_path: Path, ascii_only: bool) -> None:
        """hash_form="python-json" (or -ascii): line, hash and memory_id are json.dumps forms."""
        form = "python-json-ascii" if ascii_only else "python-json"
        writer = StoreWriter(tmp_path, ledger="ledger.jsonl", hash_form=form)
        receipt = writer.append("s.jsonl", **FIELDS | {"text": "café", "refs": DIFFERING})
        (line,) = lines_of(tmp_path / "s.jsonl")
        record = json.loads(line)
        assert line == python_json(record, ascii_only=ascii_only) + b"\n"
        body = {k: v for k, v in record.items() if k != "hash"}
        assert record["hash"] == receipt.record_hash
        assert (
            record["hash"] == hashlib.sha256(python_json(body, ascii_only=ascii_only)).hexdigest()
        )
        assert record["refs"][0]["value"] == 12345678901234567890  # digits kept
        content = {k: record[k] for k in ("type", "created_at_utc", "source", "tags", "text")}
        content["refs"] = record["refs"]
        digest = hashlib.sha256(python_json(content, ascii_only=ascii_only)).hexdigest()
        assert record["memory_id"] == "epi-" + digest[:16]

    def test_checker_recognizes_and_keeps_the_store_consistent(self, tmp_path: Path) -> None:
        """A store started by a python-json writer and continued by StoreWriter(hash_form=
        "python-json") passes store check, consistently in that form."""
        store = tmp_path / "episodic.jsonl"
        first = {
            "memory_id": "epi-old",
            "type": "episodic",
            "created_at_utc": "2025-01-05T09:00:00Z",
            "source": "user",
            "tags": [],
            "text": "started elsewhere",
            "refs": DIFFERING,
        }
        digest = hashlib.sha256(python_json(first)).hexdigest()
        store.write_bytes(python_json(first | {"hash": digest}) + b"\n")
        writer = StoreWriter(tmp_path, ledger="ledger.jsonl", hash_form="python-json")
        for i in range(3):
            writer.append("episodic.jsonl", **FIELDS | {"text": f"event {i}", "refs": DIFFERING})
        report = check_store(str(store))
        assert report.violations == 0
        assert report.summary.consistent_forms[0] == "python-json"
        assert "jcs" not in report.summary.consistent_forms
        assert {f.code for x in report.lines for f in x.notices} == {
            "hash-alternative-form",
            "ts-utc-missing",
        }

    def test_big_integers_rfc8785_cannot_tell_apart_get_two_ids(self, tmp_path: Path) -> None:
        """In python-json form two integers beyond 2**53 that are one double stay two memories."""
        writer = StoreWriter(tmp_path, ledger="ledger.jsonl", hash_form="python-json")
        a = writer.append("s.jsonl", **FIELDS | {"refs": [{"kind": "n", "value": 2**60}]})
        b = writer.append("s.jsonl", **FIELDS | {"refs": [{"kind": "n", "value": 2**60 + 1}]})
        assert a.memory_id != b.memory_id
        assert a.record_hash != b.record_hash

    @pytest.mark.parametrize(
        ("refs", "field"),
        [
            ([{"kind": "x", "value": float("nan")}], "record"),
            ([{"kind": "x", "value": "\ud800"}], "record"),
        ],
        ids=["nan", "lone-surrogate"],
    )
    def test_python_form_still_refuses_what_json_cannot_hold(
        self, tmp_path: Path, refs: list[dict[str, Any]], field: str
    ) -> None:
        """NaN and lone surrogates are refused in every form, and nothing is written."""
        writer = StoreWriter(tmp_path, ledger="ledger.jsonl", hash_form="python-json")
        with pytest.raises(StoreWriteError) as caught:
            writer.append("s.jsonl", **FIELDS | {"refs": refs})
        assert (caught.value.code, caught.value.field) == ("invalid_record", field)
        assert not (tmp_path / "s.jsonl").exists()

    def test_unknown_form_refused(self, tmp_path: Path) -> None:
        """An unknown hash_form raises StoreWriteError(invalid_option) before anything."""
        with pytest.raises(StoreWriteError) as caught:
            StoreWriter(tmp_path, hash_form="yaml")
        assert (caught.value.code, caught.value.field) == ("invalid_option", "hash_form")
        with pytest.raises(StoreWriteError):
            build_record(**FIELDS, hash_form="python")

    def test_module_level_helpers_take_the_form(self, tmp_path: Path) -> None:
        """append_record and correct_record pass hash_form through."""
        store, ledger = str(tmp_path / "s.jsonl"), str(tmp_path / "l.jsonl")
        old = append_record(store, ledger_path=ledger, hash_form="python-json", **FIELDS)
        correct_record(store, old.memory_id, ledger_path=ledger, hash_form="python-json", **FIELDS)
        for line in lines_of(tmp_path / "s.jsonl"):
            assert line == python_json(json.loads(line)) + b"\n"


WORKER = textwrap.dedent(
    """
    import os, sys, time
    sys.path.insert(0, sys.argv[1])
    from reference import StoreWriter
    root, worker, count, go = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    writer = StoreWriter(root, ledger="ledger.jsonl")
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(count):
        writer.append(
            "episodic.jsonl",
            type="episodic",
            created_at_utc="2025-01-06T09:00:00Z",
            source="system",
            text=f"worker {worker} item {i} " + "x" * (i % 97),
            tags=[f"worker-{worker}"],
            refs=[{"kind": "run_id", "value": f"run-{worker}-{i}"}],
        )
    """
)


class TestConcurrentWriters:
    WORKERS = 8
    APPENDS = 200

    def test_parallel_processes_never_interleave_or_lose_lines(self, tmp_path: Path) -> None:
        """8 processes x 200 appends: 1600 whole canonical lines in writer order; ledger agrees."""
        go = tmp_path / "go"
        args = [str(self.APPENDS), str(go)]
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", WORKER, str(REPO), str(tmp_path), str(w), *args]
            )
            for w in range(self.WORKERS)
        ]
        time.sleep(0.3)  # let every worker import and wait on the start signal
        go.touch()
        assert [p.wait(timeout=300) for p in procs] == [0] * self.WORKERS
        total = self.WORKERS * self.APPENDS
        raw = lines_of(tmp_path / "episodic.jsonl")
        assert len(raw) == total
        # Every line is exactly one whole canonical record: no interleaving, no torn line.
        records = [orjson.loads(line) for line in raw]
        assert all(
            line == rfc8785.dumps(rec) + b"\n" for line, rec in zip(raw, records, strict=True)
        )
        assert len({rec["memory_id"] for rec in records}) == total
        # The writers really ran at once: their lines alternate in the file.
        switches = sum(a["tags"] != b["tags"] for a, b in itertools.pairwise(records))
        assert switches >= self.WORKERS
        # Each writer's appends keep their order; none is lost.
        for w in range(self.WORKERS):
            mine = [r["text"].split()[3] for r in records if r["tags"] == [f"worker-{w}"]]
            assert mine == [str(i) for i in range(self.APPENDS)]
        # The independent checker agrees.
        assert check_store(str(tmp_path / "episodic.jsonl")).violations == 0
        # The ledger lists the writes in store order, each pointing at its own line.
        entries = [orjson.loads(line) for line in lines_of(tmp_path / "ledger.jsonl")]
        assert [e["memory_id"] for e in entries] == [r["memory_id"] for r in records]
        offset = 0
        for entry, line in zip(entries, raw, strict=True):
            assert (entry["offset"], entry["line_bytes"]) == (offset, len(line))
            offset += len(line)
