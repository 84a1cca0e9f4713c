"""The adapter protocol ``phase6-adapter/1`` (specs/protocol.md): messages and their checks.

Newline-delimited JSON over the implementation's stdin/stdout. The harness always checks the
shape of every reply by hand (fast: exact members, types, the echoed ``seq``); with
``validate=True`` it also validates every message in both directions against
``specs/schemas/protocol/*.schema.json`` (Bowtie's ``-V``).

A reply naming a member twice in one object is a protocol error (RFC 8259 section 4, I-JSON):
which copy counts depends on the reader, so no single answer was given.

A reply is also checked for what the harness must be able to keep and render: at most
:data:`MAX_REPLY_CONTAINERS` arrays and objects (counted before parsing: a line of millions of
``{}`` costs nothing), nesting of at most :data:`~conformance._kit.MAX_JSON_DEPTH` levels (a
reply nested 5,000 deep is a protocol error, not a stack overflow), and in the handshake, text
that is valid Unicode (the implementation's name goes into file names and reports). Strings in
a result may hold lone surrogates (a result echoing a request that held one); they are escaped
wherever the harness writes them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance._errors import HandshakeError, ProtocolError
from conformance._kit import DuplicateNameError, dumps, json_problem, loads
from conformance._schemas import PROTOCOL_SCHEMAS, schema_errors
from conformance.adapters._worker import CAPABILITY, CONTRACT, PROTOCOL

__all__ = [
    "CAPABILITY",
    "CONTRACT",
    "PROTOCOL",
    "Handshake",
    "RunReply",
    "check_run_reply",
    "check_start_reply",
    "check_stop_reply",
    "parse_line",
    "run_message",
    "start_message",
    "stop_message",
    "validate_message",
]

_MAX_SHOWN = 200
#: The longest ``start`` reply kept (its ``implementation`` object is copied into every report).
MAX_START_REPLY_BYTES = 64 * 1024
#: The most arrays and objects one reply may hold. Each costs the harness ~60-70 bytes once
#: parsed: a 64 MiB line of ``{}`` would be 1.5 GB; a million is ~70 MB. SPEC-006 results hold
#: a few dozen (one per selected or dropped item, ``max_items`` <= 10,000).
MAX_REPLY_CONTAINERS = 1_000_000
#: A JSON string (for counting brackets outside strings; unrolled, linear).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def _containers(line: bytes, limit: int) -> int:
    """How many arrays and objects ``line`` opens: a count of brackets (fast, an upper bound),
    made exact by leaving strings out only when it is above ``limit``."""
    quick = line.count(b"{") + line.count(b"[")
    if quick <= limit:
        return quick
    outside = _STRING.sub(b"", line)
    return outside.count(b"{") + outside.count(b"[")


#: ``maxLength`` of the implementation's self-description (start-reply.schema.json).
_FIELD_LENGTHS = {"name": 200, "version": 200, "language": 100}


def _shown(line: bytes | str) -> str:
    text = repr(line[:_MAX_SHOWN])
    return text + ("..." if len(line) > _MAX_SHOWN else "")


def _shown_json(message: Any) -> str:
    try:
        return _shown(dumps(message))
    except (TypeError, ValueError):  # too deep to write: say so, never recurse
        return "(a JSON value too deeply nested to show)"


#: The most alternative readings a start reply may declare.
MAX_DECLARED_READINGS = 256


@dataclass(frozen=True)
class Handshake:
    """What the implementation said about itself in its ``start`` reply."""

    protocol: str
    implementation: Mapping[str, Any]
    capabilities: tuple[str, ...] = field(default=(CAPABILITY,))
    #: The alternative readings the implementation declares it follows (``readings`` in its
    #: start reply: IDs such as ``INT-08/verbatim``); None when it declares nothing.
    readings: tuple[str, ...] | None = None

    @property
    def name(self) -> str:
        """The implementation's name."""
        return str(self.implementation.get("name", "unknown"))

    @property
    def version(self) -> str:
        """The implementation's version."""
        return str(self.implementation.get("version", "unknown"))

    @property
    def language(self) -> str:
        """The implementation's language."""
        return str(self.implementation.get("language", "unknown"))


@dataclass(frozen=True)
class RunReply:
    """A ``run`` reply: either ``result`` (the INT-44 envelope) or ``internal_error``."""

    seq: int
    result: Any = None
    internal_error: Mapping[str, Any] | None = None
    #: The assembly record, when the run asked for one (capability ``audit``).
    audit: Any = None


def start_message() -> bytes:
    """The handshake line."""
    return b'{"cmd":"start","protocol":"' + PROTOCOL.encode() + b'"}\n'


def run_message(seq: int, root: str, request_json: bytes, *, audit: bool = False) -> bytes:
    """A ``run`` line; ``request_json`` is the request already serialized (no re-encoding).

    ``audit`` asks for the assembly record too (only sent to an implementation declaring the
    capability ``audit``: specs/protocol.md section 4).
    """
    line = b'{"cmd":"run","seq":%d,"root":%s,"request":%s' % (seq, dumps(root), request_json)
    return line + (b',"audit":true}\n' if audit else b"}\n")


def stop_message() -> bytes:
    """The shutdown line."""
    return b'{"cmd":"stop"}\n'


def validate_message(
    kind: str,
    message: Any,
    *,
    error: type[ProtocolError | HandshakeError] = ProtocolError,
    schemas: Mapping[str, str] = PROTOCOL_SCHEMAS,
) -> None:
    """Validate ``message`` against the protocol schema for ``kind`` (e.g. ``"run-reply"``);
    ``schemas`` maps message kinds to schema files (a profile's own run and replies)."""
    problems = schema_errors(schemas[kind], message, limit=1)
    if problems:
        pointer, text = problems[0]
        raise error(f"{kind} message breaks its schema at {pointer or '/'!r}: {text}")


def parse_line(line: bytes, *, what: str) -> dict[str, Any]:
    """One reply line as a JSON object, or :class:`ProtocolError` (garbage, not an object)."""
    stripped = line.rstrip(b"\r\n")
    containers = _containers(stripped, MAX_REPLY_CONTAINERS)
    if containers > MAX_REPLY_CONTAINERS:
        raise ProtocolError(
            f"{what} holds {containers:,} arrays and objects, more than the "
            f"{MAX_REPLY_CONTAINERS:,} the harness keeps of one reply"
        )
    try:
        message = loads(stripped, unique=True)
    except DuplicateNameError as exc:
        # RFC 8259 section 4: "The names within an object SHOULD be unique"; I-JSON (RFC 7493
        # section 2.3): objects "MUST NOT have members with duplicate names". A reply read
        # last-wins here could read otherwise to a first-wins client: ambiguous, not certified.
        raise ProtocolError(
            f"{what} names a member twice in one object ({exc}): RFC 8259 section 4 names "
            "SHOULD be unique and I-JSON (RFC 7493) forbids duplicates; readers disagree on "
            f"which copy counts: {_shown(stripped)}"
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        if "nested too deeply" in str(exc):
            raise ProtocolError(f"{what} is JSON nested too deeply to parse") from None
        raise ProtocolError(
            f"{what} is not JSON (did something print to stdout?): {_shown(stripped)}",
            detail=str(exc),
        ) from None
    if not isinstance(message, dict):
        raise ProtocolError(f"{what} is not a JSON object: {_shown(stripped)}")
    problem = json_problem(message)
    if problem is not None:
        raise ProtocolError(f"{what} cannot be kept: {problem}")
    return message


def check_start_reply(
    message: dict[str, Any],
    *,
    validate: bool = False,
    contract: str = CONTRACT,
    capability: str = CAPABILITY,
    schemas: Mapping[str, str] = PROTOCOL_SCHEMAS,
) -> Handshake:
    """Accept a ``start`` reply or raise :class:`HandshakeError` saying what is wrong.

    ``contract`` and ``capability`` are what the profile certified requires (SPEC-006:
    ``phase6-v1`` and ``memory.read``; Phase 2: ``phase2-context/1`` and ``phase2.context``).
    """
    if message.get("ok") is False:
        raise HandshakeError(f"implementation refused the handshake: {message.get('error')!r}")
    if message.get("ok") is not True:
        raise HandshakeError(f'start reply needs "ok": true, got {_shown_json(message)}')
    problem = json_problem(message, text=True)
    if problem is not None:
        raise HandshakeError(f"start reply cannot be kept: {problem}")
    if len(dumps(message)) > MAX_START_REPLY_BYTES:
        raise HandshakeError(f"start reply is longer than {MAX_START_REPLY_BYTES:,} bytes")
    protocol = message.get("protocol")
    if protocol != PROTOCOL:
        raise HandshakeError(
            f"implementation speaks protocol {protocol!r}, harness offered {PROTOCOL!r}"
        )
    implementation = message.get("implementation")
    if not isinstance(implementation, dict):
        raise HandshakeError('start reply has no "implementation" object')
    for key, longest in _FIELD_LENGTHS.items():
        if not isinstance(implementation.get(key), str) or not implementation[key]:
            raise HandshakeError(f"implementation.{key} must be a non-empty string")
        if len(implementation[key]) > longest:
            raise HandshakeError(f"implementation.{key} is longer than {longest} characters")
    if implementation.get("contract") != contract:
        raise HandshakeError(
            f"implementation.contract is {implementation.get('contract')!r}, expected {contract!r}"
        )
    capabilities = message.get("capabilities")
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise HandshakeError('start reply needs "capabilities": a list of strings')
    if capability not in capabilities:
        raise HandshakeError(f"capabilities {capabilities!r} lack {capability!r}")
    readings = message.get("readings")
    if readings is not None and (
        not isinstance(readings, list)
        or len(readings) > MAX_DECLARED_READINGS
        or not all(isinstance(r, str) and 0 < len(r) <= 64 for r in readings)
    ):
        raise HandshakeError(
            f'"readings" must be a list of at most {MAX_DECLARED_READINGS} reading IDs '
            '(strings such as "INT-08/verbatim")'
        )
    extra = set(message) - {"ok", "protocol", "implementation", "capabilities", "readings"}
    if extra:
        raise HandshakeError(f"start reply has unexpected members {sorted(extra)!r}")
    if validate:
        validate_message("start-reply", message, error=HandshakeError, schemas=schemas)
    declared = tuple(readings) if readings is not None else None
    return Handshake(protocol, implementation, tuple(capabilities), declared)


def check_run_reply(
    message: dict[str, Any],
    seq: int,
    *,
    validate: bool = False,
    schemas: Mapping[str, str] = PROTOCOL_SCHEMAS,
    audit: bool = False,
) -> RunReply:
    """Accept a ``run`` reply for request ``seq`` or raise :class:`ProtocolError`.

    With ``audit`` (the run asked for the assembly record), a result must come with ``audit``.
    """
    got = message.get("seq")
    if not isinstance(got, int) or isinstance(got, bool):
        raise ProtocolError(f'reply has no integer "seq" (expected {seq}): {_shown_json(message)}')
    if got != seq:
        raise ProtocolError(f"reply seq {got} does not echo request seq {seq}")
    keys = set(message)
    if keys == ({"seq", "result", "audit"} if audit else {"seq", "result"}):
        if not isinstance(message["result"], dict):
            raise ProtocolError('reply "result" is not a JSON object')
        if audit and not isinstance(message["audit"], dict):
            raise ProtocolError('reply "audit" is not a JSON object')
        reply = RunReply(seq, result=message["result"], audit=message.get("audit"))
    elif keys == {"seq", "internal_error"}:
        internal = message["internal_error"]
        if not isinstance(internal, dict) or not isinstance(internal.get("message"), str):
            raise ProtocolError('reply "internal_error" needs a string "message"')
        if set(internal) - {"message", "traceback"}:
            raise ProtocolError(f"internal_error has unexpected members {sorted(set(internal))!r}")
        reply = RunReply(seq, internal_error=internal)
    else:
        wanted = "seq + result + audit" if audit else "seq + result"
        raise ProtocolError(
            f"reply members {sorted(keys)!r}: expected {wanted} or seq + internal_error"
        )
    if validate:
        validate_message("run-reply", message, schemas=schemas)
    return reply


def check_stop_reply(message: dict[str, Any], *, validate: bool = False) -> None:
    """Accept a ``stop`` reply (``{"ok": true}``) or raise :class:`ProtocolError`."""
    if message != {"ok": True}:
        raise ProtocolError(f'stop reply should be {{"ok": true}}, got {_shown_json(message)}')
    if validate:
        validate_message("stop-reply", message)
