"""PostgreSQL for the Phase 2 tests (the engine's, tests/reference/phase2/, and the
certification's, tests/conformance/phase2/): the ``postgres_url`` fixture, and a throwaway
server started with ``initdb`` + ``pg_ctl`` on 127.0.0.1.

The server is used when ``PHASE2_POSTGRES_URL`` (``.ci/run`` starts one and exports it) is not
set. The binaries come from the Debian packages
(``/usr/lib/postgresql/<version>/bin``); as root the server runs as the ``postgres`` user
(initdb refuses root). Everything lives in a fresh temporary directory removed on stop. When
the server cannot start, :class:`PostgresUnavailable` says exactly why, and the tests skip with
that reason (never a silent pass).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

__all__ = [
    "PostgresServer",
    "PostgresUnavailable",
    "find_bin_dir",
    "fresh_schema",
    "postgres_url",
    "start_server",
]

_TIMEOUT = 60
_counter = itertools.count(1)


class PostgresUnavailable(Exception):
    """No server could be started; the message is the reason the tests report."""


def find_bin_dir() -> Path | None:
    """The newest ``/usr/lib/postgresql/*/bin`` holding initdb and pg_ctl, if any."""
    found = []
    for directory in Path("/usr/lib/postgresql").glob("*/bin"):
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            version = directory.parent.name
            found.append((int(version) if version.isdigit() else 0, directory))
    return max(found)[1] if found else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """A running server: its URL, and how to stop it."""

    url: str
    root: Path
    bin_dir: Path
    as_user: list[str]

    def stop(self) -> None:
        """Stop the server immediately and remove its directory."""
        subprocess.run(
            [
                *self.as_user,
                str(self.bin_dir / "pg_ctl"),
                "-D",
                str(self.root / "data"),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
            capture_output=True,
            timeout=_TIMEOUT,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def _run(argv: list[str], what: str) -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PostgresUnavailable(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise PostgresUnavailable(f"{what} exited {done.returncode}: {' | '.join(tail)}")


def start_server() -> PostgresServer:
    """Start a private server on a free 127.0.0.1 port; raise PostgresUnavailable with why not."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise PostgresUnavailable(
            "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin "
            "(apt-get install postgresql), and PHASE2_POSTGRES_URL is not set"
        )
    as_user: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="phase2-pg-"))
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        try:
            entry = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(root, ignore_errors=True)
            raise PostgresUnavailable("running as root and there is no postgres user") from None
        if runuser is None:
            shutil.rmtree(root, ignore_errors=True)
            raise PostgresUnavailable("running as root and runuser is missing")
        os.chown(root, entry.pw_uid, entry.pw_gid)
        as_user = [runuser, "-u", "postgres", "--"]
    port = _free_port()
    data, log = root / "data", root / "server.log"
    try:
        _run(
            [
                *as_user,
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            "initdb",
        )
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off"
        _run(
            [
                *as_user,
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(log),
                "-o",
                options,
                "-w",
                "-t",
                str(_TIMEOUT),
                "start",
            ],
            "pg_ctl start",
        )
    except PostgresUnavailable:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return PostgresServer(
        f"postgresql://postgres@127.0.0.1:{port}/postgres", root, bin_dir, as_user
    )


def fresh_schema(postgres_url: str) -> str:
    """A URL whose connections see a new, empty schema only (search_path), for isolation."""
    import psycopg

    name = f"p2_test_{os.getpid()}_{next(_counter)}"
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {name}")
    separator = "&" if "?" in postgres_url else "?"
    return f"{postgres_url}{separator}options={quote(f'-csearch_path={name}')}"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server URL: PHASE2_POSTGRES_URL, or a private server, or a skip with why."""
    url = os.environ.get("PHASE2_POSTGRES_URL")
    if url:
        try:
            import psycopg

            psycopg.connect(url, connect_timeout=10).close()
        except Exception as exc:
            pytest.skip(f"PHASE2_POSTGRES_URL is set but unusable: {exc}")
        yield url
        return
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        pytest.skip(f"PostgreSQL unavailable: {exc}")
    try:
        yield server.url
    finally:
        server.stop()
