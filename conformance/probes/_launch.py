"""Starting the implementation under a condition and collecting its answers.

A :class:`Launcher` holds the adapter's command line and base environment; every condition a
probe tests (a shifted clock, another locale, no network, a tracer) is the same command with a
prefix and/or environment changes, started as a fresh :class:`~conformance.SubprocessAdapter`.
``python:`` adapters are run behind ``phase6 serve`` (their ``fresh()`` form), so
every probe is a subprocess experiment.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance._errors import AdapterError, HandshakeError
from conformance.adapters import SubprocessAdapter, open_adapter
from conformance.run import first_difference

__all__ = [
    "Launcher",
    "ProbeRequest",
    "Replies",
    "Reply",
    "adapter_pid",
    "differences",
    "run_requests",
]

_SHOWN = 160


@dataclass(frozen=True)
class ProbeRequest:
    """One request a probe sends, with a label for messages (``plain``, ``recency-no-now``)."""

    label: str
    request: Any

    @property
    def data(self) -> bytes:
        """The request as UTF-8 JSON text."""
        return json.dumps(self.request, ensure_ascii=False, sort_keys=True).encode("utf-8")


@dataclass(frozen=True)
class Reply:
    """A request's result envelope, or the adapter error that took its place."""

    label: str
    result: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the implementation answered (with a package or a SPEC-006 error)."""
        return self.error is None


@dataclass(frozen=True)
class Replies:
    """Everything one adapter process answered, or why it did not start."""

    condition: str
    replies: tuple[Reply, ...] = ()
    start_error: str | None = None
    #: Wall-clock time (``time.time()``) right after the handshake; tracers cut their logs here.
    started_at: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def by_label(self) -> dict[str, Reply]:
        """The first reply for each label."""
        out: dict[str, Reply] = {}
        for reply in self.replies:
            out.setdefault(reply.label, reply)
        return out


@dataclass(frozen=True)
class Launcher:
    """How to start the implementation under test: argv, base environment, timeout."""

    argv: tuple[str, ...]
    env: Mapping[str, str]
    timeout: float
    cwd: str | None = None

    @classmethod
    def for_spec(cls, spec: str, *, timeout: float) -> Launcher:
        """The launcher for an ``--adapter`` string (``python:`` ones behind ``phase6 serve``)."""
        adapter = open_adapter(spec, timeout=timeout)
        if not isinstance(adapter, SubprocessAdapter):
            adapter = adapter.fresh()
        if not isinstance(adapter, SubprocessAdapter):  # pragma: no cover - fresh() contract
            raise TypeError(f"{spec!r} has no subprocess form")
        env = dict(adapter.env) if adapter.env is not None else dict(os.environ)
        return cls(tuple(adapter.argv), env, timeout, adapter.cwd)

    def command(self, prefix: Sequence[str] = ()) -> list[str]:
        """The command line with ``prefix`` (e.g. ``faketime -f +10y``) in front."""
        return [*prefix, *self.argv]

    def adapter(
        self, *, prefix: Sequence[str] = (), env: Mapping[str, str | None] | None = None
    ) -> SubprocessAdapter:
        """A new, unstarted adapter; ``env`` values of ``None`` remove the variable."""
        environment = dict(self.env)
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        return SubprocessAdapter(
            "cmd:" + shlex.join(self.command(prefix)),
            timeout=self.timeout,
            start_timeout=max(self.timeout, 30.0),
            env=environment,
            cwd=self.cwd,
        )


def adapter_pid(adapter: SubprocessAdapter) -> int | None:
    """The process ID of a started subprocess adapter.

    HARNESS HOOK: ``SubprocessAdapter`` has no public ``pid`` yet; until it does, the private
    ``_process.popen.pid`` is read (and ``None`` returned if that changes).
    """
    pid = getattr(adapter, "pid", None)
    if isinstance(pid, int):
        return pid
    popen = getattr(getattr(adapter, "_process", None), "popen", None)
    pid = getattr(popen, "pid", None)
    return pid if isinstance(pid, int) else None


def ask(adapter: SubprocessAdapter, request: ProbeRequest, root: Path) -> Reply:
    """Send one request; an adapter misbehaviour becomes the reply's ``error``."""
    try:
        return Reply(request.label, adapter.run(request.data, root))
    except AdapterError as exc:
        tail = exc.stderr_tail.strip().splitlines()[-3:]
        note = f" (stderr: {' | '.join(tail)})" if tail else ""
        return Reply(request.label, error=f"{exc.kind}: {exc.message}{note}"[:600])


def run_requests(
    launcher: Launcher,
    condition: str,
    plan: Iterable[tuple[ProbeRequest, Path]],
    *,
    prefix: Sequence[str] = (),
    env: Mapping[str, str | None] | None = None,
    during: Callable[[SubprocessAdapter, int], Mapping[str, Any]] | None = None,
    watch: Callable[[SubprocessAdapter], Callable[[], None]] | None = None,
) -> Replies:
    """Start one adapter process under a condition, send ``plan`` in order, stop it.

    ``during(adapter, index)`` is called after each request (e.g. to read memory counters);
    what it returns is merged into :attr:`Replies.extra`. ``watch(adapter)`` is called before
    the adapter starts and returns the function that ends the watch, called before the
    adapter is closed (a tracer's watchdog).
    """
    adapter = launcher.adapter(prefix=prefix, env=env)
    extra: dict[str, Any] = {}
    unwatch = watch(adapter) if watch is not None else None
    try:
        try:
            adapter.start()
        except HandshakeError as exc:
            tail = exc.stderr_tail.strip().splitlines()[-3:]
            note = f" (stderr: {' | '.join(tail)})" if tail else ""
            return Replies(condition, start_error=f"{exc.message}{note}"[:600])
        started_at = time.time()
        replies = []
        for index, (request, root) in enumerate(plan):
            replies.append(ask(adapter, request, root))
            if during is not None:
                extra.update(during(adapter, index))
    finally:
        if unwatch is not None:
            unwatch()
        adapter.close()
    return Replies(condition, tuple(replies), started_at=started_at, extra=extra)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def differences(baseline: Replies, other: Replies) -> list[str]:
    """How ``other`` differs from ``baseline``, request by request (exact comparison).

    Compares results strictly (number types and error messages included, like the runner's
    determinism check); an adapter error in ``other`` where the baseline answered is a difference.
    """
    if other.start_error is not None:
        return [f"{other.condition}: the adapter did not start: {other.start_error}"]
    found: list[str] = []
    theirs = other.by_label()
    for reply in baseline.replies:
        mine = theirs.get(reply.label)
        if mine is None:
            found.append(f"{other.condition}/{reply.label}: no reply")
        elif mine.error is not None:
            found.append(f"{other.condition}/{reply.label}: {mine.error}")
        elif reply.error is None:
            diff = first_difference(reply.result, mine.result, strict=True)
            if diff is not None:
                found.append(
                    f"{other.condition}/{reply.label}: {diff.describe()} "
                    f"(baseline {_short(diff.expected)}, here {_short(diff.actual)})"
                )
    return found
