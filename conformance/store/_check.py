"""`store check`: validate SPEC-005 memory stores and show how a SPEC-006 reader sees them.

    python -m conformance store check PATH... [--json] [--all] [--ignore CODE]...
    python -m conformance store codes [--json]

For every line of every store it reports every SPEC-005 violation (base fields and their types,
`type` / `source` values, UTC-only `created_at_utc`, the INT-47 `hash`, `memory_id` uniqueness,
corrections naming an earlier `memory_id`) and the SPEC-006 verdict (valid candidate,
invalid_record_schema with the register rule that decides it, or skipped), plus the cross-spec
gaps of INT-24 (`created_at_utc` without `ts_utc`, string refs).  The codes are the table in
conformance.store._rules; the JSON output follows specs/schemas/store-check.schema.json.

One pass, every problem, never stops at the first, never writes: stores are opened read-only.
Exit status: 0 clean, 1 any (non-ignored) violation, 2 usage error or an unreadable path (the
other paths are still checked and reported).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from conformance.store._lines import (
    Finding,
    Verdict,
    is_blank,
    parse_line,
    record_findings,
    spec006_verdict,
)
from conformance.store._rules import CODES, STORE_TYPES

__all__ = [
    "FORMAT",
    "CheckReport",
    "LineResult",
    "StoreReport",
    "Violation",
    "check_bytes",
    "check_paths",
    "check_store",
    "codes_json",
    "render_codes",
    "render_text",
]

FORMAT: Final = "phase6-store-check/1"
EXIT_CLEAN: Final = 0
EXIT_VIOLATIONS: Final = 1
EXIT_USAGE: Final = 2
_VERDICTS: Final = ("valid", "invalid_record_schema", "skipped")


@dataclass(frozen=True)
class Violation:
    """One violation of one line: its code, the clause it breaks, the field and a message."""

    code: str
    field: str | None
    message: str

    @property
    def clause(self) -> str:
        """The S5-* / S6-* clause the code enforces (conformance._store_rules.CODES)."""
        return CODES[self.code].clause

    def to_json(self) -> dict[str, Any]:
        """The violation object of the JSON report."""
        return {
            "code": self.code,
            "clause": self.clause,
            "field": self.field,
            "message": self.message,
        }


@dataclass(frozen=True)
class LineResult:
    """One line (1-based number, byte offset and length without LF) and both verdicts."""

    line: int
    offset: int
    length: int
    memory_id: str | None
    spec006: Verdict
    violations: tuple[Violation, ...]

    def to_json(self) -> dict[str, Any]:
        """The line object of the JSON report."""
        return {
            "line": self.line,
            "offset": self.offset,
            "length": self.length,
            "memory_id": self.memory_id,
            "spec006": {
                "verdict": self.spec006.verdict,
                "rule": self.spec006.rule,
                "detail": self.spec006.detail,
            },
            "violations": [v.to_json() for v in self.violations],
        }


def _summary(lines: Iterable[LineResult]) -> dict[str, Any]:
    by_code: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()
    count = records = 0
    for result in lines:
        count += 1
        verdicts[result.spec006.verdict] += 1
        records += result.spec006.verdict != "skipped"
        by_code.update(v.code for v in result.violations)
    return {
        "lines": count,
        "records": records,
        "violations": sum(by_code.values()),
        "by_code": dict(sorted(by_code.items())),
        "spec006": {name: verdicts[name] for name in _VERDICTS},
    }


@dataclass(frozen=True)
class StoreReport:
    """One store: its lines, or the reason it could not be read (`error`)."""

    path: str
    lines: tuple[LineResult, ...]
    size: int = 0
    error: str | None = None

    @property
    def violations(self) -> int:
        """How many violations the store's lines carry."""
        return sum(len(result.violations) for result in self.lines)

    def to_json(self) -> dict[str, Any]:
        """The store object of the JSON report."""
        return {
            "path": self.path,
            "error": self.error,
            "bytes": self.size,
            "summary": _summary(self.lines),
            "lines": [result.to_json() for result in self.lines],
        }


@dataclass(frozen=True)
class CheckReport:
    """The result of one `store check` run over several stores."""

    stores: tuple[StoreReport, ...]
    ignored: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """2 when a path was unreadable, else 1 when any violation remains, else 0."""
        if any(store.error is not None for store in self.stores):
            return EXIT_USAGE
        return EXIT_VIOLATIONS if any(store.violations for store in self.stores) else EXIT_CLEAN

    def to_json(self) -> dict[str, Any]:
        """The whole report (specs/schemas/store-check.schema.json)."""
        summary = _summary(line for store in self.stores for line in store.lines)
        summary["stores"] = len(self.stores)
        summary["unreadable"] = sum(store.error is not None for store in self.stores)
        return {
            "format": FORMAT,
            "ok": self.exit_code == EXIT_CLEAN,
            "ignored": list(self.ignored),
            "summary": summary,
            "stores": [store.to_json() for store in self.stores],
        }


# ------------------------------------------------------------------------------ checking


def _split(data: bytes) -> Iterator[tuple[int, bytes, bool]]:
    """INT-14 lines: (offset, bytes without LF and one CR before it, terminated by LF?)."""
    offset = 0
    size = len(data)
    while offset < size:
        end = data.find(b"\n", offset)
        terminated = end != -1
        if not terminated:
            end = size
        line = data[offset:end]
        yield offset, line[:-1] if line.endswith(b"\r") else line, terminated
        offset = end + 1


def _store_type(name: str) -> str | None:
    """S5-LOC-01: episodic.jsonl / procedural.jsonl / semantic.jsonl imply their type."""
    stem, ext = os.path.splitext(os.path.basename(name))
    return stem if ext == ".jsonl" and stem in STORE_TYPES else None


@dataclass
class _StoreState:
    """What the store-level rules remember while reading one store in line order."""

    first_line: dict[str, int] = field(default_factory=dict)  # memory_id -> first line
    later: dict[str, int] = field(default_factory=dict)  # filled by a first pass for messages


def _store_findings(obj: Any, number: int, state: _StoreState) -> list[Finding]:
    """S5-INT-01 (unique memory_id) and S5-APP-03 (corrections name an EARLIER memory_id)."""
    if not isinstance(obj, dict):
        return []
    found: list[Finding] = []
    refs = obj.get("refs")
    for index, ref in enumerate(refs if isinstance(refs, list) else ()):
        if not (isinstance(ref, dict) and ref.get("kind") == "corrects"):
            continue
        target = ref.get("memory_id")
        where = f"refs[{index}]"
        if not isinstance(target, str) or not target:
            found.append(
                Finding("bad-correction-ref", where, "a corrects ref needs a string memory_id")
            )
        elif target not in state.first_line:
            later = state.later.get(target)
            why = f"first appears later, at line {later}" if later else "not in this store"
            found.append(Finding("dangling-correction", where, f"corrects {target!r}: {why}"))
    memory_id = obj.get("memory_id")
    if isinstance(memory_id, str) and memory_id:
        first = state.first_line.setdefault(memory_id, number)
        if first != number:
            found.append(
                Finding("duplicate-memory-id", "memory_id", f"{memory_id!r} is also line {first}")
            )
    return found


def check_bytes(data: bytes, name: str, *, ignore: Iterable[str] = ()) -> StoreReport:
    """Check one store's content; `name` is its path (its file name may imply a type)."""
    skip = frozenset(ignore)
    store_type = _store_type(name)
    parsed_lines = [(offset, line, ended, parse_line(line)) for offset, line, ended in _split(data)]
    state = _StoreState()
    for number, (_, _, _, parsed) in enumerate(parsed_lines, start=1):
        obj = parsed.value
        if isinstance(obj, dict) and isinstance(obj.get("memory_id"), str):
            state.later.setdefault(obj["memory_id"], number)
    results: list[LineResult] = []
    for number, (offset, line, ended, parsed) in enumerate(parsed_lines, start=1):
        found: list[Finding] = []
        if is_blank(line):
            # INT-14: "A line that is empty or contains only JSON whitespace bytes ... is
            # skipped silently" by a SPEC-006 reader; SPEC-005 wants one object per line.
            verdict = Verdict("skipped", "INT-14", "blank line")
            found.append(Finding("blank-line", None, "an empty or whitespace-only line"))
        else:
            verdict = spec006_verdict(parsed)
            found.extend(record_findings(parsed, store_type))
            found.extend(_store_findings(parsed.value, number, state))
            if verdict.verdict == "invalid_record_schema":
                found.append(Finding("spec006-invalid", None, f"{verdict.rule}: {verdict.detail}"))
        if not ended:
            found.append(
                Finding("missing-final-newline", None, "the last line does not end with LF")
            )
        obj = parsed.value
        memory_id = obj.get("memory_id") if isinstance(obj, dict) else None
        results.append(
            LineResult(
                line=number,
                offset=offset,
                length=len(line),
                memory_id=memory_id if isinstance(memory_id, str) else None,
                spec006=verdict,
                violations=tuple(
                    Violation(f.code, f.field, f.message) for f in found if f.code not in skip
                ),
            )
        )
    return StoreReport(path=name, lines=tuple(results), size=len(data))


def check_store(path: str, *, ignore: Iterable[str] = ()) -> StoreReport:
    """Check one store file, opened read-only (O_RDONLY); an unreadable path sets `error`."""
    try:
        with open(path, "rb") as handle:  # read-only: the checker never writes a store
            data = handle.read()
    except IsADirectoryError:
        return StoreReport(path=path, lines=(), error="is a directory")
    except OSError as exc:
        return StoreReport(path=path, lines=(), error=exc.strerror or type(exc).__name__)
    return check_bytes(data, path, ignore=ignore)


def check_paths(paths: Sequence[str], *, ignore: Iterable[str] = ()) -> CheckReport:
    """Check every store in the order given; one unreadable path never stops the others."""
    skip = tuple(sorted(set(ignore)))
    return CheckReport(tuple(check_store(p, ignore=skip) for p in paths), skip)


# ------------------------------------------------------------------------------ rendering


def _table(rows: list[tuple[str, ...]], indent: str = "  ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
        out.append((indent + "  ".join(cells)).rstrip())
        if n == 0:
            out.append((indent + "  ".join("-" * width for width in widths)).rstrip())
    return out


def render_text(report: CheckReport, *, every_line: bool = False) -> str:
    """The human report: per store a table of violations (or of every line), then totals."""
    out: list[str] = []
    for store in report.stores:
        if store.error is not None:
            out.append(f"{store.path}: cannot read: {store.error}")
            continue
        summary = _summary(store.lines)
        verdicts = summary["spec006"]
        out.append(
            f"{store.path}: {summary['lines']} lines, {summary['records']} records, "
            f"{summary['violations']} violations; SPEC-006: {verdicts['valid']} valid, "
            f"{verdicts['invalid_record_schema']} invalid_record_schema, "
            f"{verdicts['skipped']} skipped"
        )
        rows: list[tuple[str, ...]] = [("line", "code", "field", "spec006", "message")]
        for result in store.lines:
            verdict: str = result.spec006.verdict
            if result.spec006.rule and verdict != "valid":
                verdict = f"{verdict} ({result.spec006.rule})"
            rows.extend(
                (str(result.line), v.code, v.field or "-", verdict, v.message)
                for v in result.violations
            )
            if every_line and not result.violations:
                rows.append((str(result.line), "-", "-", verdict, result.memory_id or ""))
        if len(rows) > 1:
            out.extend(_table(rows))
    total = report.to_json()["summary"]
    codes = ", ".join(f"{code} {n}" for code, n in total["by_code"].items())
    out.append(
        f"checked {total['stores']} store(s), {total['lines']} lines: "
        f"{total['violations']} violation(s)" + (f" ({codes})" if codes else "")
        + (f"; {total['unreadable']} unreadable" if total["unreadable"] else "")
        + (f"; ignored: {', '.join(report.ignored)}" if report.ignored else "")
    )  # fmt: skip
    return "\n".join(out) + "\n"


def codes_json() -> dict[str, Any]:
    """The violation-code table as JSON (`store codes --json`)."""
    return {
        code.code: {
            "spec": code.spec,
            "clause": code.clause,
            "interpretations": list(code.interpretations),
            "meaning": code.meaning,
        }
        for code in CODES.values()
    }


def render_codes() -> str:
    """The violation-code table as text (`store codes`)."""
    rows: list[tuple[str, ...]] = [("code", "spec", "clause", "meaning")]
    rows.extend((c.code, c.spec, c.clause, c.meaning) for c in CODES.values())
    return "\n".join(_table(rows, indent="")) + "\n"
