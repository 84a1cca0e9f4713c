"""``audit verify``: prove, later, that a memory.read returned what its record says.

1. Every store identity is checked against the bytes found now (or at a commit): the first
   ``bytes`` bytes must hash to ``sha256``.  A longer store passes when that prefix is
   unchanged (stores are append-only, SPEC-005; INT-55) and the result says it grew; a store
   whose prefix changed fails, with the first line whose record differs from the recorded
   candidate entries.
2. The request is run again on exactly the recorded bytes, copied into a scratch directory,
   by the reference (default) or any adapter, and the package_hash and ranking are compared.

A record and the tree it names are someone else's, so both are hostile input (specs/audit.md,
"Verifying a stranger's record"):

- every path the record or its request names is a relative POSIX path of plain segments,
  checked before anything is opened (:func:`check_record`); a symlink in the tree is never
  followed (:mod:`conformance.audit._sources`), so no file outside ``--root`` is ever opened;
- every size, count and line number in the record is bounded before it is used
  (:class:`Limits`); stores are hashed in streaming reads of at most the recorded length;
- the replay runs on a scratch copy written by descriptor with ``O_NOFOLLOW | O_EXCL``, never
  in the verified tree, and the reference runs in Python's isolated mode with the kit's own
  directory first on ``sys.path``: nothing in the tree or the scratch copy is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from conformance._errors import CorpusError, HarnessError
from conformance._kit import dumps, loads, read_bounded
from conformance._schemas import schema_errors
from conformance.adapters import SubprocessAdapter, active_sandbox, open_adapter
from conformance.audit._sources import Entry, Source
from conformance.corpus import create_new, name_problem
from conformance.readings import is_blank, normalize_path, read_line

__all__ = [
    "AUDIT_SCHEMA",
    "Limits",
    "StoreCheck",
    "Verification",
    "adapter_runner",
    "check_record",
    "first_differing_line",
    "load_record",
    "reference_runner",
    "render_summary",
    "verify_record",
]

AUDIT_SCHEMA = "audit.schema.json"
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


@dataclass(frozen=True)
class Limits:
    """What verifying one record may cost, checked against the record before it is used.

    A parsed record costs about 60 times its size in memory (a 100 MB record, 5.7 GB), so the
    default record cap is 64 MiB (the record of a read of some 400,000 lines); stores are
    read in streaming reads, but the scratch copy the replay runs on holds every recorded byte,
    so their sum is capped too. Both can be raised (``--max-record-bytes``,
    ``--max-store-bytes``).
    """

    max_record_bytes: int = 64 << 20
    max_store_bytes: int = 4 << 30


def load_record(path: Path, limits: Limits | None = None) -> dict[str, Any]:
    """Read and schema-check an assembly record (HarnessError: a usage error)."""
    limits = limits or Limits()
    try:
        record = loads(read_bounded(path, limits.max_record_bytes))
    except OSError as exc:
        raise HarnessError(
            f"cannot read the record {str(path)!r}: {exc} (raise --max-record-bytes for a "
            "larger record)"
            if "larger than" in str(exc) or "bytes" in str(exc)
            else f"cannot read the record {str(path)!r}: {exc}"
        ) from None
    except ValueError as exc:
        raise HarnessError(f"{str(path)!r} is not JSON: {exc}") from None
    problems = schema_errors(AUDIT_SCHEMA, record, limit=1)
    if problems:
        pointer, text = problems[0]
        where = pointer or "/"
        raise HarnessError(f"{str(path)!r} is not a phase6-audit/1 record: {where}: {text}")
    if not isinstance(record, dict):  # pragma: no cover - the schema says object
        raise HarnessError(f"{str(path)!r} is not a JSON object")
    check_record(record, limits, str(path))
    return record


def _inside(path: object) -> str | None:
    """Why a request's store path would lead out of the replay's root, or None."""
    if not isinstance(path, str):
        return None  # the request check rejects it before anything is opened
    normalized = normalize_path(path)
    if normalized.startswith("/"):
        return f"{path!r} is absolute"
    if normalized == ".." or normalized.startswith("../"):
        return f"{path!r} climbs out of the root"
    return None


def _request_paths(record: dict[str, Any]) -> list[object]:
    """Every path the recorded request names: its stores and its trust snapshot."""
    request = record.get("request")
    if not isinstance(request, dict):
        return []
    stores = request.get("store_paths")
    paths: list[object] = list(stores) if isinstance(stores, list) else []
    trust = request.get("trust_filter")
    if isinstance(trust, dict) and "trust_snapshot_path" in trust:
        paths.append(trust["trust_snapshot_path"])
    return paths


def check_record(record: dict[str, Any], limits: Limits, where: str = "the record") -> None:
    """Refuse (HarnessError) a record whose paths, sizes or line numbers are unsafe to use.

    Every recorded path must be a relative path of plain segments (the corpus rule,
    :func:`conformance.corpus.name_problem`) named once; every path of the recorded request must
    normalize (INT-12) to a path inside the root; the recorded sizes must fit
    :attr:`Limits.max_store_bytes`; and every candidate must name a recorded store, on a line
    its store's recorded bytes can hold.
    """

    def refuse(why: str) -> HarnessError:
        return HarnessError(f"{where} cannot be verified safely: {why}")

    stores = record["stores"]
    snapshot = record.get("trust_snapshot") or None
    named = [entry["path"] for entry in stores]
    if snapshot is not None:
        named.append(snapshot["path"])
    for path in named:
        problem = name_problem(path)
        if problem is not None:
            raise refuse(
                f"the recorded path {path!r} is not a relative path of plain segments "
                f"({problem}); audit verify opens nothing outside --root"
            )
    if len(set(named)) != len(named):
        raise refuse("a path is recorded twice")
    for path in _request_paths(record):
        problem = _inside(path)
        if problem is not None:
            raise refuse(f"the request names {problem}; audit verify opens nothing outside --root")
    sizes = [entry["bytes"] for entry in stores]
    if snapshot is not None:
        sizes.append(snapshot["bytes"])
    if sum(sizes) > limits.max_store_bytes:
        raise refuse(
            f"the recorded stores hold {sum(sizes):,} bytes, more than --max-store-bytes "
            f"({limits.max_store_bytes:,})"
        )
    for key in ("candidates", "ranking", "selected"):
        for entry in record.get(key) or []:
            index, line = entry.get("store"), entry.get("line")
            if not isinstance(index, int) or not 0 <= index < len(stores):
                raise refuse(f"a {key} entry names store {index!r}, not a recorded store")
            if not isinstance(line, int) or line > stores[index]["bytes"] + 1:
                raise refuse(
                    f"a {key} entry names line {line!r} of {stores[index]['path']!r}, which "
                    f"holds {stores[index]['bytes']} bytes"
                )


@dataclass(frozen=True)
class StoreCheck:
    """One recorded store against the bytes found now."""

    path: str
    recorded_bytes: int
    status: str  # unchanged, grown, changed, shrunk, missing, unreadable, unhashed
    current_bytes: int | None = None
    first_differing_line: int | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        """The recorded bytes are all there, unchanged."""
        return self.status in ("unchanged", "grown", "unhashed")

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
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


def _lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """INT-14 line splitting (:func:`conformance.readings.split_lines`), streamed."""
    pending = b""
    for chunk in chunks:
        pieces = (pending + chunk).split(b"\n")
        pending = pieces.pop()
        for piece in pieces:
            yield piece[:-1] if piece.endswith(b"\r") else piece
    if pending:
        yield pending[:-1] if pending.endswith(b"\r") else pending


def first_differing_line(
    prefix: bytes | Iterable[bytes], recorded: dict[int, tuple[str, str]]
) -> int | None:
    """The first line of `prefix` (bytes, or chunks of them) whose record differs from the
    recorded candidate entry (a line added, removed or edited), or None when every line names
    the recorded record."""
    count = 0
    for count, line in enumerate(_lines([prefix] if isinstance(prefix, bytes) else prefix), 1):
        if _line_key(line) != recorded.get(count):
            return count
    beyond = [number for number in recorded if number > count]  # recorded lines now gone
    return min(beyond) if beyond else None


class _Scratch:
    """The scratch directory the replay runs on: files created by descriptor, never followed."""

    def __init__(self, path: Path):
        self.path = path
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))

    def write(self, name: str, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """Copy ``chunks`` into the new file ``name`` while passing them on."""
        try:
            fd = create_new(self._fd, name)
        except CorpusError as exc:
            raise HarnessError(f"cannot replay on the recorded bytes: {exc}") from None
        assert fd is not None
        try:
            for chunk in chunks:
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view) :]
                yield chunk
        finally:
            os.close(fd)

    def directory(self, name: str) -> None:
        """A directory at ``name`` (what a non-regular entry becomes in the copy)."""
        try:
            create_new(self._fd, name, directory=True)
        except CorpusError as exc:
            raise HarnessError(f"cannot replay on the recorded bytes: {exc}") from None

    def close(self) -> None:
        """Release the directory descriptor."""
        os.close(self._fd)


def _not_ok(entry: Entry, path: str, size: int, source: Source) -> StoreCheck | None:
    if entry.kind == "missing":
        return StoreCheck(path, size, "missing", detail=f"not found in {source.label}")
    if entry.kind != "file":
        detail = entry.detail or f"a {entry.kind}, not a regular file"
        return StoreCheck(path, size, "unreadable", detail=detail)
    return None


def check_store(
    index: int,
    entry: dict[str, Any],
    candidates: list[dict[str, Any]],
    source: Source,
    scratch: _Scratch | None = None,
) -> StoreCheck:
    """Step 1 for one store: hash at most its recorded length in streaming reads (copied into
    ``scratch`` as they are read)."""
    path, size, digest = entry["path"], entry["bytes"], entry["sha256"]
    found = source.entry(path)
    failed = _not_ok(found, path, size, source)
    if failed is not None:
        return failed
    if digest is None:
        return StoreCheck(
            path,
            size,
            "unhashed",
            found.size,
            detail="not read when the call failed: nothing to compare",
        )
    recorded = {
        c["line"]: (c["memory_id"], c["record_hash"]) for c in candidates if c["store"] == index
    }
    hasher = hashlib.sha256()
    read = 0
    try:
        chunks = source.chunks(path, size)
        if scratch is not None:
            chunks = scratch.write(path, chunks)
        for chunk in chunks:
            hasher.update(chunk)
            read += len(chunk)
    except OSError as exc:
        return StoreCheck(path, size, "unreadable", detail=exc.strerror or str(exc))
    if read < size:
        line = first_differing_line(source.chunks(path, read), recorded)
        return StoreCheck(
            path,
            size,
            "shrunk",
            read,
            line,
            detail=f"{read} bytes, fewer than the {size} recorded; first differing line: {line}",
        )
    if hasher.hexdigest() == digest:
        if found.size <= size:
            return StoreCheck(path, size, "unchanged", size)
        return StoreCheck(
            path,
            size,
            "grown",
            found.size,
            detail=f"grew by {found.size - size} bytes; verified against the "
            f"recorded-length prefix ({size} bytes)",
        )
    line = first_differing_line(source.chunks(path, size), recorded)
    where = (
        f"first differing line: {line}"
        if line is not None
        else "every recorded record line is intact (a blank line or the JSON formatting changed)"
    )
    detail = f"the first {size} bytes no longer match the record; {where}"
    return StoreCheck(path, size, "changed", found.size, line, detail=detail)


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

#: The reference's entry point, run with ``python -I -c``: isolated mode keeps the working
#: directory (the scratch copy), PYTHONPATH and the user site off ``sys.path``; the kit's own
#: directory goes first, so ``reference`` is the installed one whatever the copy holds.
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from reference.__main__ import main; sys.exit(main(sys.argv[1:]))"
)


def _reference_home() -> str:
    """The directory holding the installed ``reference`` package (located, not imported)."""
    spec = find_spec("reference")
    if spec is None or spec.origin is None:
        raise HarnessError("the bundled reference is not installed next to the kit")
    return str(Path(spec.origin).resolve().parent.parent)


def reference_runner(request: dict[str, Any], cwd: Path) -> tuple[Any, Any, str]:
    """The bundled reference, as an isolated subprocess (its ``main`` with ``--audit-out``)."""
    with tempfile.TemporaryDirectory(prefix="phase6-audit-") as scratch:
        request_file = Path(scratch, "request.json")
        request_file.write_bytes(dumps(request))
        record_file = Path(scratch, "record.json")
        command = [
            sys.executable,
            "-I",
            "-c",
            _BOOT,
            _reference_home(),
            str(request_file),
            "--audit-out",
            str(record_file),
        ]
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
        box = active_sandbox().sandbox  # `audit verify --sandbox`: the replay reads their stores
        if box is not None:
            command, env = box.command(command, cwd=str(cwd)), box.environment(env)
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


def _check_snapshot(recorded: dict[str, Any], source: Source, scratch: _Scratch) -> dict[str, Any]:
    """The trust snapshot's identity (its whole bytes), copied into the scratch directory."""
    path, size = recorded["path"], recorded["bytes"]
    found = source.entry(path)
    if found.kind != "file":
        why = "missing" if found.kind == "missing" else found.detail or f"a {found.kind}"
        return {"path": path, "ok": False, "detail": why}
    hasher = hashlib.sha256()
    try:
        for chunk in scratch.write(path, source.chunks(path, size)):
            hasher.update(chunk)
    except OSError as exc:
        return {"path": path, "ok": False, "detail": exc.strerror or str(exc)}
    same = found.size == size and hasher.hexdigest() == recorded["sha256"]
    return {"path": path, "ok": same, "detail": "unchanged" if same else "missing or changed"}


def _mirror_unrecorded(
    record: dict[str, Any], source: Source, scratch: _Scratch, budget: int
) -> None:
    """The request's paths that the record does not list (a failure record's store that was
    missing or not a regular file, or one never reached) as they are: a regular file is
    copied (within what is left of ``budget``), anything else becomes a directory, which the
    reference reports as the same ``store_not_readable`` (INT-13)."""
    recorded = {entry["path"] for entry in record["stores"]}
    if record.get("trust_snapshot"):
        recorded.add(record["trust_snapshot"]["path"])
    for path in _request_paths(record):
        if not isinstance(path, str):
            continue
        name = normalize_path(path)
        if name in recorded or name == "." or name_problem(name) is not None:
            continue
        recorded.add(name)
        found = source.entry(name)
        if found.kind == "missing":
            continue
        if found.kind == "file" and found.size <= budget:
            budget -= found.size
            try:
                for _ in scratch.write(name, source.chunks(name, found.size)):
                    pass
                continue
            except OSError:
                pass  # unreadable: a directory gives the same error code
        scratch.directory(name)


def verify_record(
    record_path: Path,
    source: Source,
    runner: Runner | None = None,
    limits: Limits | None = None,
) -> Verification:
    """Verify one record: the store identities, then the replay on a scratch copy."""
    limits = limits or Limits()
    record = load_record(record_path, limits)
    candidates = record.get("candidates", [])
    with tempfile.TemporaryDirectory(prefix="phase6-audit-replay-") as directory:
        scratch = _Scratch(Path(directory))
        try:
            stores = [
                check_store(index, entry, candidates, source, scratch)
                for index, entry in enumerate(record["stores"])
            ]
            verification = Verification(str(record_path), source.label, record["outcome"], stores)
            recorded_snapshot = record.get("trust_snapshot")
            if recorded_snapshot:
                verification.trust_snapshot = _check_snapshot(recorded_snapshot, source, scratch)
            if not all(store.ok for store in stores) or (
                verification.trust_snapshot is not None and not verification.trust_snapshot["ok"]
            ):
                verification.replay = {"same": False, "detail": "not replayed: an identity failed"}
                return verification
            spent = sum(entry["bytes"] for entry in record["stores"])
            _mirror_unrecorded(record, source, scratch, limits.max_store_bytes - spent)
            run = runner or reference_runner
            result, replayed, who = run(record["request"], Path(directory))
        finally:
            scratch.close()
    where = "on the recorded bytes, copied into a scratch directory"
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
