"""pytest plugin: every phase6-v1 vector and property family as a pytest item, for any adapter.

Installed with the kit (``pytest11`` entry point ``phase6``), so in an implementer's own
repository::

    pytest --phase6-adapter "cmd:node my_adapter.js"                # every vector + property
    pytest --phase6-adapter "python:my_pkg.memory:memory_read" -k "trunc-"
    pytest --phase6-adapter "cmd:./impl serve" -m "clause_S6_TRUNC_07 and level_required"
    pytest --phase6-adapter "cmd:./impl serve" --phase6-select "clause:S6-HASH-*"
    pytest --phase6-adapter "cmd:./impl serve" --phase6-expected-failures known.txt

Item names are the vector IDs (``hashing-h001``) and ``property:<family>``
(``property:hashes``), so ``-k`` and expected-failure entries use them directly; an identifier of
a ``-k`` expression that is a whole item name selects that item only (``-k recency-h010`` is not
``recency-h010-12h``), any other identifier matches as pytest's usual substring. Node IDs are
``phase6/<area>::<vector ID>`` and ``phase6/properties::property:<family>`` (junit
``classname`` ``phase6.<area>``), and they are arguments like a test file's::

    pytest --phase6-adapter SPEC phase6/recency::recency-h009    # one vector
    pytest --phase6-adapter SPEC phase6::recency-h009            # the same, without the area
    pytest --phase6-adapter SPEC phase6/truncation               # one area
    pytest --phase6-adapter SPEC tests/ phase6                   # own tests and every item

Without file or node arguments the run holds every item (and whatever pytest collects by
itself); with arguments, phase6 items only when an argument addresses them, so
``pytest tests/test_own.py --phase6-adapter SPEC`` runs the file alone. At the end of a run
the failed vectors are grouped by failure signature (:func:`conformance.run.signature_of`,
the certification's grouping), required ones first. Markers (all
registered, so ``--strict-markers`` passes): ``phase6``, ``phase6_vector``, ``phase6_property``,
``area_<area>``, ``level_required`` / ``level_pinned``, ``clause_<ID>`` (``S6-TRUNC-07`` ->
``clause_S6_TRUNC_07``) and ``interp_<ID>`` (``INT-31`` -> ``interp_INT_31``); property items
carry the clause markers of their family. ``--phase6-expected-failures FILE`` marks listed items
``xfail(strict=True)`` with the file's reason, so an unexpected pass fails the run (same format
as ``certify --expected-failures``: ``<id or glob>  # reason`` per line; ``property:<family>``
entries are accepted too); an entry matching no vector or property of the corpus is stale and
fails the run as well (exit 1), so the list cannot silently outlive the bugs it names.

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
import shlex
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conformance._errors import CorpusError, ExpectedFailuresError, UsageError
from conformance._kit import terminal_safe
from conformance.corpus import ExpectedFailureEntry, load_expected_failures

__all__ = ["ExpectedEntry", "load_expected", "marker_name", "node_id"]

_ADAPTER = "--phase6-adapter"
#: The first segment of every phase6 node ID, and the argument that addresses every item.
ROOT_NAME = "phase6"
#: The pseudo-area of the property items (``phase6/properties::property:hashes``).
PROPERTIES_AREA = "properties"
#: The ``user_properties`` key a failed vector's report carries its signature under.
SIGNATURE_PROPERTY = "phase6_signature"


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


def node_id(area: str, item_id: str) -> str:
    """The node ID of an item: ``phase6/<area>::<item ID>`` (junit classname ``phase6.<area>``)."""
    return f"{ROOT_NAME}/{area}::{item_id}"


@dataclass(frozen=True)
class _Address:
    """A positional argument naming phase6 items: everything, an area, or one item."""

    area: str | None = None
    item: str | None = None

    def matches(self, area: str, item_id: str) -> bool:
        """Whether the item ``item_id`` of ``area`` is addressed."""
        return (self.area is None or self.area == area) and self.item in (None, item_id)


def _address(arg: str) -> _Address | None:
    """``arg`` as a phase6 address (``phase6``, ``phase6/<area>``, ``phase6/<area>::<id>``,
    ``phase6::<id>``), or ``None`` when it is an ordinary file or node argument."""
    path, _, item = arg.partition("::")
    path = path.rstrip("/")
    if path == ROOT_NAME:
        return _Address(item=item or None)
    head, _, area = path.partition("/")
    if head != ROOT_NAME or not area or "/" in area:
        return None
    return _Address(area=area, item=item or None)


def _take_addresses(config: pytest.Config) -> tuple[_Address, ...] | None:
    """Remove the phase6 addresses from the run's file arguments and return them.

    ``None`` means no file or node argument was given (every item is wanted); an empty tuple
    means arguments were given and none addresses phase6 items. A path that exists is never
    taken for an address.
    """
    if config.args_source is not pytest.Config.ArgsSource.ARGS:
        return None
    addresses: list[_Address] = []
    kept: list[str] = []
    for arg in config.args:
        address = _address(arg)
        if address is None or (config.invocation_params.dir / arg.partition("::")[0]).exists():
            kept.append(arg)
        else:
            addresses.append(address)
    config.args[:] = kept
    return tuple(addresses)


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
        self.addresses = _take_addresses(config)
        self.stale: tuple[ExpectedEntry, ...] = ()
        self._executor: Any = None
        self._probe: Any = None

    def wanted(self, area: str, item_id: str) -> bool:
        """Whether the run's file arguments (or their absence) ask for this item."""
        if self.addresses is None:
            return True
        return any(address.matches(area, item_id) for address in self.addresses)

    def stale_entries(self) -> tuple[ExpectedEntry, ...]:
        """Expected-failure entries that match no vector or property of the corpus."""
        from conformance.properties import FAMILIES

        ids = [v.id for v in self.corpus.vectors] + [f.item_id for f in FAMILIES.values()]
        return tuple(e for e in self.expected if not any(e.matches(i) for i in ids))

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
        from conformance.run import Outcome, signature_of

        result = self.state.executor().run_vector(self.vector)
        if result.outcome is Outcome.PASSED:
            return
        signature = signature_of(result)
        if signature is not None:
            # travels with the report (to an xdist controller too) and into junit properties
            self.user_properties.append((SIGNATURE_PROPERTY, signature))
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
        if not state.wanted(vector.area, vector.id):
            continue
        item = VectorItem.from_parent(
            session,
            name=vector.id,
            nodeid=node_id(vector.area, vector.id),
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
        if not state.wanted(PROPERTIES_AREA, family.item_id):
            continue
        prop = PropertyItem.from_parent(
            session,
            name=family.item_id,
            nodeid=node_id(PROPERTIES_AREA, family.item_id),
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


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> Generator[None, None, None]:
    """Append the phase6 items (before ``-m`` deselects), apply expected failures, and apply
    ``-k`` here, once, so that an identifier naming a whole item selects only that item.

    pytest's ``-k`` matches identifiers as substrings (``recency-h010`` would also select
    ``recency-h010-12h``): with phase6 items, the expression is held back from pytest's own
    deselection and evaluated afterwards with :func:`_keyword_matcher`, every other rule of it
    unchanged.
    """
    state = config.stash.get(_STATE, None)
    if state is None:
        return (yield)
    added: Sequence[pytest.Item] = list(_items(session, state))
    for item in added:
        reason = state.reason_for(item.name)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    items.extend(added)
    # Report the items as collected, so "collected N items / M deselected" adds up.
    report = pytest.CollectReport(ROOT_NAME, "passed", None, list(added))
    session.ihook.pytest_collectreport(report=report)
    if state.addresses:
        found = [a for a in state.addresses if any(a.matches(*_area_and_id(i)) for i in added)]
        missing = [a for a in state.addresses if a not in found]
        if missing:
            names = ", ".join(_address_text(a) for a in missing)
            raise pytest.UsageError(f"phase6: no vector or property at {names}")
    keyword = config.option.keyword
    config.option.keyword = ""
    try:
        yield
    finally:
        config.option.keyword = keyword
    if keyword.strip():
        _deselect_by_keyword(config, items, keyword.strip())
    return None


def _area_and_id(item: pytest.Item) -> tuple[str, str]:
    """The area and item ID a phase6 node ID names."""
    path, _, item_id = item.nodeid.partition("::")
    return path.partition("/")[2], item_id


def _address_text(address: _Address) -> str:
    """An address as it was (or could have been) written on the command line."""
    path = ROOT_NAME if address.area is None else f"{ROOT_NAME}/{address.area}"
    return f"{path}::{address.item}" if address.item else path


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


# ------------------------------------------------------------------------------ -k


def _keyword_matcher(item: pytest.Item, whole: frozenset[str]) -> Any:
    """pytest's ``-k`` matcher for ``item``, except that an identifier equal to a whole phase6
    item name (in ``whole``, lower case) matches only the item of that name."""
    from _pytest.mark import KeywordMatcher

    base = KeywordMatcher.from_item(item)
    own = item.name.lower() if isinstance(item, _Phase6Item) else None

    def match(name: str, /, **kwargs: Any) -> bool:
        if own is not None and not kwargs and name.lower() in whole:
            return name.lower() == own
        return base(name, **kwargs)

    return match


def _deselect_by_keyword(config: pytest.Config, items: list[pytest.Item], keyword: str) -> None:
    """Deselect the items ``-k KEYWORD`` does not select (see :func:`_keyword_matcher`)."""
    from _pytest.mark.expression import Expression

    try:
        expression = Expression.compile(keyword)
    except SyntaxError as exc:
        raise pytest.UsageError(
            f"Wrong expression passed to '-k': {keyword}: at column {exc.offset}: {exc.msg}"
        ) from None
    whole = frozenset(i.name.lower() for i in items if isinstance(i, _Phase6Item))
    remaining = [i for i in items if expression.evaluate(_keyword_matcher(i, whole))]
    if len(remaining) != len(items):
        kept = {id(i) for i in remaining}
        config.hook.pytest_deselected(items=[i for i in items if id(i) not in kept])
        items[:] = remaining


# ------------------------------------------------------------------------------ end of the run


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
    """A stale expected-failure entry (matching no vector or property) fails a passing run."""
    state = session.config.stash.get(_STATE, None)
    if state is None or not state.expected:
        return
    state.stale = state.stale_entries()
    if state.stale and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _signature_groups(reports: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """Failed phase6 vector reports grouped by signature: groups holding a required vector
    first, then by size (the order of the certification's "what to fix first")."""
    groups: dict[str, list[Any]] = {}
    for report in reports:
        signature = dict(report.user_properties).get(SIGNATURE_PROPERTY)
        if isinstance(signature, str):
            groups.setdefault(signature, []).append(report)

    def required(members: list[Any]) -> bool:
        return any(marker_name("level", "required") in r.keywords for r in members)

    return sorted(groups.items(), key=lambda g: (not required(g[1]), -len(g[1]), g[0]))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Group the failed vectors by failure signature; name stale expected-failure entries."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    groups = _signature_groups(terminalreporter.stats.get("failed", []))
    if groups:
        count = sum(len(members) for _, members in groups)
        terminalreporter.section(
            f"phase6 failures by signature: {count} vectors, {len(groups)} signature(s)"
        )
        adapter = shlex.quote(state.spec)
        for signature, members in groups:
            ids = sorted(r.nodeid.partition("::")[2] for r in members)
            levels = ", ".join(
                f"{level} {n}"
                for level in ("required", "pinned")
                if (n := sum(marker_name("level", level) in r.keywords for r in members))
            )
            terminalreporter.write_line(terminal_safe(f"{len(members)} x {signature}  ({levels})"))
            shown = ", ".join(ids[:8]) + (f", ... ({len(ids) - 8} more)" if len(ids) > 8 else "")
            terminalreporter.write_line(terminal_safe(f"    vectors: {shown}"))
            example = min(members, key=lambda r: r.nodeid).nodeid
            terminalreporter.write_line(
                terminal_safe(f"    rerun:   pytest --phase6-adapter {adapter} {example}")
            )
    for entry in state.stale:
        terminalreporter.write_line(
            f"phase6: stale expected-failure entry (line {entry.line}): "
            f"{entry.pattern!r} matches no vector or property; the run fails until it is removed"
        )
