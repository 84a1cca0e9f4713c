"""pytest plugin: every phase6-v1 vector and property family as a pytest item, for any adapter.

Installed with the kit (``pytest11`` entry point ``phase6``), so in an implementer's own
repository::

    pytest --phase6-adapter "cmd:node my_adapter.js"                # every vector + property
    pytest --phase6-adapter "python:my_pkg.memory:memory_read" -k "trunc-"
    pytest --phase6-adapter "cmd:./impl serve" -m "clause_S6_TRUNC_07 and level_required"
    pytest --phase6-adapter "cmd:./impl serve" --phase6-select "clause:S6-HASH-*"
    pytest --phase6-adapter "cmd:./impl serve" --phase6-expected-failures known.txt

Item IDs are the vector IDs (``trunc-2b-cut-inside``) and ``property:<family>``
(``property:hashes``), so ``-k`` and expected-failure entries use them directly. Markers (all
registered, so ``--strict-markers`` passes): ``phase6``, ``phase6_vector``, ``phase6_property``,
``area_<area>``, ``level_required`` / ``level_pinned``, ``clause_<ID>`` (``S6-TRUNC-07`` ->
``clause_S6_TRUNC_07``) and ``interp_<ID>`` (``INT-31`` -> ``interp_INT_31``); property items
carry the clause markers of their family. ``--phase6-expected-failures FILE`` marks listed items
``xfail(strict=True)`` with the file's reason, so an unexpected pass fails the run (same format
as ``certify --expected-failures``: ``<id or glob>  # reason`` per line; ``property:<family>``
entries are accepted too).

Without ``--phase6-adapter`` the plugin does nothing at all: it only declares its options (the
kit's own test suite loads it through the entry point as well). pytest is not a dependency of
the kit: install the ``pytest`` extra (``pip install "adamos-phase6-conformance[pytest]"``). A
``python:`` adapter module in the working directory imports as it does under ``phase6
certify`` (the ``pytest`` script, unlike ``python -m``, does not put the working directory on
``sys.path``).

The corpus (``--phase6-vectors`` may name a stranger's) is loaded by the harness's loader and
each vector is materialized by the harness's executor: names that are not plain relative paths
are refused (a usage error naming the file), and nothing is ever written outside a vector's
root. What an implementation wrote is shown through :func:`~conformance._kit.terminal_safe`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from conformance._errors import CorpusError, ExpectedFailuresError, UsageError
from conformance._kit import terminal_safe
from conformance.corpus import ExpectedFailureEntry, load_expected_failures

__all__ = ["ExpectedEntry", "load_expected", "marker_name"]

_ADAPTER = "--phase6-adapter"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Declare the plugin's options (the only thing it does without ``--phase6-adapter``)."""
    group = parser.getgroup("phase6", "SPEC-006 memory.read conformance (phase6-v1)")
    group.addoption(
        _ADAPTER,
        metavar="SPEC",
        help="implementation under test: 'cmd:<command line>' (phase6-adapter/1) or "
        "'python:package.module:callable'; turns every vector and property into a test",
    )
    group.addoption(
        "--phase6-expected-failures",
        metavar="FILE",
        help="'<id or glob>  # reason' per line: those items are xfail(strict=True)",
    )
    group.addoption(
        "--phase6-select",
        action="append",
        default=[],
        metavar="PATTERN",
        help="only matching vectors: id:GLOB, clause:GLOB, interp:GLOB, area:NAME, level:NAME "
        "or a bare clause / INT-nn / area / level / ID glob (repeatable)",
    )
    group.addoption(
        "--phase6-vectors", metavar="DIR", help="corpus directory (default: the kit's corpus)"
    )
    group.addoption(
        "--phase6-no-properties", action="store_true", help="no property:<family> items"
    )
    group.addoption(
        "--phase6-no-vectors", action="store_true", help="no vector items (properties only)"
    )
    group.addoption("--phase6-deep", action="store_true", help="property items fuzz (20x examples)")
    group.addoption("--phase6-seed", type=int, metavar="N", help="property suite seed")
    group.addoption(
        "--phase6-timeout", type=float, default=30.0, metavar="S", help="seconds per request"
    )


def marker_name(kind: str, value: str) -> str:
    """The marker for a clause, interpretation, area or level: ``clause_S6_TRUNC_07``."""
    return f"{kind}_{re.sub(r'[^A-Za-z0-9_]', '_', value)}"


# ------------------------------------------------------------------------------ expected failures


ExpectedEntry = ExpectedFailureEntry  # the harness's format and parser, one of each


def load_expected(path: Path) -> tuple[ExpectedEntry, ...]:
    """Parse an expected-failures file (the harness's format; every entry needs a reason)."""
    try:
        return load_expected_failures(path).entries
    except (UsageError, ExpectedFailuresError) as exc:
        raise pytest.UsageError(str(exc)) from None


# ------------------------------------------------------------------------------ session state


class _Session:
    """What the items share: one adapter (one process), one probe, the corpus, the settings."""

    def __init__(self, config: pytest.Config) -> None:
        from conformance.corpus import load_corpus, select_vectors
        from conformance.registers import load_clauses, load_interpretations

        self.spec: str = config.getoption(_ADAPTER)
        self.timeout: float = config.getoption("--phase6-timeout")
        try:
            self.corpus = load_corpus(config.getoption("--phase6-vectors"))
        except CorpusError as exc:
            raise pytest.UsageError(f"phase6: the corpus cannot be used: {exc}") from None
        self.clauses = load_clauses()
        self.interpretations = load_interpretations()
        try:
            self.vectors = (
                ()
                if config.getoption("--phase6-no-vectors")
                else select_vectors(self.corpus.vectors, config.getoption("--phase6-select"))
            )
        except Exception as exc:
            raise pytest.UsageError(str(exc)) from None
        self.properties = not config.getoption("--phase6-no-properties")
        self.deep: bool = config.getoption("--phase6-deep")
        self.seed: int | None = config.getoption("--phase6-seed")
        expected = config.getoption("--phase6-expected-failures")
        self.expected = load_expected(Path(expected)) if expected else ()
        self._executor: Any = None
        self._probe: Any = None

    def reason_for(self, item_id: str) -> str | None:
        """The expected-failure reason for ``item_id``, or ``None``."""
        for entry in self.expected:
            if entry.matches(item_id):
                return entry.reason
        return None

    def executor(self) -> Any:
        """The harness executor (one adapter process for the whole session)."""
        if self._executor is None:
            from conformance.run import Executor, RunConfig

            self._executor = Executor(RunConfig(adapter=self.spec, timeout=self.timeout))
        return self._executor

    def probe(self) -> Any:
        """The property-suite probe, sharing the executor's adapter."""
        if self._probe is None:
            from conformance.properties import Probe

            self._probe = Probe(self.executor().adapter, timeout=self.timeout)
        return self._probe

    def close(self) -> None:
        """Stop everything this session started."""
        try:
            if self._probe is not None:
                self._probe.close()
        finally:
            if self._executor is not None:
                self._executor.close()


_STATE = pytest.StashKey[_Session]()


def pytest_configure(config: pytest.Config) -> None:
    """With ``--phase6-adapter``: load the corpus and registers and register every marker."""
    if not config.getoption(_ADAPTER, default=None):
        return
    from conformance.run import importable_cwd

    importable_cwd(config.getoption(_ADAPTER))
    state = _Session(config)
    config.stash[_STATE] = state
    config.add_cleanup(state.close)
    lines = [
        "phase6: a SPEC-006 conformance item (vector or property)",
        "phase6_vector: a phase6-v1 vector",
        "phase6_property: a property family of the phase6-v1 property suite",
        "level_required: a vector decided by the spec text alone",
        "level_pinned: a vector decided by an interpretation-register entry",
    ]
    lines += [
        f"{marker_name('area', area)}: vectors of corpus area {area}" for area in state.corpus.areas
    ]
    lines += [f"{marker_name('clause', c.id)}: checks {c.id}: {c.summary}" for c in state.clauses]
    lines += [
        f"{marker_name('interp', i.id)}: pinned by {i.id}: {i.title}" for i in state.interpretations
    ]
    for line in lines:
        config.addinivalue_line("markers", line)


# ------------------------------------------------------------------------------ items


class Phase6Failure(Exception):
    """An item failed; ``text`` is the report pytest shows (no traceback)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Phase6Item(pytest.Item):
    """Common reporting: a failed item shows its report text, not a traceback."""

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str:
        """The item's own failure text."""
        if isinstance(excinfo.value, Phase6Failure):
            return excinfo.value.text
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the item comes from, for pytest's headers."""
        return self.path, None, self.name


class VectorItem(_Phase6Item):
    """One vector, run through the harness executor (twice, store-mutation checked)."""

    def __init__(self, *, vector: Any, state: _Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.vector = vector
        self.state = state

    def runtest(self) -> None:
        """Run the vector; a failed or errored result fails the item."""
        from conformance.run import Outcome

        result = self.state.executor().run_vector(self.vector)
        if result.outcome is Outcome.PASSED:
            return
        lines = [f"{self.vector.id} {result.outcome.value}: {self.vector.description}"]
        for failure in result.failures:
            lines.append(f"  [{failure.kind.value}] {failure.message}")
            lines.append(f"  clauses: {', '.join(failure.clauses)}")
            if failure.expected is not None:
                lines.append(f"  expected: {failure.expected}")
                lines.append(f"  actual:   {failure.actual}")
            if failure.diff:
                lines.append(failure.diff)
        if result.error is not None:
            lines.append(f"  [{result.error.kind.value}] {result.error.message}")
            if result.error.stderr_tail:
                lines.append("  stderr tail:\n" + result.error.stderr_tail[-2000:])
        lines.append(f"  file: {self.vector.file}")
        raise Phase6Failure(terminal_safe("\n".join(lines)))


class PropertyItem(_Phase6Item):
    """One property family, run under hypothesis with the certification seed."""

    def __init__(self, *, family: Any, state: _Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.family = family
        self.state = state

    def runtest(self) -> None:
        """Run the family; a failure shows the shrunk counterexample as a vector."""
        from conformance.properties import DEFAULT_SEED, PropertySettings
        from conformance.properties._engine import run_family

        seed = self.state.seed
        settings = PropertySettings(
            seed=seed if seed is not None else (None if self.state.deep else DEFAULT_SEED),
            deep=self.state.deep,
            timeout=self.state.timeout,
        )
        result = run_family(self.family, self.state.probe(), settings.resolved())
        if result.outcome == "passed":
            return
        lines = [
            f"{result.id} {result.outcome} after {result.calls} calls (seed {result.seed}): "
            f"[{result.check}] {', '.join(result.failed_clauses)}",
            f"  {result.message}",
        ]
        for vector in result.counterexamples:
            lines.append(f"  counterexample vector {vector['id']}:")
            lines.append(json.dumps(vector, indent=1, ensure_ascii=False))
        if result.detail:
            lines.append(result.detail[-2000:])
        raise Phase6Failure(terminal_safe("\n".join(lines)))


def _items(session: pytest.Session, state: _Session) -> Iterator[pytest.Item]:
    from conformance.properties import FAMILIES

    root = state.corpus.root
    for vector in state.vectors:
        item = VectorItem.from_parent(
            session,
            name=vector.id,
            nodeid=vector.id,
            path=root / vector.file,
            vector=vector,
            state=state,
        )
        markers = ["phase6", "phase6_vector", marker_name("area", vector.area)]
        markers.append(marker_name("level", vector.level))
        markers += [marker_name("clause", c) for c in vector.clauses]
        markers += [marker_name("interp", i) for i in vector.interpretations]
        for name in dict.fromkeys(markers):
            item.add_marker(name)
        yield item
    if not state.properties:
        return
    for family in FAMILIES.values():
        prop = PropertyItem.from_parent(
            session,
            name=family.item_id,
            nodeid=family.item_id,
            path=Path(__file__),
            family=family,
            state=state,
        )
        markers = ["phase6", "phase6_property"]
        markers += [marker_name("clause", c) for c in family.clauses]
        markers += [marker_name("interp", i) for i in family.interpretations]
        for name in dict.fromkeys(markers):
            prop.add_marker(name)
        yield prop


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Append the phase6 items (before ``-k`` / ``-m`` deselect) and apply expected failures."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    added: Sequence[pytest.Item] = list(_items(session, state))
    for item in added:
        reason = state.reason_for(item.name)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    items.extend(added)
    # Report the items as collected, so "collected N items / M deselected" adds up.
    report = pytest.CollectReport("phase6", "passed", None, list(added))
    session.ihook.pytest_collectreport(report=report)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    """One header line naming the adapter and the corpus."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return None
    return [
        f"phase6: adapter {state.spec}; corpus {state.corpus.digest} "
        f"({len(state.vectors)} vectors selected); "
        f"{len(state.expected)} expected-failure entries"
    ]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Name expected-failure entries that match no item (a stale list)."""
    state = config.stash.get(_STATE, None)
    if state is None or not state.expected:
        return
    from conformance.properties import FAMILIES

    ids = [v.id for v in state.corpus.vectors] + [f.item_id for f in FAMILIES.values()]
    for entry in state.expected:
        if not any(entry.matches(i) for i in ids):
            terminalreporter.write_line(
                f"phase6: stale expected-failure entry (line {entry.line}): "
                f"{entry.pattern!r} matches no vector or property"
            )
