"""Headless Chromium from the distribution (``apt-get install -y chromium``), as the browser
tests of the site and of report.html drive it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

#: The browser, or None where it is not installed (the tests then skip saying so).
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: Why a browser test skips without it.
NOT_INSTALLED = "chromium is not installed (Debian: apt-get install -y chromium)"


def chromium(
    url: str,
    profile_dir: Path,
    *options: str,
    window: tuple[int, int] = (1400, 1000),
    virtual_time_ms: int = 5000,
) -> subprocess.CompletedProcess[str]:
    """Headless Chromium on ``url`` in a ``window``-sized window, its scripts given
    ``virtual_time_ms`` of virtual time; the console is on stderr."""
    assert CHROMIUM is not None
    return subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--enable-logging=stderr", "--v=0", f"--virtual-time-budget={virtual_time_ms}",
            f"--user-data-dir={profile_dir}", f"--window-size={window[0]},{window[1]}",
            *options, url,
        ],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
