"""The reference Phase 2 engine's ``load``, ``dump`` and ``job`` commands, slowed down and
counted: an engine whose database is expensive to fill and to read (an outside team's FastAPI +
SQLAlchemy engine took 0.66 s for a load and a dump), for the http adapter's tests and bench.

    python phase2_slow_engine.py load|dump|job --db URL [FIXTURE]

``load`` and ``dump`` sleep ``$PHASE2_SLOW_SECONDS`` (default 0.6) before doing their work;
``job`` does not. When ``$PHASE2_SLOW_LOG`` names a file, every run appends its command name to
it on a line of its own (one ``write`` in append mode: runs in parallel do not interleave).
The shipped reference stays as fast as it is: the delay lives here only.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reference.phase2.__main__ import main

COMMAND = sys.argv[1] if len(sys.argv) > 1 else ""
LOG = os.environ.get("PHASE2_SLOW_LOG")
if LOG:
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, f"{COMMAND}\n".encode())
    finally:
        os.close(fd)
if COMMAND in ("load", "dump"):
    time.sleep(float(os.environ.get("PHASE2_SLOW_SECONDS", "0.6")))
sys.exit(main(sys.argv[1:]))
