"""Mutants of the behavioural MUSTs: clock, network, read-only stores, tools, streaming
(S6-DET-02/03/04, S6-SEC-01..05, S6-READ-02/03). Most change no answer; only the probes (and
the runner's store stamps) can catch them."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

from tools.mutants._patch import replace, wrap
from tools.mutants._registry import Witness, mutant

_UNIX_EPOCH_S = 62_135_596_800
_KEEP: list[bytes] = []


def _split_lf(data: bytes) -> list[bytes]:
    """Lines of ``data`` split on LF only, each keeping its LF."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    return [*out, lines[-1]] if lines[-1] else out


def _after_read(action: Any) -> None:
    """Run ``action(request, normalized store paths)`` after every successful read."""
    from reference import _controller
    from reference._paths import normalize_path

    def make(original: Any) -> Any:
        def read_package(request: Any) -> Any:
            result = original(request)
            action(request, sorted({normalize_path(p) for p in request.store_paths}))
            return result

        return read_package

    wrap(_controller, "read_package", make)


@mutant(
    "clock-local-time-zone",
    clauses=("S6-DET-02", "S6-DET-04"),
    interpretations=("INT-20",),
    probes=("clock",),
    witness=Witness(env={"TZ": "<+14>-14"}),
)
def _() -> None:
    """Record timestamps are read as local time (the TZ variable shifts every age)."""
    from reference import _records
    from reference._timestamps import parse_utc as original

    def parse(text: str) -> Any:
        parsed = original(text)
        if parsed is None:
            return None
        seconds = parsed[1] // 10**9 - _UNIX_EPOCH_S
        try:
            offset = time.localtime(seconds).tm_gmtoff
        except (OverflowError, OSError, ValueError):
            offset = 0
        return parsed[0], parsed[1] - offset * 10**9

    replace(_records, "parse_utc", parse)


@mutant(
    "store-touched",
    clauses=("S6-SEC-01", "S6-ACC-04", "S6-SEC-03"),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> None:
    """Every store's modification time is set to now after reading it."""

    def touch(request: Any, stores: list[str]) -> None:
        for store in stores:
            os.utime(store)

    _after_read(touch)


@mutant(
    "store-opened-for-append",
    clauses=("S6-SEC-03", "S6-SEC-01"),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> None:
    """Every store is opened for appending (nothing is written) after reading it."""

    def reopen(request: Any, stores: list[str]) -> None:
        for store in stores:
            with open(store, "ab"):
                pass

    _after_read(reopen)


@mutant(
    "cache-file-in-tmpdir",
    clauses=("S6-SEC-03",),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> None:
    """A cache file per request is written to the temp directory and left there."""

    def cache(request: Any, stores: list[str]) -> None:
        key = hashlib.sha256(repr(request).encode()).hexdigest()[:16]
        path = os.path.join(tempfile.gettempdir(), f"phase6-cache-{key}.json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(repr(stores))

    _after_read(cache)


@mutant(
    "tool-invoked",
    clauses=("S6-SEC-05",),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> None:
    """A helper program (`true`) is run for every request."""

    def run(request: Any, stores: list[str]) -> None:
        subprocess.run(["true"], check=False)

    _after_read(run)


@mutant(
    "network-telemetry",
    clauses=("S6-DET-03", "S6-SEC-04"),
    probes=("network",),
    effect="side-effect",
)
def _() -> None:
    """A telemetry datagram is sent to 127.0.0.1:9 for every request (failures ignored)."""

    def send(request: Any, stores: list[str]) -> None:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.sendto(b"memory.read", ("127.0.0.1", 9))
        except OSError:
            pass

    _after_read(send)


@mutant(
    "needs-loopback-network",
    clauses=("S6-DET-03", "S6-SEC-04"),
    probes=("network",),
    effect="side-effect",
)
def _() -> None:
    """Every request makes a loopback TCP connection (it fails where there is no network)."""

    def connect(request: Any, stores: list[str]) -> None:
        with (
            socket.create_server(("127.0.0.1", 0)) as server,
            socket.create_connection(server.getsockname(), timeout=5),
        ):
            pass

    _after_read(connect)


@mutant(
    "store-read-whole",
    clauses=("S6-READ-02",),
    probes=("streaming",),
    effect="side-effect",
    witness=Witness(big_store=True),
)
def _() -> None:
    """Each store is read into memory whole (and its lines kept) before records are parsed."""
    from reference import _package

    def iter_lines(
        path: str, index: int, start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, bytes]]:
        with open(path, "rb") as handle:
            data = handle.read()
        lines = _split_lf(data[start:end])
        _KEEP[:] = lines
        offset = start
        for line in lines:
            if line.strip(b" \t\r\n"):
                yield offset, line
            offset += len(line)

    replace(_package, "iter_lines", iter_lines)


@mutant(
    "lines-split-per-block",
    clauses=("S6-READ-03", "S6-READ-02"),
    probes=("streaming", "environment"),
    witness=Witness(long_lines=True),
)
def _() -> None:
    """The store is read in 64 KiB blocks and each block is split on its own: a line crossing a
    block boundary becomes two broken lines."""
    from reference import _package

    block = 65_536

    def iter_lines(
        path: str, index: int, start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, bytes]]:
        with open(path, "rb") as handle:
            handle.seek(start)
            offset = start
            while end is None or offset < end:
                data = handle.read(block)
                if not data:
                    break
                for piece in _split_lf(data):
                    if piece.strip(b" \t\r\n"):
                        yield offset, piece
                    offset += len(piece)

    replace(_package, "iter_lines", iter_lines)
