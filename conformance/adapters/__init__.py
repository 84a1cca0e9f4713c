"""Adapters: how the harness talks to an implementation under test, and nothing else.

Owns the adapter protocol ``phase6-adapter/1`` (messages and their checks, for any profile: the
contract, capability and schemas are parameters), the subprocess adapter (``cmd:<command
line>``) and the process handling under it (sessions, non-blocking pipes, capped lines and
outputs, killing a process with all it started), the Python adapter
(``python:package.module:callable``, run in a worker process) and the server that puts a Python
callable behind the protocol (``phase6 serve``, the worker's loop), and the sandbox those
processes are started in (bubblewrap: own PID and network namespaces, a read-only filesystem
but the run's vector roots, resource limits; ``certify --sandbox``). Every misbehaviour of an
implementation surfaces as an :class:`~conformance._errors.AdapterError`; none can crash or
hang the harness.

May import: ``conformance._kit``, ``conformance._errors``, ``conformance._schemas``. Never the
reference (it is certified through this package like any stranger), never corpus/run/report.
"""

from __future__ import annotations

from conformance.adapters._adapters import (
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_TIMEOUT,
    STDERR_TAIL_BYTES,
    Adapter,
    AdapterKind,
    InProcessAdapter,
    SubprocessAdapter,
    open_adapter,
    reference_adapter_spec,
    spec_name,
)
from conformance.adapters._process import ImplementationProcess
from conformance.adapters._protocol import (
    CAPABILITY,
    CONTRACT,
    PROTOCOL,
    Handshake,
    parse_line,
    validate_message,
)
from conformance.adapters._sandbox import (
    SANDBOX_MODES,
    Limits,
    Sandbox,
    SandboxMode,
    SandboxStatus,
    active_sandbox,
    sandbox_run,
)
from conformance.adapters._serve import serve, serve_target
from conformance.adapters._worker import PHASE2_CONTRACT

__all__ = [
    "CAPABILITY",
    "CONTRACT",
    "DEFAULT_MAX_LINE_BYTES",
    "DEFAULT_TIMEOUT",
    "PHASE2_CONTRACT",
    "PROTOCOL",
    "SANDBOX_MODES",
    "STDERR_TAIL_BYTES",
    "Adapter",
    "AdapterKind",
    "Handshake",
    "ImplementationProcess",
    "InProcessAdapter",
    "Limits",
    "Sandbox",
    "SandboxMode",
    "SandboxStatus",
    "SubprocessAdapter",
    "active_sandbox",
    "open_adapter",
    "parse_line",
    "reference_adapter_spec",
    "sandbox_run",
    "serve",
    "serve_target",
    "spec_name",
    "validate_message",
]
