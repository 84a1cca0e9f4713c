"""The reference's assembly record (phase6-audit/1, specs/audit.md): emitted on demand, never
changing the package or the receipt, metadata only, with store identities and line numbers
that can be checked against the store bytes."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import orjson
import pytest

import reference._package as package_module
from conformance._schemas import schema_errors
from conformance.corpus import Vector, load_corpus, materialize
from reference import memory_read

CORPUS = load_corpus()
SCHEMA = "audit.schema.json"
#: Every tenth vector in the fast suite; the whole corpus in the slow one.
SAMPLE = CORPUS.vectors[::10]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working directory (relative store paths resolve against it)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _record(text: str, memory_id: str, **extra: Any) -> str:
    return json.dumps({"memory_id": memory_id, "text": text, **extra})


def _write(path: Path, lines: list[str], *, end: str = "\n") -> None:
    path.write_text("\n".join(lines) + end, encoding="utf-8")


def _request(*stores: str, **budget: int) -> dict[str, Any]:
    return {
        "query": "alpha beta",
        "store_paths": list(stores),
        "budget": {"max_excerpt_tokens": 8, **budget},
    }


def _same_envelope(vector: Vector) -> None:
    plain = memory_read(vector.request)
    audited = memory_read(vector.request, audit=True)
    record = audited.pop("audit")
    assert audited == plain, vector.id
    assert schema_errors(SCHEMA, record) == [], vector.id
    if "package" in plain:
        assert record["package_hash"] == plain["package"]["package_hash"]
    else:
        assert record["error"] == plain["error"]


class TestEnvelopeUnchanged:
    """Emitting the record must not change the package or the receipt."""

    @pytest.mark.parametrize("vector", SAMPLE, ids=lambda v: v.id)
    def test_sampled_corpus(self, vector: Vector, in_tmp: Path) -> None:
        """With audit=True the package and receipt (or error) equal the plain call's."""
        materialize(vector, in_tmp)
        _same_envelope(vector)

    @pytest.mark.slow
    def test_whole_corpus(self, tmp_path: Path) -> None:
        """Every vector of the corpus: same envelope with the record, and a schema-valid record."""
        previous = os.getcwd()
        try:
            for index, vector in enumerate(CORPUS.vectors):
                root = tmp_path / str(index)
                root.mkdir()
                os.chdir(root)
                materialize(vector, root)
                _same_envelope(vector)
        finally:
            os.chdir(previous)


class TestRecordContents:
    """The record's fields, worked out from the store bytes and the spec."""

    def test_store_identity_is_length_and_sha256_of_the_bytes(self, in_tmp: Path) -> None:
        """S3-RET-03: each store is recorded with its normalized path, size and SHA-256."""
        _write(in_tmp / "b.jsonl", [_record("alpha", "b1")])
        _write(in_tmp / "a.jsonl", [_record("beta", "a1"), _record("gamma", "a2")])
        record = memory_read(_request("./b.jsonl", "a.jsonl"), audit=True)["audit"]
        expected = [
            {"path": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name in ("a.jsonl", "b.jsonl")
            for data in [(in_tmp / name).read_bytes()]
        ]
        assert record["stores"] == expected

    def test_line_numbers_count_blank_and_crlf_lines(self, in_tmp: Path) -> None:
        """INT-53: lines are numbered from 1, blank lines counted, a CRLF line is one line."""
        data = (
            b"\n"
            + _record("alpha", "x1").encode()
            + b"\r\n   \n"
            + b"not json\n"
            + _record("beta", "x2").encode()
        )  # no final newline: the last line still counts
        (in_tmp / "s.jsonl").write_bytes(data)
        record = memory_read(_request("s.jsonl"), audit=True)["audit"]
        assert [(c["line"], c["memory_id"]) for c in record["candidates"]] == [
            (2, "x1"),
            (4, ""),
            (5, "x2"),
        ]
        assert record["candidates"][1]["outcome"] == "invalid_record_schema"

    def test_outcomes_match_the_package(self, in_tmp: Path) -> None:
        """Selected lines and the dropped entries of the package, in read order, with reasons."""
        _write(
            in_tmp / "s.jsonl",
            [
                _record("alpha beta one", "m1"),  # score 2
                _record("nothing", "m2"),  # score 0
                _record("alpha two", "m3"),  # score 1
                "[1]",  # invalid
            ],
        )
        result = memory_read(_request("s.jsonl", max_items=1), audit=True)
        record, package = result["audit"], result["package"]
        outcomes = [(c["memory_id"], c["outcome"]) for c in record["candidates"]]
        assert outcomes == [
            ("m1", "selected"),
            ("m2", "max_items_reached"),
            ("m3", "max_items_reached"),
            ("", "invalid_record_schema"),
        ]
        dropped = [
            (c["memory_id"], c["record_hash"], c["outcome"])
            for c in record["candidates"]
            if c["outcome"] != "selected"
        ]
        assert dropped == [
            (d["memory_id"], d["record_hash"], d["reason"]) for d in package["selection"]["dropped"]
        ]
        assert record["manifest"] == [
            {k: item[k] for k in ("memory_id", "record_hash", "store_path", "excerpt_tokens")}
            for item in package["selection"]["selected"]
        ]
        assert record["selected"] == [
            {"store": 0, "line": 1, "rank": 1, "score": 2.0, "excerpt_tokens": 4}
        ]
        assert record["stop_reason"] == "max_items_reached"

    def test_ranking_is_the_decided_prefix_with_strict_ranks(self, in_tmp: Path) -> None:
        """INT-54: ranks 1..k, equal scores in tie-break order, the budget's stopper listed."""
        _write(
            in_tmp / "s.jsonl",
            [
                _record("alpha", "m2"),  # score 1
                _record("alpha", "m1"),  # score 1, memory_id sorts first (S6-ORDER-04)
                _record("alpha beta " + "x" * 40, "m3"),  # score 2, cut to 12 tokens
            ],
        )
        record = memory_read(_request("s.jsonl", max_excerpt_tokens=12), audit=True)["audit"]
        # m3 takes the 12 tokens; m1 (2 tokens) stops selection and is the last entry listed.
        assert record["ranking"] == [
            {"store": 0, "line": 3, "rank": 1, "score": 2.0, "outcome": "selected"},
            {"store": 0, "line": 2, "rank": 2, "score": 1.0, "outcome": "budget_exhausted"},
        ]
        assert record["stop_reason"] == "budget_exhausted"
        record = memory_read(_request("s.jsonl", max_excerpt_tokens=40), audit=True)["audit"]
        assert [(r["line"], r["rank"], r["score"]) for r in record["ranking"]] == [
            (3, 1, 2.0),
            (2, 2, 1.0),
            (1, 3, 1.0),
        ]

    def test_parameters_applied(self, in_tmp: Path) -> None:
        """S3-SCORE-03: terms, weights, the recency switch as applied, half-life and now_utc."""
        _write(in_tmp / "s.jsonl", [_record("alpha", "m1", ts_utc="2026-01-01T00:00:00Z")])
        request = _request("s.jsonl")
        request["scoring"] = {"enable_recency_weight": True, "recency_half_life_days": 7}
        scoring = memory_read(request, audit=True)["audit"]["scoring"]
        assert scoring["terms"] == ["alpha", "beta"]
        assert (scoring["enable_recency_weight"], scoring["recency_applied"]) == (True, False)
        request["now_utc"] = "2026-01-08T00:00:00Z"
        record = memory_read(request, audit=True)["audit"]
        assert record["scoring"]["recency_applied"] is True
        assert record["scoring"]["recency_half_life_days"] == 7
        assert record["scoring"]["now_utc"] == "2026-01-08T00:00:00Z"
        assert record["ranking"][0]["score"] == 1.5  # base 1 + 0.5 ** (7 / 7)

    def test_trust_snapshot_identity(self, in_tmp: Path) -> None:
        """The snapshot's path, size and SHA-256 are recorded when one was used."""
        _write(in_tmp / "s.jsonl", [_record("alpha", "m1"), _record("alpha", "m2")])
        snapshot = {"format": "phase6-trust/1",
                    "entries": [{"memory_id": "m1", "classification": "malicious"}]}  # fmt: skip
        data = json.dumps(snapshot).encode()
        (in_tmp / "t.json").write_bytes(data)
        request = _request("s.jsonl")
        request["trust_filter"] = {"trust_snapshot_path": "t.json"}
        record = memory_read(request, audit=True)["audit"]
        assert record["trust_snapshot"] == {
            "path": "t.json",
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "deny_classifications": ["malicious"],
        }
        assert record["candidates"][0]["outcome"] == "trust_denied"


class TestFailureRecord:
    """S3-ERR-01/02: a failed call yields a failure record."""

    def test_missing_store(self, in_tmp: Path) -> None:
        """The request, the error, and no store read yet."""
        request = _request("missing.jsonl")
        result = memory_read(request, audit=True)
        record = result["audit"]
        assert record["outcome"] == "error"
        assert record["request"] == request
        assert record["error"] == result["error"]
        assert record["stores"] == []
        assert schema_errors(SCHEMA, record) == []

    def test_bad_snapshot_after_stores_opened(self, in_tmp: Path) -> None:
        """The stores opened before the failure are named with their size, unhashed."""
        _write(in_tmp / "s.jsonl", [_record("alpha", "m1")])
        request = _request("s.jsonl")
        request["trust_filter"] = {"trust_snapshot_path": "nope.json"}
        record = memory_read(request, audit=True)["audit"]
        size = (in_tmp / "s.jsonl").stat().st_size
        assert record["stores"] == [{"path": "s.jsonl", "bytes": size, "sha256": None}]
        assert record["error"]["code"] == "trust_snapshot_not_found"


class TestForkedReaders:
    """Large inputs are read by forked readers in chunks: the record must not change."""

    def test_chunked_record_equals_sequential(
        self, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Line numbers across chunk boundaries, hashes and outcomes equal the one-pass record."""
        lines = [_record(f"alpha {'beta ' * (i % 3)}{i}", f"m{i}") for i in range(3000)]
        lines[100] = ""
        lines[2000] = "{broken"
        _write(in_tmp / "s.jsonl", lines)
        _write(in_tmp / "t.jsonl", lines[:500])
        request = _request("s.jsonl", "t.jsonl", max_items=7)
        sequential = memory_read(request, audit=True)
        monkeypatch.setattr(package_module, "PARALLEL_MIN_BYTES", 1)
        monkeypatch.setattr(package_module, "_CHUNK_BYTES", 4096)
        monkeypatch.setattr(package_module, "_reader_count", lambda: 2)
        forked = memory_read(request, audit=True)
        assert forked == sequential
        assert sequential["audit"]["candidates"][2000]["line"] == 2002  # line 101 is blank


class TestCanary:
    """The record is metadata only: no text, excerpt, tag or ref reaches it."""

    def test_no_memory_content_in_the_record(self, in_tmp: Path) -> None:
        """Unique canary strings in text, tags and refs never appear in the serialized record."""
        canaries = {
            "text": "CANARYTEXT7f3a9",
            "tag": "canarytag5be2c1",
            "ref": "CANARYREF0d4e88",
            "refkey": "canaryrefkey91b7",
        }
        lines = [
            _record(f"alpha beta {canaries['text']} {i}", f"m{i}",
                    tags=[canaries["tag"], "alpha"], refs=[{canaries["refkey"]: canaries["ref"]}])
            for i in range(6)
        ]  # fmt: skip
        lines.append('{"memory_id": "bad", "text": "' + canaries["text"] + '", "tags": 3}')
        _write(in_tmp / "s.jsonl", lines)
        result = memory_read(_request("s.jsonl", max_excerpt_tokens=200, max_items=3), audit=True)
        excerpt = result["package"]["selection"]["selected"][0]["excerpt"]
        assert canaries["text"] in excerpt  # the package does carry the content ...
        serialized = orjson.dumps(result["audit"]).decode()
        for canary in canaries.values():
            assert canary not in serialized  # ... the record never does
        assert excerpt not in serialized
