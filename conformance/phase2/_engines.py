"""Phase 2 implementations under test behind ``python:`` and ``cmd:`` adapters, and the one
interface every Phase 2 adapter offers the runner (:class:`Engine`).

Both speak ``phase6-adapter/1`` with the Phase 2 bodies (specs/protocol.md, "Phase 2"): the
handshake declares ``contract: "phase2-context/1"`` and capabilities ``phase2.context``
(required), ``phase2.compact``, ``phase2.summarize``; each ``run`` carries ``{fixture, call}``
and the reply's ``result`` is the observed outcome. They are the SPEC-006 adapters
(:class:`~conformance.adapters.SubprocessAdapter`, :class:`~conformance.adapters.InProcessAdapter`:
one long-lived process, non-blocking pipes, per-request timeout, capped lines, restart with the
handshake replayed, the process group killed) with the profile's contract, capability and
message schemas (``--validate-protocol`` validates against ``specs/schemas/phase2/protocol/``).
A ``python:package.module:callable`` runs ``callable(fixture, call)`` in a worker process.

The ``http:`` adapter (:mod:`conformance.phase2._http`) offers the same :class:`Engine`
interface over a live service and the user's load, dump and job commands.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from conformance._errors import AdapterSpecError, UsageError
from conformance._kit import dumps
from conformance.adapters import (
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_TIMEOUT,
    PHASE2_CONTRACT,
    AdapterKind,
    Handshake,
    InProcessAdapter,
    SubprocessAdapter,
)
from conformance.phase2._readings import CONTEXT_CAPABILITY, CONTRACT

__all__ = [
    "PROTOCOL_SCHEMAS",
    "Engine",
    "Observation",
    "ProtocolEngine",
    "PythonEngine",
    "reference_engine_spec",
    "run_line",
]

assert PHASE2_CONTRACT == CONTRACT  # the worker's name for the contract is the profile's

#: message kind -> schema under specs/schemas/: the Phase 2 handshake reply, run and run reply;
#: the start and stop messages are SPEC-006's, unchanged (protocol.md P2.1).
PROTOCOL_SCHEMAS: Mapping[str, str] = {
    "command": "protocol/command.schema.json",
    "start": "protocol/start.schema.json",
    "start-reply": "phase2/protocol/start-reply.schema.json",
    "run": "phase2/protocol/run.schema.json",
    "run-reply": "phase2/protocol/run-reply.schema.json",
    "stop": "protocol/stop.schema.json",
    "stop-reply": "protocol/stop-reply.schema.json",
}


def reference_engine_spec() -> str:
    """The reference engine, certified the way a stranger is: its subprocess entry."""
    return f"cmd:{shlex.quote(sys.executable)} -m reference.phase2 serve-protocol"


@dataclass(frozen=True)
class Observation:
    """What one vector's call gave: one observed outcome per run (specs/schemas/phase2/
    observed.schema.json, as the implementation sent it: unchecked) and, when the adapter can
    dump a live database, the state right before the call."""

    outcomes: tuple[Any, ...]
    before: Any = None


class Engine(Protocol):
    """A Phase 2 implementation under test, whatever the adapter."""

    spec: str
    kind: AdapterKind
    requests: int
    restarts: int
    handshake: Handshake | None

    def start(self) -> Handshake:
        """Reach the implementation (raises :class:`~conformance._errors.HandshakeError`)."""

    def observe(
        self,
        fixture: Mapping[str, Any],
        call: Mapping[str, Any],
        *,
        runs: int = 1,
        dump_before: bool = False,
    ) -> Observation:
        """Load ``fixture`` into a fresh database, perform ``call`` ``runs`` times (the same
        process; a live service: one load for a context call), and return what was observed;
        ``dump_before``: also the state right before the call, where it can be dumped. Raises
        an :class:`~conformance._errors.AdapterError` when the implementation misbehaves."""

    def fresh(self) -> Engine | None:
        """The same implementation in a fresh process (``None``: a live service has none)."""

    def close(self) -> None:
        """Stop the implementation (idempotent)."""

    def metadata(self) -> dict[str, Any]:
        """What the report header says about this adapter."""


def run_line(seq: int, fixture: Mapping[str, Any], call: Mapping[str, Any]) -> bytes:
    """A Phase 2 ``run`` line (specs/schemas/phase2/protocol/run.schema.json)."""
    return b'{"cmd":"run","seq":%d,"fixture":%s,"call":%s}\n' % (seq, dumps(fixture), dumps(call))


class _CallsOverRuns:
    """``observe`` and ``run`` of an engine reached through ``run`` lines (``cmd:`` and
    ``python:``): the adapter below owns processes, restarts and misbehaviour."""

    if TYPE_CHECKING:  # provided by the adapter class after this one in the MRO

        def exchange_run(self, message_for: Callable[[int], bytes]) -> Any: ...

    def observe(
        self,
        fixture: Mapping[str, Any],
        call: Mapping[str, Any],
        *,
        runs: int = 1,
        dump_before: bool = False,
    ) -> Observation:
        """One ``run`` per run; each loads the fixture into a fresh database of its own (the
        state before the call is the fixture: nothing to dump)."""
        return Observation(
            tuple(
                self.exchange_run(lambda seq: run_line(seq, fixture, call))
                for _ in range(max(1, runs))
            )
        )

    def run(self, request_json: bytes, root: Path) -> Any:
        """Not for this profile: a Phase 2 engine is sent calls (:meth:`observe`)."""
        raise UsageError("a phase2-context adapter is sent {fixture, call}, not SPEC-006 requests")


class ProtocolEngine(_CallsOverRuns, SubprocessAdapter):
    """``cmd:<command line>``: a process speaking ``phase6-adapter/1`` with Phase 2 bodies."""

    contract = CONTRACT
    capability = CONTEXT_CAPABILITY
    schemas = PROTOCOL_SCHEMAS


class PythonEngine(_CallsOverRuns, InProcessAdapter):
    """``python:package.module:callable``: ``callable(fixture, call) -> observed outcome``,
    in a worker process of its own (protocol.md P2.3)."""

    contract = CONTRACT
    capability = CONTEXT_CAPABILITY
    schemas = PROTOCOL_SCHEMAS
    worker_contract = CONTRACT


def open_process_engine(
    spec: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    validate: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> ProtocolEngine | PythonEngine:
    """The ``python:`` or ``cmd:`` engine a spec names (not started yet)."""
    if spec.startswith("python:"):
        return PythonEngine(spec, timeout=timeout, validate=validate, max_line_bytes=max_line_bytes)
    if spec.startswith("cmd:"):
        try:
            return ProtocolEngine(
                spec, timeout=timeout, validate=validate, max_line_bytes=max_line_bytes
            )
        except ValueError as exc:  # shlex: unbalanced quotes
            raise AdapterSpecError(spec, str(exc)) from None
    raise AdapterSpecError(spec, "must start with 'python:', 'cmd:' or 'http:'")
