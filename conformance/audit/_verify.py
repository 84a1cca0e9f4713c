"""``audit verify``: prove, later, that a memory.read returned what its record says.

1. Every store identity is checked against the bytes found now (or at a commit): the first
   ``bytes`` bytes must hash to ``sha256``.  A longer store passes when that prefix is
   unchanged (stores are append-only, SPEC-005; INT-55) and the result says it grew; a store
   whose prefix changed fails, with the first line whose record differs from the recorded
   candidate entries.
2. The request is run again on exactly the recorded bytes (in place when nothing changed,
   else on the recorded prefixes copied into a scratch directory), by the reference (default)
   or any adapter, and the package_hash and ranking are compared.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance._errors import HarnessError
from conformance._kit import dumps, loads, read_bounded
from conformance._schemas import schema_errors
from conformance.adapters import SubprocessAdapter, open_adapter
from conformance.audit._sources import GitSource, Source
from conformance.readings import is_blank, read_line, split_lines

__all__ = [
    "AUDIT_SCHEMA",
    "StoreCheck",
    "Verification",
    "adapter_runner",
    "first_differing_line",
    "load_record",
    "reference_runner",
    "render_summary",
    "verify_record",
]

AUDIT_SCHEMA = "audit.schema.json"
#: The largest record read (a record of a 10M-record store is about 1.5 GB: raise if needed).
MAX_RECORD_BYTES = 4 << 30
#: How long the reference may take to replay a request.
REPLAY_TIMEOUT = 3600.0
#: The record members a replayed record must repeat exactly (everything the read decided).
COMPARED = (
    "query_hash",
    "stores",
    "trust_snapshot",
    "scoring",
    "budget",
    "candidates",
    "ranking",
    "stop_reason",
    "selected",
    "manifest",
    "package_hash",
)


def load_record(path: Path) -> dict[str, Any]:
    """Read and schema-check an assembly record (HarnessError: a usage error)."""
    try:
        record = loads(read_bounded(path, MAX_RECORD_BYTES))
    except OSError as exc:
        raise HarnessError(f"cannot read the record {str(path)!r}: {exc}") from None
    except ValueError as exc:
        raise HarnessError(f"{str(path)!r} is not JSON: {exc}") from None
    problems = schema_errors(AUDIT_SCHEMA, record, limit=1)
    if problems:
        pointer, text = problems[0]
        where = pointer or "/"
        raise HarnessError(f"{str(path)!r} is not a phase6-audit/1 record: {where}: {text}")
    if not isinstance(record, dict):  # pragma: no cover - the schema says object
        raise HarnessError(f"{str(path)!r} is not a JSON object")
    return record


@dataclass(frozen=True)
class StoreCheck:
    """One recorded store against the bytes found now."""

    path: str
    recorded_bytes: int
    status: str  # unchanged, grown, changed, shrunk, missing, unreadable, unhashed
    current_bytes: int | None = None
    first_differing_line: int | None = None
    detail: str = ""
    prefix: bytes | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """The recorded bytes are all there, unchanged."""
        return self.status in ("unchanged", "grown", "unhashed")

    def to_json(self) -> dict[str, Any]:
        """The JSON form (without the bytes)."""
        return {
            "path": self.path,
            "status": self.status,
            "ok": self.ok,
            "recorded_bytes": self.recorded_bytes,
            "current_bytes": self.current_bytes,
            "first_differing_line": self.first_differing_line,
            "detail": self.detail,
        }


def _line_key(line: bytes) -> tuple[str, str] | None:
    """(memory_id, record_hash) of a line as the record names it; None for a blank line."""
    if is_blank(line):
        return None
    value = read_line(line)
    if "invalid" in value:  # INT-19: the raw line's hash
        return str(value["invalid"]), hashlib.sha256(line).hexdigest()
    return str(value["memory_id"]), str(value["record_hash"])


def first_differing_line(prefix: bytes, recorded: dict[int, tuple[str, str]]) -> int | None:
    """The first line of `prefix` whose record differs from the recorded candidate entry (a
    line added, removed or edited), or None when every line names the recorded record."""
    lines = split_lines(prefix)
    last = max(recorded, default=0)
    for number in range(1, max(len(lines), last) + 1):
        current = _line_key(lines[number - 1]) if number <= len(lines) else None
        if current != recorded.get(number):
            return number
    return None


def check_store(
    index: int, entry: dict[str, Any], candidates: list[dict[str, Any]], source: Source
) -> StoreCheck:
    """Step 1 for one store."""
    path, size, digest = entry["path"], entry["bytes"], entry["sha256"]
    try:
        data = source.read(path)
    except OSError as exc:
        return StoreCheck(path, size, "unreadable", detail=str(exc))
    if data is None:
        return StoreCheck(path, size, "missing", detail=f"not found in {source.label}")
    if digest is None:
        return StoreCheck(
            path,
            size,
            "unhashed",
            len(data),
            detail="not read when the call failed: nothing to compare",
        )
    recorded = {
        c["line"]: (c["memory_id"], c["record_hash"]) for c in candidates if c["store"] == index
    }
    if len(data) < size:
        line = first_differing_line(data, recorded)
        return StoreCheck(
            path,
            size,
            "shrunk",
            len(data),
            line,
            detail=f"{len(data)} bytes, fewer than the {size} recorded; "
            f"first differing line: {line}",
        )
    prefix = data[:size]
    if hashlib.sha256(prefix).hexdigest() == digest:
        if len(data) == size:
            return StoreCheck(path, size, "unchanged", size, prefix=prefix)
        return StoreCheck(
            path,
            size,
            "grown",
            len(data),
            prefix=prefix,
            detail=f"grew by {len(data) - size} bytes; verified against the "
            f"recorded-length prefix ({size} bytes)",
        )
    line = first_differing_line(prefix, recorded)
    where = (
        f"first differing line: {line}"
        if line is not None
        else "every recorded record line is intact (a blank line or the JSON formatting changed)"
    )
    detail = f"the first {size} bytes no longer match the record; {where}"
    return StoreCheck(path, size, "changed", len(data), line, detail=detail)


@dataclass
class Verification:
    """The outcome of verifying one record."""

    record: str
    source: str
    outcome: str
    stores: list[StoreCheck]
    trust_snapshot: dict[str, Any] | None = None
    replay: dict[str, Any] = field(default_factory=dict)

    @property
    def verified(self) -> bool:
        """Every identity holds and the replay gave the recorded result."""
        trust_ok = self.trust_snapshot is None or bool(self.trust_snapshot["ok"])
        return all(store.ok for store in self.stores) and trust_ok and bool(self.replay.get("same"))

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document (format ``phase6-audit-verification/1``)."""
        return {
            "format": "phase6-audit-verification/1",
            "record": self.record,
            "source": self.source,
            "outcome": self.outcome,
            "verified": self.verified,
            "stores": [store.to_json() for store in self.stores],
            "trust_snapshot": self.trust_snapshot,
            "replay": self.replay,
        }


#: Runs a request on a directory: (result envelope, replayed record or None, who ran it).
Runner = Callable[[dict[str, Any], Path], tuple[dict[str, Any], dict[str, Any] | None, str]]


def reference_runner(request: dict[str, Any], cwd: Path) -> tuple[Any, Any, str]:
    """The bundled reference, as a subprocess (``python -m reference REQUEST --audit-out``)."""
    with tempfile.TemporaryDirectory(prefix="phase6-audit-") as scratch:
        request_file = Path(scratch, "request.json")
        request_file.write_bytes(dumps(request))
        record_file = Path(scratch, "record.json")
        command = [
            sys.executable,
            "-m",
            "reference",
            str(request_file),
            "--audit-out",
            str(record_file),
        ]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p or os.getcwd() for p in sys.path)}
        try:
            done = subprocess.run(
                command, cwd=cwd, capture_output=True, env=env, timeout=REPLAY_TIMEOUT, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"cannot run the reference: {exc}") from None
        if done.returncode not in (0, 1) or not record_file.exists():
            raise HarnessError(
                f"the reference failed ({done.returncode}): "
                f"{done.stderr.decode('utf-8', 'replace')[-2000:]}"
            )
        return loads(done.stdout), loads(record_file.read_bytes()), "the reference"


def adapter_runner(spec: str) -> Runner:
    """Any implementation behind ``--adapter``: with the capability ``audit`` its replayed
    record is compared whole, otherwise its package (package_hash, selected items)."""

    def run(request: dict[str, Any], cwd: Path) -> tuple[Any, Any, str]:
        with open_adapter(spec) as adapter:
            handshake = adapter.start()
            who = f"{handshake.name} {handshake.version}"
            if "audit" in handshake.capabilities and isinstance(adapter, SubprocessAdapter):
                result, record = adapter.run_audited(dumps(request), cwd)
                return result, record, who
            return adapter.run(dumps(request), cwd), None, who

    return run


def _materialize(
    record: dict[str, Any], stores: list[StoreCheck], snapshot: bytes | None, scratch: Path
) -> None:
    """The recorded bytes at their recorded paths under `scratch`."""
    files = [(store.path, store.prefix) for store in stores if store.prefix is not None]
    if snapshot is not None and record.get("trust_snapshot"):
        files.append((record["trust_snapshot"]["path"], snapshot))
    for path, data in files:
        if posixpath.isabs(path) or path.split("/")[0] == "..":
            raise HarnessError(
                f"cannot replay on the recorded bytes: {path!r} is not inside the root "
                "(a grown store or --git-rev needs repository-relative paths)"
            )
        target = scratch / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def _compare(record: dict[str, Any], result: Any, replayed: Any) -> dict[str, Any]:
    """Step 2's verdict: the package_hash, and the ranking (the whole record when replayed)."""
    if record["outcome"] == "error":
        error = result.get("error") if isinstance(result, dict) else None
        return {
            "same": error == record["error"],
            "error": {"recorded": record["error"], "replayed": error},
        }
    package = result.get("package") if isinstance(result, dict) else None
    if not isinstance(package, dict):
        return {"same": False, "detail": f"the replay gave no package: {json.dumps(result)[:300]}"}
    found = package.get("package_hash")
    out: dict[str, Any] = {
        "package_hash": {
            "recorded": record["package_hash"],
            "replayed": found,
            "same": found == record["package_hash"],
        },
    }
    if isinstance(replayed, dict):
        differing = [key for key in COMPARED if replayed.get(key) != record.get(key)]
        out["ranking"] = "same" if replayed.get("ranking") == record["ranking"] else "differs"
        out["differing_members"] = differing
        out["same"] = not differing
        return out
    # An implementation without a record: its package shows the selected prefix of the ranking.
    selected = package.get("selection", {}).get("selected", [])
    shown = [
        (i.get("memory_id"), i.get("record_hash"), i.get("store_path"), i.get("score"))
        for i in selected
    ]
    expected = [
        (m["memory_id"], m["record_hash"], m["store_path"], s["score"])
        for m, s in zip(record["manifest"], record["selected"], strict=True)
    ]
    out["ranking"] = "same (selected prefix only)" if shown == expected else "differs"
    out["same"] = bool(out["package_hash"]["same"]) and shown == expected
    return out


def verify_record(record_path: Path, source: Source, runner: Runner | None = None) -> Verification:
    """Verify one record: the store identities, then the replay."""
    record = load_record(record_path)
    candidates = record.get("candidates", [])
    stores = [
        check_store(index, entry, candidates, source)
        for index, entry in enumerate(record["stores"])
    ]
    verification = Verification(str(record_path), source.label, record["outcome"], stores)
    snapshot_bytes = None
    recorded_snapshot = record.get("trust_snapshot")
    if recorded_snapshot:
        try:
            snapshot_bytes = source.read(recorded_snapshot["path"])
        except OSError:
            snapshot_bytes = None
        same = snapshot_bytes is not None and (
            hashlib.sha256(snapshot_bytes).hexdigest() == recorded_snapshot["sha256"]
        )
        detail = "unchanged" if same else "missing or changed"
        verification.trust_snapshot = {
            "path": recorded_snapshot["path"],
            "ok": same,
            "detail": detail,
        }
    if not all(store.ok for store in stores) or (
        verification.trust_snapshot is not None and not verification.trust_snapshot["ok"]
    ):
        verification.replay = {"same": False, "detail": "not replayed: an identity failed"}
        return verification
    run = runner or reference_runner
    in_place = not isinstance(source, GitSource) and all(
        store.status != "grown" for store in stores
    )
    request = record["request"]
    if in_place:
        root = getattr(source, "root", Path.cwd())
        result, replayed, who = run(request, Path(root))
        where = "in place"
    else:
        with tempfile.TemporaryDirectory(prefix="phase6-audit-replay-") as scratch:
            _materialize(record, stores, snapshot_bytes, Path(scratch))
            result, replayed, who = run(request, Path(scratch))
        where = "on the recorded prefixes, copied into a scratch directory"
    verification.replay = {"by": who, "where": where, **_compare(record, result, replayed)}
    return verification


def render_summary(verification: Verification) -> str:
    """The readable summary."""
    lines = [
        f"record {verification.record} ({verification.outcome}), stores from {verification.source}"
    ]
    for store in verification.stores:
        mark = "ok  " if store.ok else "FAIL"
        extra = f": {store.detail}" if store.detail else ""
        lines.append(f"  {mark} store {store.path}: {store.status}{extra}")
    if verification.trust_snapshot is not None:
        snapshot = verification.trust_snapshot
        mark = "ok  " if snapshot["ok"] else "FAIL"
        lines.append(f"  {mark} trust snapshot {snapshot['path']}: {snapshot['detail']}")
    replay = verification.replay
    mark = "ok  " if replay.get("same") else "FAIL"
    if "by" not in replay:
        lines.append(f"  {mark} replay: {replay.get('detail', '')}")
    else:
        lines.append(f"  {mark} replay by {replay['by']}, {replay['where']}")
        if "package_hash" in replay:
            hashes = replay["package_hash"]
            lines.append(
                f"       package_hash {'same' if hashes['same'] else 'DIFFERS'}: "
                f"{hashes['recorded']}"
            )
            lines.append(f"       ranking {replay.get('ranking')}")
            if replay.get("differing_members"):
                lines.append(f"       differing members: {', '.join(replay['differing_members'])}")
        if "error" in replay:
            lines.append(
                f"       error {'same' if replay['same'] else 'DIFFERS'}: "
                f"{replay['error']['recorded'].get('code')}"
            )
        if "detail" in replay:
            lines.append(f"       {replay['detail']}")
    lines.append("VERIFIED" if verification.verified else "NOT VERIFIED")
    return "\n".join(lines) + "\n"
