"""The reference Phase 2 engine as a live service, for the tests: ``python -m reference.phase2
serve`` on a free 127.0.0.1 port, and the load, dump and job commands the http adapter names.

Shared by the engine's tests (tests/reference/phase2/test_http.py) and the certification's
(tests/conformance/phase2/).
"""

from __future__ import annotations

import contextlib
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

from paths import REPO

__all__ = ["ServiceDidNotStart", "commands", "free_port", "port_block", "serve"]

#: Seconds a server gets to answer its first connection.
START_TIMEOUT = 30.0


class ServiceDidNotStart(RuntimeError):
    """``serve`` exited, or did not accept connections in time (the message has its stderr)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def port_block(count: int) -> int:
    """A prefix P such that ports P1 to P<count> (``10 * P + worker``) are free on 127.0.0.1:
    ``http://127.0.0.1:P{worker}`` then names worker W's service (``--jobs count``)."""
    for prefix in random.sample(range(2000, 6000), 200):
        try:
            for worker in range(1, count + 1):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", prefix * 10 + worker))
        except OSError:
            continue
        return prefix
    raise ServiceDidNotStart("no block of free ports on 127.0.0.1")


def commands(db: str) -> dict[str, str]:
    """``--load``, ``--dump`` and ``--job`` for the reference engine's database at ``db``."""
    python = shlex.quote(sys.executable)
    return {
        name: f"{python} -m reference.phase2 {name} --db {shlex.quote(db)}"
        for name in ("load", "dump", "job")
    }


@contextlib.contextmanager
def serve(db: str, port: int | None = None) -> Iterator[str]:
    """Run ``serve --db db`` on ``port`` (default: a free one) of 127.0.0.1 (its own session);
    yield the base URL; stop it (SIGTERM to its group, then SIGKILL)."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "reference.phase2", "serve", "--db", db, "--port", str(port)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise ServiceDidNotStart(f"serve exited {process.returncode}: {stderr[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise ServiceDidNotStart(
                        f"serve did not listen within {START_TIMEOUT} s"
                    ) from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:  # not reaped yet: its group ID is still its own
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process.stderr:
            process.stderr.close()
