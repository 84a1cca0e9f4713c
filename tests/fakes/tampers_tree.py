"""Answers correctly, but on the trigger vector does one thing (argv[2]) to its vector root:

- ``sparse``: creates ``huge.bin``, a sparse file of 1 EiB (8 TiB where the file system caps);
- ``grow``: makes the store a sparse file of that size;
- ``many``: creates 20,000 empty files;
- ``fifo``: replaces the store with a FIFO;
- ``restore``: rewrites the store and restores its bytes and mtime (only ctime shows);
- ``rmroot``: removes the root;
- ``workspace``: replaces the directory holding the roots with a symlink to
  ``$PHASE6_FAKE_VICTIM`` (the next vector's files must not land there).
"""

import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from _fake_protocol import TRIGGER, lookup, serve

MODE = sys.argv[2]
STORE = "stores/s.jsonl"


def _sparse(path: Path) -> None:
    with open(path, "ab"):
        pass
    try:
        os.truncate(path, 1 << 60)
    except OSError:
        os.truncate(path, 1 << 43)


def tamper(root: Path) -> None:
    """Do MODE to ``root``."""
    store = root / STORE
    if MODE == "sparse":
        _sparse(root / "huge.bin")
    elif MODE == "grow":
        _sparse(store)
    elif MODE == "many":
        for index in range(20_000):
            (root / f"f{index}").touch()
    elif MODE == "fifo":
        store.unlink()
        os.mkfifo(store)
    elif MODE == "restore":
        data, info = store.read_bytes(), store.stat()
        time.sleep(0.05)  # ctime moves with the kernel's coarse clock: let a tick pass
        store.write_bytes(b"tampered\n")
        store.write_bytes(data)
        os.utime(store, ns=(info.st_atime_ns, info.st_mtime_ns))
    elif MODE == "rmroot":
        shutil.rmtree(root)
    elif MODE == "workspace":
        workspace = root.parent
        shutil.rmtree(workspace)
        os.symlink(os.environ["PHASE6_FAKE_VICTIM"], workspace)


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Answer, then tamper on the trigger query."""
    reply = lookup(message)
    if message["request"]["query"] == TRIGGER:
        tamper(Path(message["root"]))
    return reply


serve(answer)
