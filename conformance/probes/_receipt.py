"""Probe ``receipt``: the ledger receipt is metadata-only and success-only (S6-RCPT-01..11,
S6-SEC-02, S6-SEC-06, S6-ACC-02, S6-ACC-03).

S6-RCPT-01: "The dispatcher receipt for memory.read success MUST include ONLY: kind =
"memory.read"; data: query_hash, store_paths, selected_count, package_hash". S6-RCPT-07..11:
"The receipt MUST NOT include: excerpts, raw memory text, tags, refs, or any payload that
reconstructs memory content." S6-ACC-03: the receipt is "success-only".

Checks:
- ``shape``: every successful answer's receipt has exactly ``kind`` and ``data``; ``kind`` is
  "memory.read"; ``data`` has exactly the four members with the right types; ``query_hash`` and
  ``package_hash`` equal the package's, ``selected_count`` its number of selected items;
  ``store_paths`` is a list of strings naming the requested stores (as given or lexically
  normalized) and is the same when the request is repeated;
- ``no-content``: canary strings planted in a record's text, tags, ref keys and values,
  memory_id and an unknown member appear in no receipt, raw or hex / base64 encoded, and
  neither does any selected excerpt; the canary record is first checked to be selected;
- ``success-only``: every failing request answers exactly ``{"error": ...}``, no receipt.
"""

from __future__ import annotations

import base64
import json
import posixpath
import re
from collections.abc import Iterator
from typing import Any

from conformance.probes import _workspace
from conformance.probes._common import Clock, errored, judge
from conformance.probes._context import ProbeContext
from conformance.probes._launch import Reply, run_requests
from conformance.probes._model import CheckResult, Probe

__all__ = ["PROBE"]

NAME = "receipt"
SHAPE = ("S6-RCPT-01", "S6-RCPT-02", "S6-RCPT-03", "S6-RCPT-04", "S6-RCPT-05", "S6-RCPT-06",
         "S6-ACC-02")  # fmt: skip
CONTENT = ("S6-SEC-02", "S6-RCPT-07", "S6-RCPT-08", "S6-RCPT-09", "S6-RCPT-10", "S6-RCPT-11",
           "S6-SEC-06", "S6-ACC-02")  # fmt: skip
SUCCESS_ONLY = ("S6-ACC-03",)
DATA_MEMBERS = ("package_hash", "query_hash", "selected_count", "store_paths")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _encodings(canary: str) -> dict[str, str]:
    raw = canary.encode("utf-8")
    return {
        "as is": canary.lower(),
        "hex": raw.hex(),
        "base64": base64.b64encode(raw).decode().rstrip("="),
        "base64url": base64.urlsafe_b64encode(raw).decode().rstrip("="),
    }


def _lexical(path: str) -> str:
    normalized = posixpath.normpath(path)
    return "/" + normalized.lstrip("/") if normalized.startswith("//") else normalized


def _shape_problems(label: str, request: Any, result: Any) -> list[str]:
    receipt = result.get("receipt")
    package = result.get("package")
    if not isinstance(receipt, dict):
        return [f"{label}: no receipt object in a successful answer"]
    problems = []
    if sorted(receipt) != ["data", "kind"]:
        problems.append(f"{label}: receipt members {sorted(receipt)}, expected ['data', 'kind']")
    if receipt.get("kind") != "memory.read":
        problems.append(f"{label}: kind is {receipt.get('kind')!r}, not 'memory.read'")
    data = receipt.get("data")
    if not isinstance(data, dict):
        return [*problems, f"{label}: receipt data is not an object"]
    if sorted(data) != list(DATA_MEMBERS):
        problems.append(f"{label}: data members {sorted(data)}, expected {list(DATA_MEMBERS)}")
    if not isinstance(package, dict):
        return [*problems, f"{label}: no package beside the receipt"]
    query: dict[str, Any] = package["query"] if isinstance(package.get("query"), dict) else {}
    selection: dict[str, Any] = (
        package["selection"] if isinstance(package.get("selection"), dict) else {}
    )
    expected = {
        "query_hash": query.get("query_hash"),
        "package_hash": package.get("package_hash"),
        "selected_count": len(selection.get("selected") or []),
    }
    for member, value in expected.items():
        if data.get(member) != value or type(data.get(member)) is not type(value):
            problems.append(
                f"{label}: data.{member} is {data.get(member)!r}, package says {value!r}"
            )
    problems += [
        f"{label}: data.{member} is not 64 lowercase hex digits"
        for member in ("query_hash", "package_hash")
        if not isinstance(data.get(member), str) or not _HEX64.match(data[member])
    ]
    paths = data.get("store_paths")
    requested = request.get("store_paths", [])
    allowed = set(requested) | {_lexical(p) for p in requested}
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        problems.append(f"{label}: data.store_paths is not a list of strings: {paths!r}")
    elif not set(paths) <= allowed or not paths:
        problems.append(f"{label}: data.store_paths {paths!r} are not the requested stores")
    return problems


def _content_problems(label: str, result: Any) -> list[str]:
    receipt = result.get("receipt")
    if receipt is None:
        return []
    text = json.dumps(receipt, ensure_ascii=False).lower()
    escaped = json.dumps(receipt, ensure_ascii=True).lower()
    problems = []
    for where, canary in _workspace.CANARIES.items():
        for encoding, needle in _encodings(canary).items():
            if needle.lower() in text or needle.lower() in escaped:
                problems.append(f"{label}: the {where} canary is in the receipt ({encoding})")
    package = result.get("package") or {}
    for item in (package.get("selection") or {}).get("selected") or []:
        excerpt = item.get("excerpt") if isinstance(item, dict) else None
        if isinstance(excerpt, str) and len(excerpt) >= 8 and excerpt.lower() in text:
            problems.append(f"{label}: the excerpt of {item.get('memory_id')!r} is in the receipt")
    return problems


def _canary_selected(replies: dict[str, Reply]) -> bool:
    reply = replies.get("canary")
    if reply is None or not isinstance(reply.result, dict):
        return False
    selected = ((reply.result.get("package") or {}).get("selection") or {}).get("selected") or []
    return any(
        isinstance(item, dict) and item.get("memory_id") == _workspace.CANARIES["memory_id"]
        for item in selected
    )


def run(context: ProbeContext) -> Iterator[CheckResult]:
    """Run the receipt checks."""
    clock = Clock()
    root = _workspace.build(context.fresh_dir("receipt") / "root")
    plan = [item for item in _workspace.plan(root) for _ in range(2)]
    replies = run_requests(context.launcher, "receipt", plan)
    if replies.start_error is not None:
        for check, clauses in (("shape", SHAPE), ("no-content", CONTENT),
                               ("success-only", SUCCESS_ONLY)):  # fmt: skip
            yield errored(NAME, check, clauses, f"did not start: {replies.start_error}", clock)
        return
    firsts = replies.by_label()
    requests = {request.label: request.request for request, _ in plan}
    successes = [r.label for r in _workspace.REQUESTS]
    crashed = [f"{r.label}: {r.error}" for r in replies.replies if r.error]

    shape: list[str] = []
    content: list[str] = []
    for reply in replies.replies:
        if reply.error is not None or reply.label not in successes:
            continue
        if not isinstance(reply.result, dict) or "package" not in reply.result:
            continue  # a request that fails is the vectors' business, not this probe's
        shape += _shape_problems(reply.label, requests[reply.label], reply.result)
        content += _content_problems(reply.label, reply.result)
    seconds = {}
    for reply in replies.replies:
        if reply.label in successes and reply is not firsts[reply.label]:
            seconds[reply.label] = reply
    for label, second in seconds.items():
        first = firsts[label]
        mine = (first.result or {}).get("receipt") if isinstance(first.result, dict) else None
        theirs = (second.result or {}).get("receipt") if isinstance(second.result, dict) else None
        if mine != theirs:
            shape.append(f"{label}: the receipt differs when the request is repeated")
    if crashed and not shape:
        yield errored(NAME, "shape", SHAPE, "requests errored: " + "; ".join(crashed[:3]), clock)
    else:
        yield judge(
            NAME,
            "shape",
            SHAPE,
            shape,
            f"{len(seconds)} successful requests, each twice: receipts have exactly kind and "
            "the four data members, consistent with their packages and stable",
            clock,
        )

    clock = Clock()
    if not _canary_selected(firsts):
        yield errored(
            NAME, "no-content", CONTENT,
            "the canary record was not selected, so the canary check would prove nothing "
            "(the 'canary' request failed or selected something else)", clock,
        )  # fmt: skip
    else:
        yield judge(
            NAME,
            "no-content",
            CONTENT,
            content,
            f"none of {len(_workspace.CANARIES)} canaries (text, tag, ref key/value, memory_id, "
            "unknown member; raw, hex, base64) nor any excerpt appears in a receipt",
            clock,
            details={"canaries": sorted(_workspace.CANARIES)},
        )

    clock = Clock()
    failures = [r.label for r in _workspace.ERROR_REQUESTS]
    problems = []
    for reply in replies.replies:
        if reply.label not in failures or reply.error is not None:
            continue
        result = reply.result
        if not isinstance(result, dict) or "error" not in result:
            continue  # not an error at all: the vectors judge that
        if sorted(result) != ["error"]:
            problems.append(f"{reply.label}: a failed call answered with members {sorted(result)}")
    yield judge(
        NAME,
        "success-only",
        SUCCESS_ONLY,
        problems,
        f"{len(failures)} failing requests, each twice: the answer is only the error, no receipt",
        clock,
    )


PROBE = Probe(
    name=NAME,
    title="Metadata-only, success-only receipts",
    sees=(
        "extra receipt members, wrong hashes or counts, unstable store_paths, memory content "
        "in any receipt (canaries from text, tags, refs, memory_id and unknown members, raw or "
        "hex/base64 encoded; excerpts), and receipts on failed calls"
    ),
    blind_to=(
        "other ledgers than the returned receipt (logs, files: see read-only); content "
        "encoded in ways not tried (compressed, encrypted, split); whether store_paths is "
        "normalized (vectors pin INT-43)"
    ),
    run=run,
)
