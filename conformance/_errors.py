"""Named exceptions of the certification harness.

Which lifecycle step raises what (Bowtie's ``exceptions.py`` habit):

- loading the corpus, the registers or an expected-failures file -> :class:`CorpusError`
  (:class:`VectorSchemaError`, :class:`DuplicateVectorIdError`, :class:`RegisterError`,
  :class:`ExpectedFailuresError`);
- parsing an adapter spec string -> :class:`AdapterSpecError`;
- talking to an implementation -> :class:`AdapterError` (:class:`HandshakeError`,
  :class:`ProtocolError`, :class:`AdapterTimeoutError`, :class:`AdapterCrashedError`,
  :class:`AdapterInternalError`). The runner turns every ``AdapterError`` raised for a vector
  into an *errored* result; none of them ever aborts a run;
- reading or writing a report -> :class:`ReportError`;
- bad command-line usage -> :class:`UsageError`.

Every class derives from :class:`HarnessError`; the CLI maps ``HarnessError`` to exit code 2,
except adapter failures, which are verdicts about the implementation, not harness errors.
"""

from __future__ import annotations

__all__ = [
    "AdapterCrashedError",
    "AdapterError",
    "AdapterInternalError",
    "AdapterSpecError",
    "AdapterTimeoutError",
    "CorpusError",
    "DuplicateVectorIdError",
    "ExpectedFailuresError",
    "HandshakeError",
    "HarnessError",
    "ProtocolError",
    "RegisterError",
    "ReportError",
    "SpawnError",
    "UsageError",
    "VectorSchemaError",
]


class HarnessError(Exception):
    """Base class of every error the harness raises on purpose."""


class UsageError(HarnessError):
    """The command line or an API argument is unusable (exit code 2)."""


class CorpusError(HarnessError):
    """The vector corpus cannot be loaded as a whole.

    ``path`` is the offending file (relative to the corpus root when known); ``pointer`` a JSON
    Pointer inside it.
    """

    def __init__(self, message: str, *, path: str | None = None, pointer: str | None = None):
        self.path = path
        self.pointer = pointer
        where = path or ""
        if pointer:
            where = f"{where}#{pointer}"
        super().__init__(f"{where}: {message}" if where else message)


class VectorSchemaError(CorpusError):
    """A vector file does not validate against ``specs/schemas/vector-file.schema.json``."""


class DuplicateVectorIdError(CorpusError):
    """Two vectors share one ``id`` (IDs are unique across the whole corpus)."""

    def __init__(self, vector_id: str, first: str, second: str):
        self.vector_id = vector_id
        self.first = first
        self.second = second
        super().__init__(f"duplicate vector id {vector_id!r} (also in {first!r})", path=second)


class RegisterError(CorpusError):
    """The clause or interpretation register cannot be read."""


class ExpectedFailuresError(CorpusError):
    """An expected-failures file line is malformed (every entry needs ``id  # reason``)."""

    def __init__(self, message: str, *, path: str, line: int):
        self.line = line
        super().__init__(message, path=f"{path}:{line}")


class ReportError(HarnessError):
    """A report cannot be written, read or validated."""


class AdapterSpecError(HarnessError):
    """An ``--adapter`` string is neither ``python:module:callable`` nor ``cmd:<command line>``."""

    def __init__(self, spec: str, reason: str):
        self.spec = spec
        self.reason = reason
        super().__init__(f"bad adapter spec {spec!r}: {reason}")


class AdapterError(HarnessError):
    """The implementation under test misbehaved; becomes an *errored* result, never a crash.

    ``kind`` is the errored result's kind (``spawn``, ``handshake``, ``crash``, ``timeout``,
    ``protocol``, ``internal-error``); ``stderr_tail`` the last bytes the process wrote to
    stderr; ``exit_status`` its exit status when it has exited.
    """

    kind = "adapter"

    def __init__(
        self,
        message: str,
        *,
        stderr_tail: str = "",
        exit_status: int | None = None,
        detail: str = "",
    ):
        self.message = message
        self.stderr_tail = stderr_tail
        self.exit_status = exit_status
        self.detail = detail
        super().__init__(message)


class HandshakeError(AdapterError):
    """The ``start`` exchange failed: no process, no answer, wrong protocol or bad metadata."""

    kind = "handshake"


class SpawnError(HandshakeError):
    """The adapter process (or the in-process callable) could not be started or imported."""

    kind = "spawn"


class ProtocolError(AdapterError):
    """A reply that is not one JSON object line, has the wrong ``seq`` or breaks its schema."""

    kind = "protocol"


class AdapterTimeoutError(AdapterError):
    """No reply within the per-request timeout (a hang, or a missing stdout flush)."""

    kind = "timeout"


class AdapterCrashedError(AdapterError):
    """The process exited (or closed stdout) while a request was outstanding."""

    kind = "crash"


class AdapterInternalError(AdapterError):
    """The implementation reported an internal failure (``internal_error``) or raised."""

    kind = "internal-error"
