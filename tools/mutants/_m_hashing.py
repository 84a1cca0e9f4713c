"""Mutants of record_hash, package_hash and canonical JSON (HASHING; INT-01..INT-03)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tools.mutants._patch import replace, wrap
from tools.mutants._registry import mutant


def _python_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _record_hash_variant(change: Any) -> None:
    """Wrap record_hash_of in the records module: ``change(original, *args)``."""
    from reference import _records

    wrap(_records, "record_hash_of", lambda original: lambda *args: change(original, *args))


@mutant(
    "record-hash-includes-store-path",
    clauses=("S6-HASH-01", "S6-OUT-24"),
    interpretations=("INT-02",),
)
def _() -> None:
    """record_hash also covers the store_path the record was read from."""
    from reference import _package
    from reference._canonical import canonical_bytes, sha256_hex

    current = [""]

    def make_lines(original: Any) -> Any:
        def iter_lines(path: str, *args: Any) -> Iterator[tuple[int, bytes]]:
            for item in original(path, *args):
                current[0] = path
                yield item

        return iter_lines

    wrap(_package, "iter_lines", make_lines)

    def change(
        original: Any, memory_id: str, text: str, tags: Any, refs: Any, ts: Any, plain: bool = False
    ) -> str:
        preimage = {
            "memory_id": memory_id,
            "refs": refs,
            "tags": tags,
            "text": text,
            "store_path": current[0],
        }
        if ts is not None:
            preimage["ts_utc"] = ts[0]
        return sha256_hex(canonical_bytes(preimage))

    _record_hash_variant(change)


@mutant("record-hash-null-ts", clauses=("S6-HASH-01",), interpretations=("INT-02",))
def _() -> None:
    """A record without a valid ts_utc hashes with "ts_utc": null instead of omitting the key."""
    from reference._canonical import canonical_bytes, sha256_hex

    def change(
        original: Any, memory_id: str, text: str, tags: Any, refs: Any, ts: Any, plain: bool = False
    ) -> str:
        if ts is not None:
            return str(original(memory_id, text, tags, refs, ts, plain))
        preimage = {
            "memory_id": memory_id,
            "refs": refs,
            "tags": tags,
            "text": text,
            "ts_utc": None,
        }
        return sha256_hex(canonical_bytes(preimage))

    _record_hash_variant(change)


@mutant("record-hash-stripped-text", clauses=("S6-HASH-01",), interpretations=("INT-02",))
def _() -> None:
    """record_hash covers the text with leading and trailing whitespace stripped."""
    from reference._text import strip_white_space

    def change(original: Any, memory_id: str, text: str, *rest: Any) -> str:
        return str(original(memory_id, strip_white_space(text), *rest))

    _record_hash_variant(change)


@mutant("record-hash-python-json", clauses=("S6-HASH-02",), interpretations=("INT-01", "INT-17"))
def _() -> None:
    """record_hash is computed over Python's json.dumps(sort_keys=True) instead of RFC 8785."""
    from reference._canonical import sha256_hex

    def change(
        original: Any, memory_id: str, text: str, tags: Any, refs: Any, ts: Any, plain: bool = False
    ) -> str:
        preimage = {"memory_id": memory_id, "refs": refs, "tags": tags, "text": text}
        if ts is not None:
            preimage["ts_utc"] = ts[0]
        return sha256_hex(_python_json(preimage))

    _record_hash_variant(change)


@mutant("keys-sorted-by-code-point", clauses=("S6-HASH-02",), interpretations=("INT-01",))
def _() -> None:
    """Canonical JSON sorts object keys by code point instead of UTF-16 code units."""
    from reference import _canonical

    def safe(value: Any) -> bool:
        kind = type(value)
        if kind is str or kind is bool or value is None:
            return True
        if kind is int:
            return bool(-(2**53) <= value <= 2**53)
        if kind is list:
            return all(safe(item) for item in value)
        if kind is dict:
            return all(type(k) is str and safe(v) for k, v in value.items())
        return False

    replace(_canonical, "_fast_path_safe", safe)


@mutant(
    "package-hash-without-excerpt", clauses=("S6-HASH-09", "S6-OUT-25"), interpretations=("INT-03",)
)
def _() -> None:
    """package_hash leaves the selected items' excerpts out."""
    from reference import _package

    def make(original: Any) -> Any:
        return lambda item: original({**item, "excerpt": ""})

    wrap(_package, "_selected_bytes", make)


@mutant("package-hash-without-dropped", clauses=("S6-HASH-09",), interpretations=("INT-03",))
def _() -> None:
    """package_hash leaves selection.dropped out."""
    from reference import _package

    def make(original: Any) -> Any:
        def chunks(package: dict[str, Any]) -> list[bytes]:
            selection = {**package["selection"], "dropped": []}
            return list(original({**package, "selection": selection}))

        return chunks

    wrap(_package, "canonical_package_chunks", make)


@mutant(
    "package-hash-python-floats", clauses=("S6-HASH-08", "S6-HASH-10"), interpretations=("INT-01",)
)
def _() -> None:
    """Scores enter package_hash in Python's float form (2.0, 1e-06) instead of RFC 8785's."""
    from reference import _package

    replace(_package, "jcs_number", lambda value: json.dumps(value).encode())


@mutant(
    "package-hash-uppercase-hex", clauses=("S6-HASH-08", "S6-OUT-21"), interpretations=("INT-03",)
)
def _() -> None:
    """package_hash is written in uppercase hex."""
    from reference import _controller

    def make(original: Any) -> Any:
        return lambda package: str(original(package)).upper()

    wrap(_controller, "package_hash", make)
