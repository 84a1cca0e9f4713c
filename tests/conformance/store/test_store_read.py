"""Streaming reads (conformance/store/_read.py): the same lines as in memory, in bounded pieces."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from paths import REPO

import conformance.store._read as read_module
from conformance.store import check_bytes, check_store
from conformance.store._check import _split
from conformance.store._read import RawLine, iter_lines, open_store

FIXTURES = REPO / "tests" / "fixtures" / "stores"

SHAPES = [
    b"",
    b"\n",
    b"\r\n",
    b"a",
    b"a\r",
    b"a\nb",
    b"a\r\nb\r\n",
    b"\n\n\n",
    b"abc\rdef\n\r\r\n",
    b'{"x":1}\n{"y":2}',
]


def lines_of(data: bytes, tmp_path: Path, limit: int = 1 << 20) -> list[RawLine]:
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    opened = open_store(str(path))
    assert not isinstance(opened, read_module.PathError)
    try:
        return list(iter_lines(opened.fd, opened.size, limit))
    finally:
        os.close(opened.fd)


class TestSplitting:
    @pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
    @pytest.mark.parametrize("data", SHAPES)
    def test_same_lines_as_in_memory(
        self, data: bytes, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """INT-14 splitting of a file read in chunks of any size equals the in-memory split."""
        monkeypatch.setattr(read_module, "CHUNK", chunk)
        assert lines_of(data, tmp_path) == list(_split(data))

    @pytest.mark.parametrize("seed", range(20))
    def test_random_bytes(self, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """Random bytes rich in LF and CR split alike however they are chunked."""
        rng = random.Random(seed)
        data = bytes(rng.choice(b"ab\r\n\n ") for _ in range(rng.randrange(200)))
        monkeypatch.setattr(read_module, "CHUNK", rng.randrange(1, 9))
        assert lines_of(data, tmp_path) == list(_split(data))

    @pytest.mark.parametrize("chunk", [1, 3, 64])
    def test_too_long_lines(
        self, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A line over the limit is reported with its true length and offset, not its bytes;
        the lines after it are read normally."""
        monkeypatch.setattr(read_module, "CHUNK", chunk)
        data = b"ok\n" + b"x" * 50 + b"\r\n" + b"y" * 10 + b"\n" + b"z" * 11
        got = lines_of(data, tmp_path, limit=10)
        assert got == [
            RawLine(0, b"ok", True, 2),
            RawLine(3, b"", True, 50, too_long=True),
            RawLine(55, b"y" * 10, True, 10),
            RawLine(66, b"", False, 11, too_long=True),
        ]

    def test_limit_counts_without_cr(self, tmp_path: Path) -> None:
        """A line of exactly the limit plus CR LF is within the limit."""
        assert lines_of(b"x" * 10 + b"\r\n", tmp_path, limit=10) == [
            RawLine(0, b"x" * 10, True, 10)
        ]

    def test_reads_only_the_size_when_opened(self, tmp_path: Path) -> None:
        """Bytes appended after the store was opened are not read (a snapshot by size)."""
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"a\n")
        opened = open_store(str(path))
        assert not isinstance(opened, read_module.PathError)
        with path.open("ab") as handle:
            handle.write(b"b\n")
        try:
            assert [x.data for x in iter_lines(opened.fd, opened.size)] == [b"a"]
        finally:
            os.close(opened.fd)


class TestStreamedCheck:
    @pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.jsonl")), ids=lambda p: p.name)
    def test_file_and_bytes_agree(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """check_store (streamed in small chunks) and check_bytes report the same lines."""
        monkeypatch.setattr(read_module, "CHUNK", 5)
        name = str(path)
        assert (
            check_store(name, max_line_bytes=1024).lines
            == check_bytes(path.read_bytes(), name, max_line_bytes=1024).lines
        )
