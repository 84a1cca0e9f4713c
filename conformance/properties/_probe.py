"""How a property talks to the implementation under test: materialize, run, clean up.

A :class:`Probe` wraps one started adapter (in-process or subprocess, it makes no difference),
the reference adapter (for the differential family and for counterexample expectations) and a
lazily started *fresh* adapter (the determinism family compares against a second process).
Every run materializes the scenario's files in a new directory of one private
:class:`~conformance.corpus.Workspace` (tmpfs when available), worked in by descriptor, and
removes it afterwards. Each directory is named at random and created with ``O_EXCL`` and no
symlink followed: an implementation that sees its root's path cannot predict the next one, and
an entry it plants where a root will be is replaced, never written through. The kit's model of
a scenario is built from its files before the implementation runs on them.

Outcomes of a run that are not a result:

- the implementation reports an internal error (an exception in a ``python:`` callable, an
  ``internal_error`` reply): a :class:`PropertyFailure` (hypothesis shrinks it like any other);
- the adapter times out, crashes or breaks the protocol: :class:`AdapterAbort`, a
  ``BaseException`` that hypothesis does not catch, so a hung implementation is not re-run
  hundreds of times while shrinking; the family is *errored* with the unshrunk input;
- the kit cannot model its own input: :class:`KitAbort` (a kit bug, reported as *errored*).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from conformance._errors import AdapterError, AdapterInternalError, CorpusError
from conformance.adapters import Adapter, open_adapter
from conformance.corpus import Workspace
from conformance.properties._model import KitError, Model, build_model
from conformance.run import default_temp_parent
from conformance.strategies import Scenario

__all__ = [
    "REFERENCE_SPEC",
    "AdapterAbort",
    "KitAbort",
    "Probe",
    "PropertyFailure",
    "enforcing",
    "pinned_enforced",
]

#: The reference, in-process: the differential family's oracle and the source of every
#: counterexample's ``expect``.
REFERENCE_SPEC = "python:reference:memory_read"


class PropertyFailure(AssertionError):
    """A property does not hold for one input: which check, which clauses, what was seen.

    ``interpretations`` are the register entries the check involves; ``pinned`` is set when
    the check itself rests only on those readings (dropped in read order, INT-28; error codes
    and paths, INT-40): such a failure says "differs on INT-x", not "breaks the spec".
    """

    def __init__(
        self,
        check: str,
        clauses: Sequence[str],
        message: str,
        *,
        interpretations: Sequence[str] = (),
        pinned: Sequence[str] = (),
    ) -> None:
        super().__init__(f"[{check}] {message}")
        self.check = check
        self.clauses = tuple(clauses)
        self.interpretations = tuple(dict.fromkeys((*interpretations, *pinned)))
        self.pinned = tuple(pinned)
        self.message = message


#: The pinned checks enforced while a family runs (``None``: all). A run that asks "does the
#: implementation pass on what every reading agrees on?" enforces none; one that asks "does it
#: read INT-x differently?" enforces INT-x's alone.
_ENFORCED: ContextVar[frozenset[str] | None] = ContextVar("phase6_enforced_pinned", default=None)


def pinned_enforced(interpretations: Sequence[str]) -> bool:
    """Whether a check resting only on ``interpretations`` is enforced in this run."""
    enforced = _ENFORCED.get()
    return enforced is None or bool(enforced.intersection(interpretations))


@contextlib.contextmanager
def enforcing(interpretations: frozenset[str] | None) -> Iterator[None]:
    """Enforce only the pinned checks of ``interpretations`` (``None``: all) inside."""
    token = _ENFORCED.set(interpretations)
    try:
        yield
    finally:
        _ENFORCED.reset(token)


class AdapterAbort(BaseException):
    """The adapter hung, crashed or broke the protocol: stop the family, do not shrink."""

    def __init__(self, error: AdapterError, scenario: Scenario) -> None:
        super().__init__(error.message)
        self.error = error
        self.scenario = scenario


class KitAbort(BaseException):
    """The kit failed on its own input (never the implementation's fault)."""

    def __init__(self, message: str, scenario: Scenario) -> None:
        super().__init__(message)
        self.message = message
        self.scenario = scenario


class Probe:
    """One adapter under test plus the reference, behind materialize-run-clean-up calls."""

    def __init__(
        self,
        adapter: Adapter,
        *,
        reference: Adapter | None = None,
        timeout: float = 30.0,
        temp_parent: str | None = None,
    ) -> None:
        self.adapter = adapter
        self.timeout = timeout
        self._reference = reference
        self._fresh: Adapter | None = None
        self._workspace = Workspace(temp_parent or default_temp_parent(), prefix="tmp")
        self.requests = 0

    # -- lifecycle

    def close(self) -> None:
        """Stop the helper adapters this probe started and remove its temp root."""
        try:
            for extra in (self._fresh, self._reference):
                if extra is not None:
                    extra.close()
        finally:
            self._fresh = None
            self._workspace.close()

    def reference_adapter(self) -> Adapter:
        """The reference adapter (started on first use)."""
        if self._reference is None:
            self._reference = open_adapter(REFERENCE_SPEC, timeout=self.timeout)
            self._reference.start()
        return self._reference

    # -- runs

    @contextlib.contextmanager
    def _root(self, scenario: Scenario) -> Iterator[Path]:
        """A new root holding ``scenario``'s files (random name, removed afterwards)."""
        name = secrets.token_hex(8)
        try:
            root = self._workspace.materialize(name, scenario)
        except (CorpusError, OSError) as exc:
            raise KitAbort(f"cannot lay out the scenario's files: {exc}", scenario) from None
        try:
            yield root
        finally:
            self._workspace.remove(name)

    def _call(self, adapter: Adapter, scenario: Scenario, root: Path) -> Any:
        self.requests += 1
        try:
            return adapter.run(scenario.request_json, root)
        except AdapterInternalError as exc:
            raise PropertyFailure(
                "internal-error",
                ("S6-OUT-01",),
                f"the implementation failed internally instead of returning a result: "
                f"{exc.message}",
            ) from None
        except AdapterError as exc:
            raise AdapterAbort(exc, scenario) from None

    def _run(self, adapter: Adapter, scenario: Scenario) -> Any:
        with self._root(scenario) as root:
            return self._call(adapter, scenario, root)

    def run(self, scenario: Scenario) -> Any:
        """The implementation's result envelope for ``scenario``."""
        return self._run(self.adapter, scenario)

    def run_with_model(self, scenario: Scenario) -> tuple[Any, Model]:
        """The result and the kit's model of the same materialized files (modelled before the
        implementation runs: never from what it left in its root)."""
        with self._root(scenario) as root:
            try:
                model = build_model(scenario, root)
            except KitError as exc:
                raise KitAbort(str(exc), scenario) from None
            return self._call(self.adapter, scenario, root), model

    def run_fresh(self, scenario: Scenario) -> Any:
        """The result from a second, separately started process of the implementation."""
        if self._fresh is None:
            fresh = self.adapter.fresh()
            try:
                fresh.start()
            except AdapterError as exc:
                raise AdapterAbort(exc, scenario) from None
            self._fresh = fresh
        return self._run(self._fresh, scenario)

    def reference(self, scenario: Scenario) -> Any:
        """The reference's result envelope for ``scenario``."""
        adapter = self.reference_adapter()
        with self._root(scenario) as root:
            try:
                return adapter.run(scenario.request_json, root)
            except AdapterError as exc:
                raise KitAbort(f"the reference failed: {exc.message}", scenario) from None
