"""Answers correctly, but on the trigger vector starts a child in a session of its own that
keeps the adapter's stdout and stderr open for ten minutes (``setsid sleep 600 &``), writes the
child's PID to ``$PHASE6_FAKE_PIDFILE``, then (argv[2]) ``exit``s, ``hang``s, or answers and
leaves the child behind in its own process group (``stay``, stdio closed)."""

import os
import subprocess
import sys
import time
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

MODE = sys.argv[2]
SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Leave a child behind on the trigger query."""
    if message["request"]["query"] != TRIGGER:
        return lookup(message)
    if MODE == "stay":  # a plain child in the adapter's group, holding no pipe
        child = subprocess.Popen(SLEEPER, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    else:  # setsid: out of the group, holding stdout and stderr
        child = subprocess.Popen(SLEEPER, start_new_session=True, stdin=subprocess.DEVNULL)
    with open(os.environ["PHASE6_FAKE_PIDFILE"], "w", encoding="utf-8") as handle:
        handle.write(str(child.pid))
    if MODE == "exit":
        sys.stdout.flush()
        os._exit(0)
    if MODE == "hang":
        while True:
            time.sleep(60)
    return lookup(message)


serve(answer)
