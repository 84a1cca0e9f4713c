"""What every probe shares: the launcher, a private temp directory, the baseline run and the
traced run (each computed once, on first use)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from conformance.probes import _tools, _workspace
from conformance.probes._launch import Launcher, Replies, run_requests
from conformance.probes._trace import Trace, trace_requests

__all__ = ["ProbeContext"]


class ProbeContext:
    """One probe session against one implementation. Use as a context manager."""

    def __init__(self, launcher: Launcher, *, temp_parent: str | None = None):
        self.launcher = launcher
        self.workdir = Path(tempfile.mkdtemp(prefix="phase6-probes-", dir=temp_parent))
        self._baseline: tuple[Path, Replies] | None = None
        self._trace: Trace | None = None
        self._count = 0

    def __enter__(self) -> ProbeContext:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the temp directory (read-only trees included)."""
        if self.workdir.exists():
            for path in (self.workdir, *self.workdir.rglob("*")):
                if path.is_dir() and not path.is_symlink():
                    path.chmod(0o755)
            shutil.rmtree(self.workdir, ignore_errors=True)

    def fresh_dir(self, name: str) -> Path:
        """A new, empty directory for one check (``<n>-<name>``)."""
        self._count += 1
        path = self.workdir / f"{self._count:02d}-{name}"
        path.mkdir(parents=True)
        return path

    def baseline(self) -> tuple[Path, Replies]:
        """The workspace and every request answered once under the plain environment."""
        if self._baseline is None:
            root = _workspace.build(self.fresh_dir("baseline") / "root")
            self._baseline = root, run_requests(self.launcher, "baseline", _workspace.plan(root))
        return self._baseline

    def trace(self) -> Trace | None:
        """Every request on a read-only workspace, under strace (``None`` without strace).

        HOME and TMPDIR point at fresh empty directories, kept beside the workspace so the
        read-only probe can check that nothing was created there either.
        """
        tool = _tools.strace()
        if not tool.available:
            return None
        if self._trace is None:
            base = self.fresh_dir("trace")
            root = _workspace.build(base / "root")
            home, tmp = base / "home", base / "tmp"
            home.mkdir()
            tmp.mkdir()
            _workspace.make_read_only(root)
            self._trace = trace_requests(
                self.launcher,
                tool.prefix,
                _workspace.plan(root),
                root,
                base / "logs",
                env={"HOME": str(home), "TMPDIR": str(tmp)},
            )
        return self._trace
