"""Mutants of record_hash, package_hash and canonical JSON (HASHING; INT-01..INT-03)."""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, mutant, patch

_PREIMAGE = (
    '    preimage: dict[str, Any] = {"memory_id": memory_id, "refs": refs, "tags": tags, '
    '"text": text}\n'
)


@mutant(
    "record-hash-includes-store-path",
    clauses=("S6-HASH-01", "S6-OUT-24"),
    interpretations=("INT-02",),
)
def _() -> SourcePatch:
    """record_hash also covers the store_path the record was read from."""
    return patch("_records.py", _PREIMAGE, _PREIMAGE + '    preimage["store_path"] = store_path\n')


@mutant("record-hash-null-ts", clauses=("S6-HASH-01",), interpretations=("INT-02",))
def _() -> SourcePatch:
    """A record without a valid ts_utc hashes with "ts_utc": null instead of omitting the key."""
    return patch(
        "_records.py",
        '    if ts is not None:\n        preimage["ts_utc"] = ts[0]\n',
        '    preimage["ts_utc"] = None if ts is None else ts[0]\n',
    )


@mutant("record-hash-stripped-text", clauses=("S6-HASH-01",), interpretations=("INT-02",))
def _() -> SourcePatch:
    """record_hash covers the text with leading and trailing whitespace stripped."""
    return patch(
        "_records.py",
        _PREIMAGE,
        "    from reference._text import strip_white_space\n\n"
        + _PREIMAGE.replace('"text": text}', '"text": strip_white_space(text)}'),
    )


@mutant("record-hash-python-json", clauses=("S6-HASH-02",), interpretations=("INT-01", "INT-17"))
def _() -> SourcePatch:
    """record_hash is computed over Python's json.dumps(sort_keys=True) instead of RFC 8785."""
    return patch(
        "_records.py",
        "    if plain or not refs:\n"
        "        return sha256_hex(orjson.dumps(preimage, option=_SORT))\n"
        "    return sha256_hex(canonical_bytes(preimage))",
        "    import json\n\n"
        '    text_form = json.dumps(preimage, sort_keys=True, separators=(",", ":"), '
        "ensure_ascii=False)\n"
        "    return sha256_hex(text_form.encode())",
    )


@mutant("keys-sorted-by-code-point", clauses=("S6-HASH-02",), interpretations=("INT-01",))
def _() -> SourcePatch:
    """Canonical JSON sorts object keys by code point instead of UTF-16 code units."""
    return patch(
        "_canonical.py",
        "type(key) is str and key.isascii() and _fast_path_safe(item)",
        "type(key) is str and _fast_path_safe(item)",
    )


@mutant(
    "package-hash-without-excerpt", clauses=("S6-HASH-09", "S6-OUT-25"), interpretations=("INT-03",)
)
def _() -> SourcePatch:
    """package_hash leaves the selected items' excerpts out."""
    return patch("_package.py", '            dump(item["excerpt"]),', '            dump(""),')


@mutant("package-hash-without-dropped", clauses=("S6-HASH-09",), interpretations=("INT-03",))
def _() -> SourcePatch:
    """package_hash leaves selection.dropped out."""
    return patch("_package.py", "        if canonical:\n", "        if canonical and False:\n")


@mutant(
    "package-hash-python-floats", clauses=("S6-HASH-08", "S6-HASH-10"), interpretations=("INT-01",)
)
def _() -> SourcePatch:
    """Scores enter package_hash in Python's float form (2.0, 1e-06) instead of RFC 8785's."""
    return patch(
        "_package.py",
        '            jcs_number(item["score"]),',
        '            repr(item["score"]).encode("ascii"),',
    )


@mutant(
    "package-hash-uppercase-hex", clauses=("S6-HASH-08", "S6-OUT-21"), interpretations=("INT-03",)
)
def _() -> SourcePatch:
    """package_hash is written in uppercase hex."""
    return patch(
        "_package.py",
        "        return self.digest.hexdigest()",
        "        return self.digest.hexdigest().upper()",
    )
