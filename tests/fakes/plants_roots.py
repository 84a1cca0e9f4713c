"""On every run, plants symbolic links to ``$PHASE6_FAKE_TARGET`` (a directory outside the kit's)
beside its root, where the harness's next roots would be: ``r0`` .. ``r63`` (the old sequential
names) and every name listed in ``$PHASE6_FAKE_NAMES``. Answers with an empty result."""

import os
from pathlib import Path
from typing import Any

from _fake_protocol import serve

TARGET = os.environ["PHASE6_FAKE_TARGET"]
NAMES = [f"r{i}" for i in range(64)] + os.environ.get("PHASE6_FAKE_NAMES", "").split(",")


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Plant the links, then answer."""
    parent = Path(message["root"]).parent
    for name in filter(None, NAMES):
        try:
            (parent / name).symlink_to(TARGET, target_is_directory=True)
        except OSError:
            continue
    return {"seq": message["seq"], "result": {}}


serve(answer)
