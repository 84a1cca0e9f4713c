"""`store check`: validate SPEC-005 memory stores and show how a SPEC-006 reader sees them.

    python -m conformance store check PATH... [--json] [--all] [--strict] [--ignore CODE]...
    python -m conformance store codes [--json]

For every line of every store it reports every SPEC-005 finding (base fields and their types,
`type` / `source` values, UTC-only `created_at_utc`, the INT-47 `hash` under RFC 8785 and the
other known canonical forms, `memory_id` uniqueness, corrections naming an earlier `memory_id`)
and the SPEC-006 verdict (valid candidate, invalid_record_schema with the register rule that
decides it, or skipped), plus the cross-spec observations of INT-24.  The codes and their
levels are the table in conformance.store._rules; the JSON output follows
specs/schemas/store-check.schema.json.

Levels (conformance.store._rules): a ``required`` finding is a violation; a ``pinned`` one is a
notice (a violation under ``--strict``); an ``info`` one is a notice, summarized once per store,
never a violation.  One pass, every finding, never stops at the first, never writes: stores are
opened read-only, streamed (memory: one line, one chunk and the set of memory_ids seen), and
anything but a regular file is refused unopened (conformance.store._read).

Exit status: 0 no violation (notices allowed), 1 any (non-ignored) violation, 2 usage error or a
path that could not be checked (the other paths are still checked and reported).
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from conformance.store._forms import FORM_NAMES
from conformance.store._lines import (
    Finding,
    Verdict,
    is_blank,
    parse_line,
    record_findings,
    spec006_verdict,
)
from conformance.store._read import (
    MAX_LINE_BYTES,
    PathError,
    RawLine,
    iter_lines,
    open_store,
)
from conformance.store._rules import CODES, LEVELS, STORE_TYPES

__all__ = [
    "EXIT_CLEAN",
    "EXIT_UNCHECKED",
    "EXIT_VIOLATIONS",
    "FORMAT",
    "CheckReport",
    "LineResult",
    "NoticeSummary",
    "Options",
    "StoreReport",
    "StoreScan",
    "StoreSummary",
    "check_bytes",
    "check_paths",
    "check_store",
    "exit_code",
    "report_head",
    "report_tail",
    "store_head",
    "store_tail",
]

FORMAT: Final = "phase6-store-check/2"
EXIT_CLEAN: Final = 0
EXIT_VIOLATIONS: Final = 1
EXIT_UNCHECKED: Final = 2
VERDICTS: Final = ("valid", "invalid_record_schema", "skipped", "unchecked")
#: How many line numbers a notice summary lists (the count is always exact).
SAMPLE_LINES: Final = 10
#: memory_ids longer than this are remembered by a 128-bit digest, not in full (memory bound).
_ID_KEEP: Final = 64


@dataclass(frozen=True)
class Options:
    """How a run judges: codes left out, pinned notices promoted, the line limit."""

    ignore: frozenset[str] = frozenset()
    strict: bool = False
    max_line_bytes: int = MAX_LINE_BYTES

    def is_violation(self, code: str) -> bool:
        """Whether findings with this code are violations: required always, pinned under
        --strict, info never."""
        level = CODES[code].level
        return level == "required" or (self.strict and level == "pinned")

    def to_json(self) -> dict[str, Any]:
        """The options as the report's header members."""
        return {
            "strict": self.strict,
            "ignored": sorted(self.ignore),
            "max_line_bytes": self.max_line_bytes,
        }


@dataclass(frozen=True)
class LineResult:
    """One line (1-based number, byte offset and length without LF), its SPEC-006 verdict,
    its violations and its notices (as the run's options split them)."""

    line: int
    offset: int
    length: int
    memory_id: str | None
    spec006: Verdict
    violations: tuple[Finding, ...]
    notices: tuple[Finding, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The line object of the JSON report (info notices are summarized per store only)."""
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
            "violations": [f.to_json() for f in self.violations],
            "notices": [f.to_json() for f in self.notices if f.level != "info"],
        }


@dataclass(frozen=True)
class NoticeSummary:
    """One notice code in one store: how many lines, the first few, the first message."""

    code: str
    count: int
    lines: tuple[int, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        """The notice object of a store's `notices` list."""
        code = CODES[self.code]
        return {
            "code": self.code,
            "level": code.level,
            "clause": code.clause,
            "interpretations": list(code.interpretations),
            "count": self.count,
            "lines": list(self.lines),
            "message": self.message,
        }


@dataclass(frozen=True)
class StoreSummary:
    """Counts over one store (or, merged, over a run): lines, verdicts, findings, hash forms."""

    lines: int = 0
    records: int = 0
    violations: int = 0
    notices: int = 0
    by_code: tuple[tuple[str, int], ...] = ()
    spec006: tuple[tuple[str, int], ...] = tuple((v, 0) for v in VERDICTS)
    hashes_checked: int = 0
    hash_matches: tuple[tuple[str, int], ...] = tuple((f, 0) for f in FORM_NAMES)
    hash_unmatched: int = 0
    consistent_forms: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The summary object of the JSON report."""
        return {
            "lines": self.lines,
            "records": self.records,
            "violations": self.violations,
            "notices": self.notices,
            "by_code": dict(self.by_code),
            "spec006": dict(self.spec006),
            "hash_forms": {
                "checked": self.hashes_checked,
                "matched": dict(self.hash_matches),
                "unmatched": self.hash_unmatched,
                "consistent": list(self.consistent_forms),
            },
        }

    @staticmethod
    def merged(parts: Iterable[StoreSummary]) -> StoreSummary:
        """The run's totals (consistent forms are a per-store notion: left empty here)."""
        parts = list(parts)
        by_code: Counter[str] = Counter()
        verdicts: Counter[str] = Counter()
        matches: Counter[str] = Counter()
        for part in parts:
            by_code.update(dict(part.by_code))
            verdicts.update(dict(part.spec006))
            matches.update(dict(part.hash_matches))
        return StoreSummary(
            lines=sum(p.lines for p in parts),
            records=sum(p.records for p in parts),
            violations=sum(p.violations for p in parts),
            notices=sum(p.notices for p in parts),
            by_code=tuple(sorted(by_code.items())),
            spec006=tuple((v, verdicts[v]) for v in VERDICTS),
            hashes_checked=sum(p.hashes_checked for p in parts),
            hash_matches=tuple((f, matches[f]) for f in FORM_NAMES),
            hash_unmatched=sum(p.hash_unmatched for p in parts),
        )


@dataclass(frozen=True)
class StoreReport:
    """One store: its summary, notice summaries, and its lines (kept by the in-memory API;
    the streaming command line renders them as they come and keeps none)."""

    path: str
    size: int
    error: PathError | None
    summary: StoreSummary
    notice_summaries: tuple[NoticeSummary, ...] = ()
    lines: tuple[LineResult, ...] = ()

    @property
    def violations(self) -> int:
        """How many violations the store's lines carry."""
        return self.summary.violations


@dataclass(frozen=True)
class CheckReport:
    """The result of one `store check` run over several stores."""

    stores: tuple[StoreReport, ...]
    options: Options = field(default_factory=Options)

    @property
    def exit_code(self) -> int:
        """2 when a path could not be checked, else 1 when any violation remains, else 0."""
        return exit_code(self.stores)

    def to_json(self) -> dict[str, Any]:
        """The whole report (specs/schemas/store-check.schema.json)."""
        document = report_head(self.options)
        document["stores"] = [
            store_head(s.path, s.size, s.error)
            | {"lines": [x.to_json() for x in s.lines]}
            | store_tail(s)
            for s in self.stores
        ]
        return document | report_tail(self.stores)


def exit_code(stores: Sequence[StoreReport]) -> int:
    """The exit status of a run over `stores` (module docstring)."""
    if any(store.error is not None for store in stores):
        return EXIT_UNCHECKED
    return EXIT_VIOLATIONS if any(store.violations for store in stores) else EXIT_CLEAN


# ------------------------------------------------------------------------------ JSON pieces
# The report is written in pieces so that a store of any size streams out (conformance.store.
# _render); CheckReport.to_json assembles the same pieces in memory.


def report_head(options: Options) -> dict[str, Any]:
    """The members before `stores`."""
    return {"format": FORMAT} | options.to_json()


def store_head(path: str, size: int, error: PathError | None) -> dict[str, Any]:
    """A store's members before `lines` (known before it is read)."""
    return {
        "path": path,
        "bytes": size,
        "error": None if error is None else error.to_json(),
    }


def store_tail(store: StoreReport) -> dict[str, Any]:
    """A store's members after `lines`."""
    return {
        "summary": store.summary.to_json(),
        "notices": [n.to_json() for n in store.notice_summaries],
    }


def report_tail(stores: Sequence[StoreReport]) -> dict[str, Any]:
    """The members after `stores`: the run's summary and `ok`."""
    summary = StoreSummary.merged(s.summary for s in stores).to_json()
    del summary["hash_forms"]["consistent"]
    summary["stores"] = len(stores)
    summary["unchecked"] = sum(s.error is not None for s in stores)
    return {"summary": summary, "ok": exit_code(stores) == EXIT_CLEAN}


# ------------------------------------------------------------------------------ checking


def _store_type(name: str) -> str | None:
    """S5-LOC-01: episodic.jsonl / procedural.jsonl / semantic.jsonl imply their type."""
    stem, ext = os.path.splitext(os.path.basename(name))
    return stem if ext == ".jsonl" and stem in STORE_TYPES else None


def _id_key(memory_id: str) -> str | bytes:
    """How a memory_id is remembered: itself, or a 128-bit digest when it is long."""
    if len(memory_id) <= _ID_KEEP:
        return memory_id
    return hashlib.blake2b(memory_id.encode("utf-8"), digest_size=16).digest()


@dataclass
class _Tally:
    """What one store's scan accumulates: the store-level rules' memory and the counts."""

    first_line: dict[str | bytes, int] = field(default_factory=dict)  # memory_id -> first line
    lines: int = 0
    records: int = 0
    violations: int = 0
    notices: int = 0
    by_code: Counter[str] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    notice_lines: dict[str, list[int]] = field(default_factory=dict)
    notice_message: dict[str, str] = field(default_factory=dict)
    hashes_checked: int = 0
    hash_matches: Counter[str] = field(default_factory=Counter)
    hash_unmatched: int = 0
    consistent: set[str] | None = None  # forms every intact hash matches so far

    def add_hash(self, forms: tuple[str, ...] | None) -> None:
        if forms is None:
            return
        self.hashes_checked += 1
        if not forms:
            self.hash_unmatched += 1
            return
        self.hash_matches.update(forms)
        self.consistent = set(forms) if self.consistent is None else self.consistent & set(forms)

    def add_line(self, result: LineResult) -> None:
        self.lines += 1
        self.verdicts[result.spec006.verdict] += 1
        self.records += result.spec006.verdict != "skipped"
        self.violations += len(result.violations)
        self.notices += len(result.notices)
        self.by_code.update(f.code for f in result.violations)
        self.by_code.update(f.code for f in result.notices)
        for notice in result.notices:
            sample = self.notice_lines.setdefault(notice.code, [])
            if len(sample) < SAMPLE_LINES:
                sample.append(result.line)
            self.notice_message.setdefault(notice.code, notice.message)

    def summary(self) -> StoreSummary:
        return StoreSummary(
            lines=self.lines,
            records=self.records,
            violations=self.violations,
            notices=self.notices,
            by_code=tuple(sorted(self.by_code.items())),
            spec006=tuple((v, self.verdicts[v]) for v in VERDICTS),
            hashes_checked=self.hashes_checked,
            hash_matches=tuple((f, self.hash_matches[f]) for f in FORM_NAMES),
            hash_unmatched=self.hash_unmatched,
            consistent_forms=tuple(f for f in FORM_NAMES if f in (self.consistent or ())),
        )

    def notice_summaries(self) -> tuple[NoticeSummary, ...]:
        """Each notice code once: pinned ones first, then info, by code within a level."""
        codes = sorted(self.notice_lines, key=lambda c: (LEVELS.index(CODES[c].level), c))
        return tuple(
            NoticeSummary(c, self.by_code[c], tuple(self.notice_lines[c]), self.notice_message[c])
            for c in codes
        )


def _store_findings(obj: Any, number: int, tally: _Tally) -> list[Finding]:
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
        elif _id_key(target) not in tally.first_line:
            # INT-50: the corrected record must be on an EARLIER line of the same store.
            found.append(
                Finding(
                    "dangling-correction",
                    where,
                    f"corrects {_short(target)}: no earlier line of this store holds it",
                )
            )
    memory_id = obj.get("memory_id")
    if isinstance(memory_id, str) and memory_id:
        first = tally.first_line.setdefault(_id_key(memory_id), number)
        if first != number:
            found.append(
                Finding(
                    "duplicate-memory-id", "memory_id", f"{_short(memory_id)} is also line {first}"
                )
            )
    return found


def _short(text: str, limit: int = 80) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


class StoreScan:
    """One store being checked, in line order: iterate it for LineResults, then `report()`.

    A path is opened at construction (`error` is set when it cannot be checked), read while
    the iterator is consumed and closed when it ends.  `lines` instead checks lines already in
    memory (check_bytes), `name` standing for the path.
    """

    def __init__(
        self,
        name: str,
        options: Options | None = None,
        *,
        lines: Iterable[RawLine] | None = None,
        size: int = 0,
    ) -> None:
        self.path = name
        self.options = options or Options()
        self.error: PathError | None = None
        self.size = size
        self._store_type = _store_type(name)
        self._tally = _Tally()
        self._fd: int | None = None
        self._lines = lines
        self._started = False
        if lines is None:
            opened = open_store(name)
            if isinstance(opened, PathError):
                self.error = opened
            else:
                self._fd, self.size = opened.fd, opened.size

    def __iter__(self) -> Iterator[LineResult]:
        if self._started:  # pragma: no cover - programming error
            raise RuntimeError("a StoreScan is read once")
        self._started = True
        if self._lines is not None:
            return self._check_all(self._lines)
        if self._fd is None:
            return iter(())
        return self._read(self._fd)

    def _read(self, fd: int) -> Iterator[LineResult]:
        try:
            yield from self._check_all(iter_lines(fd, self.size, self.options.max_line_bytes))
        finally:
            os.close(fd)
            self._fd = None

    def _check_all(self, raw: Iterable[RawLine]) -> Iterator[LineResult]:
        for number, line in enumerate(raw, start=1):
            result = self._check_line(number, line)
            self._tally.add_line(result)
            yield result

    def _check_line(self, number: int, raw: RawLine) -> LineResult:
        found: list[Finding] = []
        memory_id: str | None = None
        if raw.too_long:
            verdict = Verdict("unchecked", None, "longer than --max-line-bytes")
            found.append(
                Finding(
                    "line-too-long",
                    None,
                    f"{raw.length} bytes > the limit of {self.options.max_line_bytes} "
                    "(--max-line-bytes): not read, so neither spec's rules were checked",
                )
            )
        elif is_blank(raw.data):
            # INT-14: "A line that is empty or contains only JSON whitespace bytes ... is
            # skipped silently" by a SPEC-006 reader; SPEC-005 wants one object per line.
            verdict = Verdict("skipped", "INT-14", "blank line")
            found.append(Finding("blank-line", None, "an empty or whitespace-only line"))
        else:
            parsed = parse_line(raw.data)
            verdict = spec006_verdict(parsed)
            checked = record_findings(parsed, self._store_type, raw.data)
            found.extend(checked.findings)
            self._tally.add_hash(checked.hash_forms)
            found.extend(_store_findings(parsed.value, number, self._tally))
            if verdict.verdict == "invalid_record_schema":
                found.append(Finding("spec006-invalid", None, f"{verdict.rule}: {verdict.detail}"))
            obj = parsed.value
            value = obj.get("memory_id") if isinstance(obj, dict) else None
            memory_id = value if isinstance(value, str) else None
        if not raw.terminated:
            found.append(
                Finding("missing-final-newline", None, "the last line does not end with LF")
            )
        kept = [f for f in found if f.code not in self.options.ignore]
        return LineResult(
            line=number,
            offset=raw.offset,
            length=raw.length,
            memory_id=memory_id,
            spec006=verdict,
            violations=tuple(f for f in kept if self.options.is_violation(f.code)),
            notices=tuple(f for f in kept if not self.options.is_violation(f.code)),
        )

    def report(self, lines: Iterable[LineResult] = ()) -> StoreReport:
        """The store's report once its lines have been read (`lines`: those to keep)."""
        return StoreReport(
            path=self.path,
            size=self.size,
            error=self.error,
            summary=self._tally.summary(),
            notice_summaries=self._tally.notice_summaries(),
            lines=tuple(lines),
        )


def _split(data: bytes) -> Iterator[RawLine]:
    """INT-14 lines of an in-memory store (check_bytes; stores on disk use iter_lines)."""
    offset = 0
    size = len(data)
    while offset < size:
        end = data.find(b"\n", offset)
        terminated = end != -1
        if not terminated:
            end = size
        line = data[offset:end]
        line = line[:-1] if line.endswith(b"\r") else line
        yield RawLine(offset, line, terminated, len(line))
        offset = end + 1


def _options(ignore: Iterable[str], strict: bool, max_line_bytes: int) -> Options:
    return Options(frozenset(ignore), strict, max_line_bytes)


def check_bytes(
    data: bytes,
    name: str,
    *,
    ignore: Iterable[str] = (),
    strict: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> StoreReport:
    """Check one store's content held in memory; `name` is its path (its file name may imply a
    type).  Lines longer than `max_line_bytes` are reported, not checked, as on disk."""
    raw = (
        line
        if line.length <= max_line_bytes
        else RawLine(line.offset, b"", line.terminated, line.length, too_long=True)
        for line in _split(data)
    )
    scan = StoreScan(name, _options(ignore, strict, max_line_bytes), lines=raw, size=len(data))
    return scan.report(list(scan))


def check_store(
    path: str,
    *,
    ignore: Iterable[str] = (),
    strict: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> StoreReport:
    """Check one store file (read-only, streamed) and keep its lines in the report."""
    scan = StoreScan(path, _options(ignore, strict, max_line_bytes))
    return scan.report(list(scan))


def check_paths(
    paths: Sequence[str],
    *,
    ignore: Iterable[str] = (),
    strict: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> CheckReport:
    """Check every store in the order given; a path that cannot be checked never stops the
    others.  Keeps every line: the command line streams instead (conformance.store._render)."""
    options = _options(ignore, strict, max_line_bytes)
    stores = []
    for path in paths:
        scan = StoreScan(path, options)
        stores.append(scan.report(list(scan)))
    return CheckReport(tuple(stores), options)
