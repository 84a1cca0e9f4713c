"""Mutants of the behavioural MUSTs: clock, network, read-only stores, tools, streaming
(S6-DET-02/03/04, S6-SEC-01..05, S6-READ-02/03). Most change no answer; only the probes (and
the runner's store stamps) can catch them."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import tempfile
from typing import Any

from tools.mutants._registry import Reader, SourcePatch, Witness, Wrapper, mutant, patch

_UNIX_EPOCH_S = 62_135_596_800
#: The reader's block loop, from the first read to the split of a block into lines.
_SPLIT = """\
        blocks = self._blocks()
        while True:
            if carry:
                block, carry = carry, b""
            else:
                block = next(blocks, b"")
                if not block:
                    break
            start = offset
            size = len(rest) + len(block)
            lines = block.split(b"\\n")
            if rest:  # the partial line carried over joins the block's first piece
                lines[0] = rest + lines[0]
            rest = lines.pop()
"""
_SPLIT_PER_BLOCK = """\
        blocks = (  # 64 KiB blocks
            read[at : at + 65536] for read in self._blocks() for at in range(0, len(read), 65536)
        )
        while True:
            if carry:
                block, carry = carry, b""
            else:
                block = next(blocks, b"")
                if not block:
                    break
            start = offset
            size = len(rest) + len(block)
            lines = block.split(b"\\n")
            rest = b""  # each block is split on its own: a line crossing its end breaks in two
            if not lines[-1]:
                lines.pop()
"""


def _after_read(action: Any) -> Wrapper:
    """Run ``action(request, normalized store paths)`` after every successful read."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            result = read(request)
            if "receipt" in result:
                action(request, list(result["receipt"]["data"]["store_paths"]))
            return result

        return deviant

    return wrap


@mutant(
    "clock-local-time-zone",
    clauses=("S6-DET-02", "S6-DET-04"),
    interpretations=("INT-20",),
    probes=("clock",),
    witness=Witness(env={"TZ": "<+14>-14"}),
)
def _() -> SourcePatch:
    """Record timestamps are read as local time (the TZ variable shifts every age)."""
    return patch(
        "_records.py",
        "parse_ts: Final = parse_utc\n",
        "def parse_ts(text: str) -> Any:\n"
        "    import time\n"
        "\n"
        "    parsed = parse_utc(text)\n"
        "    if parsed is None:\n"
        "        return None\n"
        f"    seconds = parsed[1] // 10**9 - {_UNIX_EPOCH_S}\n"
        "    try:\n"
        "        offset = time.localtime(seconds).tm_gmtoff\n"
        "    except (OverflowError, OSError, ValueError):\n"
        "        offset = 0\n"
        "    return parsed[0], parsed[1] - offset * 10**9\n\n\n",
    )


@mutant(
    "store-touched",
    clauses=("S6-SEC-01", "S6-ACC-04", "S6-SEC-03"),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> Wrapper:
    """Every store's modification time is set to now after reading it."""

    def touch(request: Any, stores: list[str]) -> None:
        for store in stores:
            os.utime(store)

    return _after_read(touch)


@mutant(
    "store-opened-for-append",
    clauses=("S6-SEC-03", "S6-SEC-01"),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> Wrapper:
    """Every store is opened for appending (nothing is written) after reading it."""

    def reopen(request: Any, stores: list[str]) -> None:
        for store in stores:
            with open(store, "ab"):
                pass

    return _after_read(reopen)


@mutant(
    "cache-file-in-tmpdir",
    clauses=("S6-SEC-03",),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> Wrapper:
    """A cache file per request is written to the temp directory and left there."""

    def cache(request: Any, stores: list[str]) -> None:
        key = hashlib.sha256(repr(request).encode()).hexdigest()[:16]
        path = os.path.join(tempfile.gettempdir(), f"phase6-cache-{key}.json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(repr(stores))

    return _after_read(cache)


@mutant(
    "tool-invoked",
    clauses=("S6-SEC-05",),
    probes=("read-only",),
    effect="side-effect",
)
def _() -> Wrapper:
    """A helper program (`true`) is run for every request."""

    def run(request: Any, stores: list[str]) -> None:
        subprocess.run(["true"], check=False)

    return _after_read(run)


@mutant(
    "network-telemetry",
    clauses=("S6-DET-03", "S6-SEC-04"),
    probes=("network",),
    effect="side-effect",
)
def _() -> Wrapper:
    """A telemetry datagram is sent to 127.0.0.1:9 for every request (failures ignored)."""

    def send(request: Any, stores: list[str]) -> None:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.sendto(b"memory.read", ("127.0.0.1", 9))
        except OSError:
            pass

    return _after_read(send)


@mutant(
    "needs-loopback-network",
    clauses=("S6-DET-03", "S6-SEC-04"),
    probes=("network",),
    effect="side-effect",
)
def _() -> Wrapper:
    """Every request makes a loopback TCP connection (it fails where there is no network)."""

    def connect(request: Any, stores: list[str]) -> None:
        with (
            socket.create_server(("127.0.0.1", 0)) as server,
            socket.create_connection(server.getsockname(), timeout=5),
        ):
            pass

    return _after_read(connect)


@mutant(
    "store-read-whole",
    clauses=("S6-READ-02",),
    probes=("streaming",),
    effect="side-effect",
    witness=Witness(big_store=True),
)
def _() -> SourcePatch:
    """Each store is read into memory whole (and its lines kept) before records are parsed."""
    return patch(
        "_reader.py",
        "    return Store(path, index, fd, opened.st_size)\n",
        '    _open.__dict__["kept"] = os.pread(fd, opened.st_size, 0).split(b"\\n")\n'
        "    return Store(path, index, fd, opened.st_size)\n",
    )


@mutant(
    "lines-split-per-block",
    clauses=("S6-READ-03", "S6-READ-02"),
    probes=("streaming", "environment"),
    witness=Witness(long_lines=True),
)
def _() -> SourcePatch:
    """The store is read in 64 KiB blocks and each block is split on its own: a line crossing a
    block boundary becomes two broken lines."""
    return patch("_reader.py", _SPLIT, _SPLIT_PER_BLOCK)
