"""Probe ``errors-repeat``: the same invalid input gives the same error, always (S6-ERR-07).

S6-ERR-07: "The same invalid inputs MUST produce the same error type and message." Vectors
compare only an error's code and path (INT-40: message wording is free across
implementations); this probe holds one implementation to its own words.

Checks (the whole error object is compared: code, message, path, clause):
- ``same-process``: every invalid request three times in one process, interleaved with valid
  requests, gives one error object per request;
- ``fresh-process``: two fresh processes (PYTHONHASHSEED 0 and 1, requests in reverse order)
  give the same error objects as the first process.
Each invalid request must actually answer with an error object carrying a string ``code`` and
``message``. One answered with a package is read the other way only on evidence: the bundled
reference under some executable alternative of the register answers it with a package too
(``conformance.run.readings_answering``; an invalid ``now_utc`` ignored is INT-36's, an unknown
member accepted INT-42's). S6-ERR-07 then has nothing to say about it (its answers are still
compared across repetitions by the environment probe), and the check's details name the
alternatives. A package no listed reading gives is a problem. The requests hold several faults
each, so an unstable precedence shows too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conformance.probes import _workspace
from conformance.probes._common import Clock, errored, judge
from conformance.probes._context import ProbeContext
from conformance.probes._launch import ProbeRequest, Replies, run_requests
from conformance.probes._model import CheckResult, Probe
from conformance.run import readings_answering

__all__ = ["PROBE"]

NAME = "errors-repeat"
CLAUSES = ("S6-ERR-07",)


def _error(result: Any) -> dict[str, Any] | None:
    if isinstance(result, dict) and isinstance(result.get("error"), dict):
        error: dict[str, Any] = result["error"]
        if isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
            return error
    return None


class _ReadAsValid:
    """Which listed readings make each invalid request valid (the reference answers it with a
    package under them), asked of the reference once per request, only for a request the
    implementation answered with a package."""

    def __init__(self, root: Path, timeout: float):
        self.root = root
        self.timeout = timeout
        self.found: dict[str, tuple[str, ...]] = {}

    def __call__(self, request: ProbeRequest) -> tuple[str, ...]:
        if request.label not in self.found:
            self.found[request.label] = readings_answering(
                request.data, self.root, _is_package, timeout=self.timeout
            )
        return self.found[request.label]


def _collect(replies: Replies, valid: _ReadAsValid) -> tuple[dict[str, list[Any]], list[str]]:
    """error objects per label (in order), and problems (crashes, non-errors)."""
    seen: dict[str, list[Any]] = {}
    problems = []
    failing = {request.label: request for request in _workspace.ERROR_REQUESTS}
    for reply in replies.replies:
        if reply.label not in failing:
            continue
        if reply.error is not None:
            problems.append(f"{replies.condition}/{reply.label}: {reply.error}")
            continue
        error = _error(reply.result)
        if error is None and _is_package(reply.result):
            if valid(failing[reply.label]):
                continue  # read as valid, as a listed alternative does (evidence)
            problems.append(
                f"{replies.condition}/{reply.label}: answered with a package; no listed "
                "reading makes this request valid"
            )
            continue
        if error is None:
            problems.append(
                f"{replies.condition}/{reply.label}: no structured error (code and message)"
            )
            continue
        seen.setdefault(reply.label, []).append(error)
    return seen, problems


def _read_as_valid(valid: _ReadAsValid) -> dict[str, Any]:
    """The check details naming the requests answered with a package and the readings that
    make them valid."""
    named = {label: list(found) for label, found in sorted(valid.found.items()) if found}
    return {"read_as_valid": named} if named else {}


def _is_package(result: Any) -> bool:
    return isinstance(result, dict) and isinstance(result.get("package"), dict)


def _interleaved(root: Path) -> list[tuple[ProbeRequest, Path]]:
    plan = []
    valid = _workspace.REQUESTS
    for round_ in range(3):
        for index, request in enumerate(_workspace.ERROR_REQUESTS):
            plan.append((request, root))
            plan.append((valid[(index + round_) % len(valid)], root))
    return plan


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the errors-repeat checks."""
    clock = Clock()
    root = _workspace.build(context.fresh_dir("errors") / "root")
    first = run_requests(context.launcher, "first process", _interleaved(root))
    if first.start_error is not None:
        for check in ("same-process", "fresh-process"):
            yield errored(NAME, check, CLAUSES, f"did not start: {first.start_error}", clock)
        return
    valid = _ReadAsValid(root, max(context.launcher.timeout, 30.0))
    seen, problems = _collect(first, valid)
    for label, errors in seen.items():
        if any(error != errors[0] for error in errors[1:]):
            variants = {f"{e.get('code')}: {e.get('message')}" for e in errors}
            problems.append(f"{label}: {len(variants)} different errors: {sorted(variants)[:3]}")
    yield judge(
        NAME,
        "same-process",
        CLAUSES,
        problems,
        f"{len(_workspace.ERROR_REQUESTS)} invalid requests, three times each in one process "
        "between valid ones: identical error objects",
        clock,
        details={
            "requests": [request.label for request in _workspace.ERROR_REQUESTS],
            **_read_as_valid(valid),
        },
    )

    clock = Clock()
    problems = []
    backwards = _workspace.plan(root, tuple(reversed(_workspace.ERROR_REQUESTS)))
    for seed in ("0", "1"):
        other = run_requests(
            context.launcher, f"fresh process (PYTHONHASHSEED={seed})", backwards,
            env={"PYTHONHASHSEED": seed},
        )  # fmt: skip
        if other.start_error is not None:
            problems.append(f"{other.condition}: did not start: {other.start_error}")
            continue
        fresh, found = _collect(other, valid)
        problems += found
        for label, errors in fresh.items():
            if label in seen and errors[0] != seen[label][0]:
                mine, theirs = seen[label][0], errors[0]
                problems.append(
                    f"{other.condition}/{label}: {theirs.get('code')}: {theirs.get('message')!r}"
                    f" differs from the first process's {mine.get('code')}: "
                    f"{mine.get('message')!r}"
                )
    yield judge(
        NAME,
        "fresh-process",
        CLAUSES,
        problems,
        "two fresh processes (other hash seeds, reverse order) give the first process's error "
        "objects",
        clock,
    )


PROBE = Probe(
    name=NAME,
    title="Repeatable errors",
    sees=(
        "error codes, messages, paths or clauses that change between repetitions, with request "
        "history, across processes or with the hash seed (counters, addresses, timestamps, "
        "set-order precedence)"
    ),
    blind_to=(
        "whether the code and path are the right ones (the vectors judge that); errors that "
        "vary only with inputs not tried here"
    ),
    run=run,
)
