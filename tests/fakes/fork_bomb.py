"""Answers correctly, but on the trigger vector forks until a fork is refused (``argv[2]`` is
a token on its command line, which every child shares, so a test can look for survivors).

Each child waits on a pipe, holding its place, until the fake has been refused a fork; then
the fake lets them all go, waits for them, and answers an internal error naming the refusal
(``fork refused after N children: BlockingIOError: [Errno 11] ...``), so the report shows
what stopped it. It never forks more than 100000 children: past that it lets them go and
answers an internal error saying no fork was refused."""

import os
import sys
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

#: The most children it forks, refused or not (a safety net for a machine without limits).
MOST = 100_000


def fork_bomb() -> str:
    """Fork until refused (or :data:`MOST` children); what happened."""
    read_end, write_end = os.pipe()
    children: list[int] = []
    refused: OSError | None = None
    try:
        while len(children) < MOST:
            try:
                pid = os.fork()
            except OSError as exc:
                refused = exc
                break
            if pid == 0:  # the child: wait until the pipe closes, then leave quietly
                os.close(write_end)
                os.read(read_end, 1)
                os._exit(0)
            children.append(pid)
    finally:
        os.close(write_end)
        os.close(read_end)
        for pid in children:
            os.waitpid(pid, 0)
    if refused is None:
        return f"fork never refused: {len(children)} children"
    return f"fork refused after {len(children)} children: {type(refused).__name__}: {refused}"


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Fork until refused on the trigger query."""
    if message["request"]["query"] == TRIGGER:
        return {"seq": message["seq"], "internal_error": {"message": fork_bomb()}}
    return lookup(message)


if len(sys.argv) < 3:
    raise SystemExit("usage: fork_bomb.py TABLE TOKEN")
serve(answer)
