"""A hostile command for the Phase 2 http adapter's --load, --dump and --job.

    python phase2_command.py MODE [ARG...]

Modes: ``ok`` (reads stdin, exits 0, prints nothing), ``state`` (prints an empty state),
``result`` (prints a compaction result), ``hang`` (sleeps for ten minutes), ``garbage``
(prints text that is not JSON), ``deep`` (prints JSON nested 100,000 levels), ``flood``
(prints gigabytes: JSON that never ends), ``fail`` (a message on stderr, exit 3), ``orphan``
(prints an empty state and exits, leaving a child in its own session holding stdout for ten
minutes; its PID goes to ``$PHASE2_FAKE_PIDFILE``).
"""

import json
import os
import subprocess
import sys
import time

MODE = sys.argv[1]
TABLES = ("memory_summaries", "event_log", "inbox_items", "entities", "entity_links")
STATE: dict[str, list[object]] = {table: [] for table in TABLES}

if MODE == "ok":
    sys.stdin.read()
elif MODE == "state":
    print(json.dumps(STATE))
elif MODE == "result":
    sys.stdin.read()
    print(json.dumps({"retention_days": 30, "cutoff": "2024-01-01T00:00:00Z",
                      "inbox_items_removed": 0, "inbox_items_retained": 0}))  # fmt: skip
elif MODE == "hang":
    time.sleep(600)
elif MODE == "garbage":
    print("<html>this is not a state</html>")
elif MODE == "deep":
    sys.stdout.write("[" * 100_000 + "]" * 100_000 + "\n")
elif MODE == "flood":
    chunk = b'{"event_log": [' + b'{"id": 1},' * 100_000
    out = sys.stdout.buffer
    try:
        for _ in range(200_000):  # gigabytes, unless the reader stops first
            out.write(chunk)
    except BrokenPipeError:
        os._exit(0)
elif MODE == "fail":
    print("phase2_command: the database is gone", file=sys.stderr)
    sys.exit(3)
elif MODE == "orphan":
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True
    )
    with open(os.environ["PHASE2_FAKE_PIDFILE"], "w", encoding="utf-8") as handle:
        handle.write(str(child.pid))
    print(json.dumps(STATE))
    sys.stdout.flush()
    os._exit(0)
else:
    sys.exit(f"unknown mode {MODE!r}")
