"""Answers correctly, but on the trigger vector tries to leave its sandbox (argv[2] says how):

- ``connect PORT``: opens a TCP connection to ``127.0.0.1:PORT`` (a listener of the test) and
  sends a line;
- ``write DIR``: writes ``DIR/PWNED.txt``, outside its vector root;
- ``daemon PATH TOKEN``: forks a detached daemon (``setsid``, stdio closed, ``TOKEN`` on its
  command line) that sleeps two seconds, then writes ``PATH`` (whole: it writes a sibling
  and renames it, so a reader never sees the file half written).

A failed attempt is answered as an internal error carrying the exception, so the report shows
what stopped it; a successful one is answered correctly (the attack left no trace in the
reply)."""

import os
import socket
import subprocess
import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

MODE, ARGS = sys.argv[2], sys.argv[3:]
DAEMON = (
    "import os, sys, time; time.sleep(2); part = sys.argv[1] + '.part'\n"
    "with open(part, 'w') as handle: handle.write('the daemon lived on')\n"
    "os.replace(part, sys.argv[1])"
)


def escape() -> None:
    """The attempt of ``MODE``; raises when it is stopped."""
    if MODE == "connect":
        with socket.create_connection(("127.0.0.1", int(ARGS[0])), timeout=2) as connection:
            connection.sendall(b"escaped\n")
    elif MODE == "write":
        with open(os.path.join(ARGS[0], "PWNED.txt"), "w", encoding="utf-8") as handle:
            handle.write("written from inside the sandbox\n")
    elif MODE == "daemon":
        subprocess.Popen(
            [sys.executable, "-c", DAEMON, ARGS[0], ARGS[1]],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
        )
    else:
        raise ValueError(f"unknown mode {MODE!r}")


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Try to escape on the trigger query."""
    if message["request"]["query"] == TRIGGER:
        try:
            escape()
        except OSError as exc:
            error = f"escape by {MODE} stopped: {type(exc).__name__}: {exc}"
            return {"seq": message["seq"], "internal_error": {"message": error}}
    return lookup(message)


serve(answer)
