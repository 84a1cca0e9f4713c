"""`store check` output, streamed: the human report and the JSON report, one line at a time.

A run feeds each store to a sink as it is read (``begin``, then per store ``store_begin``,
``line`` for every line, ``store_end``, then ``end``), so neither output holds a store's lines:
the text report's table has fixed column widths, and the JSON report is written in the pieces
`conformance.store._check` defines (its summaries come after its lines).  The in-memory
`render_text` / `render_json` feed a finished CheckReport through the same sinks.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any, Final, Protocol, TextIO

from conformance.store._check import (
    CheckReport,
    LineResult,
    Options,
    StoreReport,
    StoreScan,
    exit_code,
    report_head,
    report_tail,
    store_head,
    store_tail,
)
from conformance.store._forms import FORMS, PINNED
from conformance.store._lines import Finding
from conformance.store._read import PathError
from conformance.store._rules import CODES

__all__ = [
    "MAX_LISTED_LINES",
    "JsonSink",
    "Sink",
    "TextSink",
    "codes_json",
    "render_codes",
    "render_json",
    "render_text",
    "run_check",
]

_TITLES: Final = {form.name: form.title for form in FORMS}
#: Lines of one store the text report lists finding by finding (0: all); past them the
#: per-store counts and the run's per-code totals still count every finding. A store with a
#: violation on every line printed 157 times its size as text.
MAX_LISTED_LINES: Final = 1000


class Sink(Protocol):
    """Where a run's results go, in order."""

    def begin(self, options: Options) -> None: ...
    def store_begin(self, path: str, size: int, error: PathError | None) -> None: ...
    def line(self, result: LineResult) -> None: ...
    def store_end(self, store: StoreReport) -> None: ...
    def end(self, stores: Sequence[StoreReport]) -> None: ...


def run_check(
    paths: Sequence[str],
    options: Options,
    out: TextIO,
    *,
    as_json: bool,
    every_line: bool,
    max_listed: int = MAX_LISTED_LINES,
) -> int:
    """Check `paths` in order, streaming the report to `out`; returns the exit status."""
    sink: Sink = (
        JsonSink(out, max_listed=max_listed)
        if as_json
        else TextSink(out, every_line=every_line, max_listed=max_listed)
    )
    sink.begin(options)
    stores = []
    for path in paths:
        scan = StoreScan(path, options)
        sink.store_begin(path, scan.size, scan.error)
        for result in scan:
            sink.line(result)
        store = scan.report()  # the summary only: the lines are already written
        sink.store_end(store)
        stores.append(store)
    sink.end(stores)
    return exit_code(stores)


def _replay(report: CheckReport, sink: Sink) -> None:
    sink.begin(report.options)
    for store in report.stores:
        sink.store_begin(store.path, store.size, store.error)
        for result in store.lines:
            sink.line(result)
        sink.store_end(store)
    sink.end(report.stores)


def render_text(report: CheckReport, *, every_line: bool = False) -> str:
    """The human report of a finished run (what `store check` prints)."""
    out = io.StringIO()
    _replay(report, TextSink(out, every_line=every_line))
    return out.getvalue()


def render_json(report: CheckReport) -> str:
    """The JSON report of a finished run, byte for byte what `store check --json` prints."""
    out = io.StringIO()
    _replay(report, JsonSink(out))
    return out.getvalue()


# ------------------------------------------------------------------------------ JSON


def _dumps(value: Any, indent: int) -> str:
    """`value` as indented JSON whose continuation lines sit `indent` spaces in."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + " " * indent)


class JsonSink:
    """The phase6-store-check/2 report, written as the run goes (one line object per line, for
    the first ``max_listed`` lines of each store; 0: all). Past them a store's
    ``lines_not_listed`` counts the rest, and its summary still counts every line: a store
    with a violation on every line printed 287 times its size as JSON."""

    def __init__(self, out: TextIO, *, max_listed: int = 0) -> None:
        self.out = out
        self.max_listed = max_listed
        self._stores = 0
        self._lines = 0
        self._not_listed = 0

    def _members(self, members: dict[str, Any], indent: int, *, leading: bool) -> None:
        pad = " " * indent
        for n, (key, value) in enumerate(members.items()):
            sep = ",\n" if leading or n else ""
            self.out.write(f"{sep}{pad}{json.dumps(key)}: {_dumps(value, indent)}")

    def begin(self, options: Options) -> None:
        self.out.write("{\n")
        self._members(report_head(options), 2, leading=False)
        self.out.write(',\n  "stores": [')

    def store_begin(self, path: str, size: int, error: PathError | None) -> None:
        self.out.write(("," if self._stores else "") + "\n    {\n")
        self._stores += 1
        self._members(store_head(path, size, error), 6, leading=False)
        self.out.write(',\n      "lines": [')
        self._lines = self._not_listed = 0

    def line(self, result: LineResult) -> None:
        if self.max_listed and self._lines >= self.max_listed:
            self._not_listed += 1
            return
        self.out.write(("," if self._lines else "") + "\n        ")
        self.out.write(json.dumps(result.to_json(), ensure_ascii=False))
        self._lines += 1

    def store_end(self, store: StoreReport) -> None:
        self.out.write("\n      ]" if self._lines else "]")
        if self._not_listed:
            self._members({"lines_not_listed": self._not_listed}, 6, leading=True)
        self._members(store_tail(store), 6, leading=True)
        self.out.write("\n    }")

    def end(self, stores: Sequence[StoreReport]) -> None:
        self.out.write("\n  ]" if self._stores else "]")
        self._members(report_tail(stores), 2, leading=True)
        self.out.write("\n}\n")


# ------------------------------------------------------------------------------ text

#: Characters a store could use to rewrite a terminal (ESC sequences, CR, BS, C1 controls) or
#: to reorder what a reader sees (bidirectional overrides): shown as escapes in text output.
_BIDI: Final = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
_INERT: Final = {
    c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
    for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *_BIDI)
}


def _clean(text: str) -> str:
    return text.translate(_INERT)


_ROW: Final = "  {:>6}  {:<8}  {:<22}  {:<14}  {:<26}  {}"


def _verdict(result: LineResult) -> str:
    verdict: str = result.spec006.verdict
    if result.spec006.rule and verdict != "valid":
        verdict = f"{verdict} ({result.spec006.rule})"
    return verdict


def _lines_list(count: int, lines: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in lines)
    return (
        f"line {shown}"
        if count == 1
        else f"{count} lines: {shown}" + (", ..." if count > len(lines) else "")
    )


def _hash_sentence(store: StoreReport) -> str | None:
    """What the store's hashes say about the canonical form its writer used (INT-47)."""
    summary = store.summary
    if not summary.hashes_checked:
        return None
    matched = dict(summary.hash_matches)
    unmatched = f", {summary.hash_unmatched} match no known form" if summary.hash_unmatched else ""
    consistent = summary.consistent_forms
    if PINNED in consistent:
        return (
            f"hashes: {matched[PINNED]} of {summary.hashes_checked} match RFC 8785 "
            f"(INT-47){unmatched}"
        )
    counts = ", ".join(f"{name} {count}" for name, count in matched.items())
    sentence = f"hashes: {summary.hashes_checked} checked, matching {counts}{unmatched}"
    if consistent:
        also = f" (also {', '.join(consistent[1:])})" if consistent[1:] else ""
        return (
            f"{sentence}; the store uses {consistent[0]} ({_TITLES[consistent[0]]}) "
            f"consistently{also}, INT-47 pins RFC 8785"
        )
    if summary.hash_unmatched < summary.hashes_checked:
        return f"{sentence}; mixed: no one form matches every intact hash"
    return sentence


class TextSink:
    """The human report: per store a table of violations (every line with `every_line`),
    then its counts, its hash forms and each notice code once; then the run's totals."""

    def __init__(
        self, out: TextIO, *, every_line: bool = False, max_listed: int = MAX_LISTED_LINES
    ) -> None:
        self.out = out
        self.every_line = every_line
        self.max_listed = max_listed
        self._listed = 0
        self._unlisted = 0
        self._header = False
        self.options = Options()

    def _say(self, line: str) -> None:
        """One output line; whatever came from a store is made inert first (_clean)."""
        self.out.write(_clean(line) + "\n")

    def begin(self, options: Options) -> None:
        self.options = options

    def store_begin(self, path: str, size: int, error: PathError | None) -> None:
        if error is not None:
            self._say(f"{path}: not checked: {error.code}: {error.message}")
            return
        self._say(f"{path} ({size} bytes)")
        self._header = False
        self._listed = self._unlisted = 0

    def _row(self, result: LineResult, finding: Finding | None) -> None:
        if not self._header:
            self._say(_ROW.format("line", "level", "code", "field", "spec006", "message"))
            self._header = True
        if finding is None:
            cells = (result.line, "-", "-", "-", _verdict(result), result.memory_id or "")
        else:
            cells = (
                result.line,
                finding.level,
                finding.code,
                finding.field or "-",
                _verdict(result),
                finding.message,
            )
        self._say(_ROW.format(*cells).rstrip())

    def line(self, result: LineResult) -> None:
        shown = result.violations + (result.notices if self.every_line else ())
        if not shown and not self.every_line:
            return
        if self.max_listed and self._listed >= self.max_listed:
            self._unlisted += 1
            return
        self._listed += 1
        for finding in shown:
            self._row(result, finding)
        if self.every_line and not shown:
            self._row(result, None)

    def store_end(self, store: StoreReport) -> None:
        if store.error is not None:
            return
        if self._unlisted:
            self._say(
                f"  ... and {self._unlisted} more line(s) not listed (the first "
                f"{self.max_listed} are; the counts below include them; --list 0 lists all)"
            )
        summary = store.summary
        verdicts = dict(summary.spec006)
        unchecked = f", {verdicts['unchecked']} unchecked" if verdicts["unchecked"] else ""
        self._say(
            f"  summary: {summary.lines} lines, {summary.records} records: {summary.violations} "
            f"violation(s), {summary.notices} notice(s); SPEC-006: {verdicts['valid']} valid, "
            f"{verdicts['invalid_record_schema']} invalid_record_schema, "
            f"{verdicts['skipped']} skipped{unchecked}"
        )
        sentence = _hash_sentence(store)
        if sentence is not None:
            self._say(f"  {sentence}")
        for notice in store.notice_summaries:
            code = CODES[notice.code]
            why = ", ".join(code.interpretations)
            strict = "; a violation under --strict" if code.level == "pinned" else ""
            self._say(
                f"  notice ({code.level}{', ' + why if why else ''}) {notice.code} on "
                f"{_lines_list(notice.count, notice.lines)}{strict}: {notice.message}"
            )

    def end(self, stores: Sequence[StoreReport]) -> None:
        tail = report_tail(stores)
        total = tail["summary"]
        by_code = total["by_code"]
        violations = [c for c in by_code if self.options.is_violation(c)]
        notices = [c for c in by_code if c not in violations]
        listed = ", ".join(f"{c} {by_code[c]}" for c in violations)
        noted = ", ".join(f"{c} {by_code[c]} ({CODES[c].level})" for c in notices)
        self._say(
            f"checked {total['stores'] - total['unchecked']} of {total['stores']} store(s), "
            f"{total['lines']} lines: {total['violations']} violation(s)"
            + (f" ({listed})" if listed else "")
            + f", {total['notices']} notice(s)"
            + (f" ({noted})" if noted else "")
            + (f"; {total['unchecked']} path(s) not checked" if total["unchecked"] else "")
            + (
                f"; ignored: {', '.join(sorted(self.options.ignore))}"
                if self.options.ignore
                else ""
            )
            + ("; --strict" if self.options.strict else "")
        )
        self._say(f"result: {_result(stores, self.options, notices)}")


def _result(stores: Sequence[StoreReport], options: Options, notices: list[str]) -> str:
    status = exit_code(stores)
    if status == 2:
        return "not every path could be checked (exit 2)"
    if status == 1:
        return "violations (exit 1)"
    pinned_codes = [c for c in notices if CODES[c].level == "pinned"]
    pinned = sorted({i for c in pinned_codes for i in CODES[c].interpretations})
    if pinned:
        return (
            f"no violation; differs from the pinned readings {', '.join(pinned)} "
            "(--strict makes those notices violations)"
        )
    return "no violation"


# ------------------------------------------------------------------------------ codes


def codes_json() -> dict[str, Any]:
    """The finding-code table as JSON (`store codes --json`)."""
    return {
        code.code: {
            "spec": code.spec,
            "level": code.level,
            "clause": code.clause,
            "interpretations": list(code.interpretations),
            "meaning": code.meaning,
        }
        for code in CODES.values()
    }


def render_codes() -> str:
    """The finding-code table as text (`store codes`)."""
    rows = [("code", "spec", "level", "clause", "meaning")]
    rows.extend((c.code, c.spec, c.level, c.clause, c.meaning) for c in CODES.values())
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    out = []
    for n, row in enumerate(rows):
        cells = [cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)]
        out.append("  ".join([*cells, row[4]]).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in [*widths, len(row[4])]))
    return "\n".join(out) + "\n"
