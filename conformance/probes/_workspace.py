"""The probes' own fixed workspace: stores, a trust snapshot and the requests sent to them.

Everything here is constant data (no clock, no randomness), so every probe run writes the same
bytes. The records are chosen so that a controller that consults what it must not changes its
answer: timestamps around 2001, 2026 and 2036 (the clock probe shifts the clock to 2001 and ten
years ahead), mixed-case and non-ASCII text (locales), ties on score that only the tie-break
keys settle (hash-seed or directory-listing order would show), an invalid line, a duplicate
memory_id across stores, and a trust snapshot entry.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from conformance.probes._launch import ProbeRequest

__all__ = [
    "CANARIES",
    "ERROR_REQUESTS",
    "FILES",
    "REQUESTS",
    "build",
    "make_read_only",
    "plan",
]


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode("utf-8")


def _store(*lines: dict[str, Any] | bytes) -> bytes:
    return b"".join((line if isinstance(line, bytes) else _line(line)) + b"\n" for line in lines)


#: Canary strings planted in the canary store; none may reach a receipt (S6-RCPT-07..11).
#: Letters outside a-f keep them from occurring by chance inside hex digests.
CANARIES: Final[dict[str, str]] = {
    "text": "QZXJ-text-canary-VWKQ",
    "tag": "qzxj-tag-canary-plmn",
    "ref-key": "qzxj_refkey_canary_yrso",
    "ref-value": "QZXJ-ref-canary-WVUT",
    "memory_id": "qzxj-mid-canary-hgrs",
    "unknown-member": "QZXJ-unknown-canary-NMLK",
}

_ALPHA = _store(
    {
        "memory_id": "a-001",
        "ts_utc": "2000-06-15T12:00:00Z",
        "text": "Alpha notes about the Rust borrow checker and lifetimes.",
        "tags": ["Rust", "Lang", "rust"],
    },
    {
        "memory_id": "a-002",
        "ts_utc": "2001-01-01T00:00:00Z",
        "text": "  Meeting notes: rust async runtime comparison.  ",
        "tags": ["rust", "meeting"],
    },
    {"memory_id": "a-003", "text": "Undated note about python packaging and rust.", "tags": []},
    b'{"memory_id": "a-bad", "text": not json}',
    {
        "memory_id": "a-004",
        "ts_utc": "2036-03-01T00:00:00.5+00:00",
        "text": "Future-dated plan for the rust migration.",
        "refs": [{"kind": "run_id", "value": "r-42"}],
    },
    {
        "memory_id": "a-005",
        "ts_utc": "2024-02-29T23:59:59.25Z",
        "text": "İstanbul ΣΟΦΙΑ Straße notes, rust edition.",
        "tags": ["ISTANBUL", "Straße", "İz"],
    },
)
_BETA = _store(
    {
        "memory_id": "b-001",
        "ts_utc": "2026-01-01T00:00:00Z",
        "text": "Beta: rust notes on error handling.",
        "tags": ["notes"],
    },
    {"memory_id": "a-001", "ts_utc": "2010-10-10T10:10:10Z", "text": "Same id, other store: rust"},
    {"memory_id": "b-002", "ts_utc": "not a timestamp", "text": "rust notes with a broken ts"},
    {"memory_id": "b-003", "ts_utc": "2026-01-01T00:00:00Z", "text": "Beta tie: rust notes."},
    {"memory_id": "b-004", "ts_utc": "2026-01-01T00:00:00Z", "text": "Beta tie: rust notes!"},
)
_GAMMA = _store(
    {
        "memory_id": "g-001",
        "ts_utc": "2035-12-31T23:59:59Z",
        "text": "Gamma: istanbul trip notes, σοφια, STRASSE.",
        "tags": ["travel", "istanbul"],
    },
    {"memory_id": "g-002", "ts_utc": "2001-01-02T00:00:00Z", "text": "gamma rust rust rust"},
    {"memory_id": "g-003", "text": "", "tags": ["empty"]},
    {"memory_id": "g-004", "text": "Flagged by a tag only: rust notes.", "tags": ["Malicious"]},
)
#: A capitalized store name: code-point order puts it first, most locales' collation third.
_DELTA = _store(
    {"memory_id": "d-001", "ts_utc": "2026-01-01T00:00:00Z", "text": "Delta: rust notes."},
    {"memory_id": "d-002", "text": "delta notes without rust", "tags": ["Rust"]},
)
_CANARY = _store(
    {
        "memory_id": CANARIES["memory_id"],
        "ts_utc": "2020-01-01T00:00:00Z",
        "text": f"{CANARIES['text']} rust secret payload for the receipt probe",
        "tags": [CANARIES["tag"], "receipt"],
        "refs": [{CANARIES["ref-key"]: CANARIES["ref-value"]}],
        "x_extra": CANARIES["unknown-member"],
    },
    {"memory_id": "c-002", "text": "rust filler that the budget drops " + "x" * 400},
)
_SNAPSHOT = (
    json.dumps(
        {
            "format": "phase6-trust/1",
            "entries": [
                {"memory_id": "b-003", "classification": "malicious"},
                {"memory_id": "a-002", "classification": "suspicious"},
            ],
        }
    ).encode()
    + b"\n"
)

#: (relative path, content) in creation order; ``None`` content is a directory.
FILES: Final[tuple[tuple[str, bytes | None], ...]] = (
    ("stores/alpha.jsonl", _ALPHA),
    ("stores/beta.jsonl", _BETA),
    ("stores/gamma.jsonl", _GAMMA),
    ("stores/Delta.jsonl", _DELTA),
    ("stores/canary.jsonl", _CANARY),
    ("stores/adir.jsonl", None),
    ("trust/snapshot.json", _SNAPSHOT),
    ("trust/broken.json", b'{"format": "phase6-trust/1", "entries": [{"classification": 1}]}\n'),
)

#: Unrelated entries a controller must not look at (the environment probe's listing check).
EXTRAS: Final[tuple[tuple[str, bytes | None], ...]] = (
    ("stores/aaa-unrelated.jsonl", _store({"memory_id": "x-1", "text": "rust notes rust notes"})),
    ("stores/.hidden.jsonl", _store({"memory_id": "x-2", "text": "rust notes hidden"})),
    ("stores/README.txt", b"not a store\n"),
    ("stores/zz-sub", None),
    ("stores/zz-sub/inner.jsonl", _store({"memory_id": "x-3", "text": "rust notes inner"})),
    ("unrelated.jsonl", _store({"memory_id": "x-4", "text": "rust notes top"})),
)

_STORES = ["stores/gamma.jsonl", "stores/alpha.jsonl", "./stores//beta.jsonl", "stores/Delta.jsonl"]
_BUDGET = {"max_excerpt_tokens": 60, "max_items": 6}


def _request(**members: Any) -> dict[str, Any]:
    return {"query": "  Rust NOTES  ", "store_paths": list(_STORES), "budget": _BUDGET} | members


#: Successful requests every differential probe sends (labels are stable report names).
REQUESTS: Final[tuple[ProbeRequest, ...]] = (
    ProbeRequest("plain", _request()),
    ProbeRequest("defaults", _request(budget={"max_excerpt_tokens": 60})),
    ProbeRequest(
        "recency-no-now",
        _request(scoring={"enable_recency_weight": True, "recency_half_life_days": 365}),
    ),
    ProbeRequest(
        "recency-off",
        _request(scoring={"enable_recency_weight": False, "recency_half_life_days": 365}),
    ),
    ProbeRequest(
        "recency-now",
        _request(
            scoring={"enable_recency_weight": True, "recency_half_life_days": 30},
            now_utc="2026-01-02T00:00:00Z",
        ),
    ),
    ProbeRequest(
        "trust-terms",
        _request(
            scoring={"query_terms": ["Rust", "notes", "ΣΟΦΙΑ"]},
            trust_filter={"trust_snapshot_path": "trust/snapshot.json"},
            budget={"max_excerpt_tokens": 25, "per_item_max_excerpt_tokens": 6, "max_items": 4},
        ),
    ),
    ProbeRequest(
        "unicode",
        _request(query="İSTANBUL straße ΣΟΦΙΑ rust", store_paths=["stores/alpha.jsonl", *_STORES]),
    ),
    ProbeRequest(
        "canary",
        _request(query="rust secret", store_paths=["stores/canary.jsonl"]),
    ),
)

#: Invalid requests under the pinned readings (several faults each, so precedence is
#: exercised). An implementation may answer one with a package only where a listed reading
#: makes it valid; the errors-repeat probe asks the reference which (evidence, not a table).
ERROR_REQUESTS: Final[tuple[ProbeRequest, ...]] = (
    ProbeRequest("no-query", {"store_paths": ["stores/alpha.jsonl"], "budget": _BUDGET}),
    ProbeRequest("blank-query", _request(query=" \t ")),
    ProbeRequest("unicode-blank-query", _request(query=" \u3000\t")),
    ProbeRequest("no-stores", _request(store_paths=[])),
    ProbeRequest("missing-store", _request(store_paths=["stores/missing.jsonl", *_STORES])),
    ProbeRequest("directory-store", _request(store_paths=["stores/adir.jsonl"])),
    ProbeRequest("zero-budget", _request(budget={"max_excerpt_tokens": 0})),
    ProbeRequest("unknown-members", _request(zeta=1, alpha=2, mid=3, **{"Ω": 4})),
    ProbeRequest(
        "unknown-budget-members", _request(budget={"max_excerpt_tokens": 5, "zz": 1, "b": 2})
    ),
    ProbeRequest("bad-now", _request(now_utc="2026-01-01T00:00:00+02:00")),
    ProbeRequest("now-not-a-string", _request(now_utc=20260101)),
    ProbeRequest("bad-terms", _request(scoring={"query_terms": ["ok", 7, None]})),
    ProbeRequest("long-value", _request(store_paths="ü" * 300)),
    ProbeRequest(
        "missing-snapshot", _request(trust_filter={"trust_snapshot_path": "trust/none.json"})
    ),
    ProbeRequest(
        "broken-snapshot", _request(trust_filter={"trust_snapshot_path": "trust/broken.json"})
    ),
    ProbeRequest("not-an-object", ["query", "store_paths"]),
)


def build(
    root: Path,
    *,
    reverse: bool = False,
    extras: bool = False,
    files: Sequence[tuple[str, bytes | None]] = FILES,
) -> Path:
    """Write the workspace under ``root`` (created); ``reverse`` creates entries in reverse
    order (directory listings then differ), ``extras`` adds unrelated files next to the stores."""
    entries = list(files) + (list(EXTRAS) if extras else [])
    if reverse:
        entries.reverse()
    root.mkdir(parents=True, exist_ok=True)
    for name, content in entries:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            target.mkdir(exist_ok=True)
        else:
            target.write_bytes(content)
    return root


def make_read_only(root: Path) -> None:
    """chmod files 0444 and directories 0555 under ``root`` (root itself included).

    Running as root, permission bits do not stop writes; the read-only probe therefore watches
    the files instead of relying on the modes.
    """
    for directory, dirs, names in os.walk(root):
        for name in names:
            os.chmod(os.path.join(directory, name), 0o444)
        for name in dirs:
            os.chmod(os.path.join(directory, name), 0o555)
    os.chmod(root, 0o555)


def make_writable(root: Path) -> None:
    """Undo :func:`make_read_only` so the tree can be removed."""
    os.chmod(root, 0o755)
    for directory, dirs, names in os.walk(root):
        for name in dirs:
            os.chmod(os.path.join(directory, name), 0o755)
        for name in names:
            path = os.path.join(directory, name)
            if not os.path.islink(path):
                os.chmod(path, stat.S_IMODE(os.stat(path).st_mode) | 0o200)


def plan(
    root: Path, requests: Sequence[ProbeRequest] = REQUESTS + ERROR_REQUESTS
) -> list[tuple[ProbeRequest, Path]]:
    """Every request against ``root``, in order."""
    return [(request, root) for request in requests]


_WORDS: Final = (
    "rust notes memory budget excerpt token ledger receipt store stream line order score tie "
    "hash canon trust deny snapshot recency weight half life query term tag overlap "
).split()


def sized_store(
    lengths: Sequence[int], *, padding: Sequence[int] = (0,), payload: int = 0
) -> bytes:
    """A store of valid records whose texts have the given byte lengths (deterministic words).

    ``padding[i % len(padding)]`` spaces of JSON whitespace go after each line's opening brace:
    the records (and their record_hash) are the same for every padding, but the lines start
    at other byte offsets, so read-buffer and chunk boundaries fall elsewhere. ``payload`` > 0
    adds an unknown member ``x_payload`` of that many bytes to every record: bytes a controller
    must read past but never keep (INT-23: unknown members are ignored).
    """
    filler = ("payload " * (payload // 8 + 1))[:payload]
    out = bytearray()
    for index, length in enumerate(lengths):
        words = []
        size = 0
        position = index
        while size < length:
            word = _WORDS[position % len(_WORDS)]
            words.append(word)
            size += len(word) + 1
            position = (position * 7 + 3) % 1_000_003
        text = f"{index:06d} " + " ".join(words)
        record = {"memory_id": f"m{index:06d}", "text": text[:length]}
        if payload:
            record["x_payload"] = f"{index:06d}{filler[6:]}"
        pad = b" " * padding[index % len(padding)]
        out += b"{" + pad + _line(record)[1:] + b"\n"
    return bytes(out)


def cycle_lengths(count: int, sizes: Sequence[int]) -> list[int]:
    """``count`` text lengths cycling through ``sizes`` (a fixed, irregular pattern)."""
    return [sizes[(index * 5 + index // 3) % len(sizes)] for index in range(count)]
