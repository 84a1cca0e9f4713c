"""Progress output: a bar on a terminal, quiet lines in CI (``CI`` set or not a TTY).

What an implementation wrote (its name, its messages) is printed through
:func:`conformance._kit.one_line`, so no escape sequence or newline it chose can draw over a
line of the kit's. Individual vectors that did not pass are listed up to :data:`LISTED`
(``verbose`` lists every one): a broken implementation fails a thousand vectors for a handful
of reasons, which the failure signatures at the end name.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, TextIO

from conformance._kit import one_line
from conformance.run._results import Outcome, VectorResult

if TYPE_CHECKING:
    from conformance.run._sections import Section

__all__ = ["LISTED", "BarProgress", "LineProgress", "NullProgress", "Progress", "make_progress"]

#: Vectors that did not pass listed one by one, at most (unless verbose).
LISTED = 5

_MARK = {
    Outcome.FAILED: "FAIL",
    Outcome.ERRORED: "ERROR",
    Outcome.SKIPPED: "SKIP",
    Outcome.EXPECTED_FAILURE: "XFAIL",
}


class Progress:
    """Base class: counts results; subclasses draw."""

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False):
        self.stream = stream if stream is not None else sys.stderr
        self.total = 0
        self.done = 0
        self.bad = 0
        self.started = time.monotonic()
        self.label = ""
        self.verbose = verbose
        self.listed = 0
        self._section_started = time.monotonic()

    def _listing(self, result: VectorResult) -> str | None:
        """The line for a vector that did not pass, the overflow notice once, or None."""
        if result.ok:
            return None
        self.listed += 1
        if self.verbose or self.listed <= LISTED:
            mark = "UNEXPECTED PASS" if result.unexpected_pass else _MARK[result.outcome]
            return f"{mark} {result.id}: {_why(result)}"
        if self.listed == LISTED + 1:
            return (
                "... further vectors that do not pass are not listed (-v lists them all; "
                "the failure signatures at the end group them)"
            )
        return None

    def section_started(self, name: str, index: int, total: int) -> None:
        """A report section (properties, probes, ...) begins."""
        self._section_started = time.monotonic()
        self.note(f"section {index}/{total} {name}: running")

    def section_finished(self, section: Section) -> None:
        """A report section ended: how long it took (its status and tally are printed once,
        in the summary after the run)."""
        elapsed = time.monotonic() - self._section_started
        self.note(f"section {section.name}: done in {elapsed:.1f} s")

    def start(self, total: int, label: str) -> None:
        """A phase of ``total`` steps begins."""
        self.total, self.done, self.bad, self.label = total, 0, 0, label
        self.started = time.monotonic()

    def advance(self, result: VectorResult) -> None:
        """One vector finished."""
        self.done += 1
        self.bad += not result.ok

    def note(self, text: str) -> None:
        """A line of information."""
        self._line(one_line(text))

    def finish(self) -> None:
        """The phase ended."""

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()


class NullProgress(Progress):
    """Prints nothing."""

    def note(self, text: str) -> None:
        """Ignored."""


class LineProgress(Progress):
    """CI output: one line per vector that did not pass, and a line every 10 %."""

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False):
        super().__init__(stream, verbose=verbose)
        self._next_tick = 0

    def start(self, total: int, label: str) -> None:
        """Announce the phase."""
        super().start(total, label)
        self._next_tick = max(10, total // 10)
        self._line(f"{label}: {total} vectors")

    def advance(self, result: VectorResult) -> None:
        """Report bad results and every 10 %."""
        super().advance(result)
        listing = self._listing(result)
        if listing is not None:
            self._line(listing)
        if self.done >= self._next_tick and self.done < self.total:
            self._line(
                f"{self.label}: {self.done}/{self.total} ({time.monotonic() - self.started:.1f} s)"
            )
            self._next_tick += max(10, self.total // 10)

    def finish(self) -> None:
        """Close the phase with its duration."""
        elapsed = time.monotonic() - self.started
        self._line(f"{self.label}: {self.done}/{self.total} done in {elapsed:.1f} s")


class BarProgress(Progress):
    """A hand-drawn bar on the terminal, redrawn at most 20 times a second."""

    width = 30

    def __init__(self, stream: TextIO | None = None, *, verbose: bool = False):
        super().__init__(stream, verbose=verbose)
        self._drawn = 0.0

    def advance(self, result: VectorResult) -> None:
        """Redraw (throttled); bad results are printed above the bar."""
        super().advance(result)
        listing = self._listing(result)
        if listing is not None:
            self._clear()
            self._line(listing)
            self._draw()
            return
        now = time.monotonic()
        if now - self._drawn >= 0.05 or self.done == self.total:
            self._draw()

    def note(self, text: str) -> None:
        """Print above the bar."""
        self._clear()
        self._line(one_line(text))

    def finish(self) -> None:
        """Draw the final state and end the line."""
        self._draw()
        self.stream.write("\n")
        self.stream.flush()

    def _clear(self) -> None:
        self.stream.write("\r\x1b[2K")

    def _draw(self) -> None:
        self._drawn = time.monotonic()
        filled = int(self.width * self.done / self.total) if self.total else self.width
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = self._drawn - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        self.stream.write(
            f"\r\x1b[2K{self.label} [{bar}] {self.done}/{self.total} "
            f"{rate:.0f}/s  not passed: {self.bad}"
        )
        self.stream.flush()


def _why(result: VectorResult) -> str:
    if result.unexpected_pass:
        text = f"listed as expected failure ({result.expected_failure_reason}) but passed"
    elif result.error is not None:
        text = f"[{result.error.kind}] {result.error.message}"
    elif result.failures:
        text = f"[{result.failures[0].kind}] {result.failures[0].message}"
    else:
        text = result.skip_reason or result.expected_failure_reason or ""
    return one_line(text[:300])


def make_progress(
    stream: TextIO | None = None, *, quiet: bool = False, verbose: bool = False
) -> Progress:
    """A bar on an interactive terminal, lines in CI or when piped, nothing when ``quiet``;
    ``verbose`` lists every vector that did not pass."""
    stream = stream if stream is not None else sys.stderr
    if quiet:
        return NullProgress(stream)
    interactive = stream.isatty() and not os.environ.get("CI")
    return (
        BarProgress(stream, verbose=verbose)
        if interactive
        else LineProgress(stream, verbose=verbose)
    )
