"""Mutants of trust filtering (TRUST FILTERING; INT-38, INT-39)."""

from __future__ import annotations

from tools.mutants._registry import SourcePatch, mutant, patch

_ACTIVE = "        return bool(self.memory_ids or self.record_hashes or self.pairs)\n"
_DENIES_BODY = (
    "        return (\n"
    "            memory_id in self.memory_ids\n"
    "            or record_hash in self.record_hashes\n"
    "            or (memory_id, record_hash) in self.pairs\n"
    "        )\n"
)
_EITHER_KEY = (
    '        if memory_id is not None:  # INT-39: either key matches ("" included, INT-22)\n'
    "            ids.add(memory_id)\n"
    "        if record_hash is not None:\n"
    "            hashes.add(record_hash)\n"
)


@mutant("trust-ignores-record-hash", clauses=("S6-TRUST-04",), interpretations=("INT-39",))
def _() -> SourcePatch:
    """Snapshot entries naming only a record_hash deny nothing."""
    return patch(
        "_trust.py",
        _DENIES_BODY,
        "        return memory_id in self.memory_ids\n",
    )


@mutant(
    "trust-both-keys-required", clauses=("S6-TRUST-03", "S6-ACC-06"), interpretations=("INT-39",)
)
def _() -> SourcePatch:
    """An entry naming memory_id and record_hash denies only a candidate matching both (the
    conjunction INT-39 read before its re-pin: a rewritten copy of a flagged memory comes back)."""
    return patch(
        "_trust.py",
        _EITHER_KEY,
        "        if memory_id is not None and record_hash is not None:\n"
        "            pairs.add((memory_id, record_hash))\n"
        "        elif memory_id is not None:\n"
        "            ids.add(memory_id)\n"
        "        elif record_hash is not None:\n"
        "            hashes.add(record_hash)\n",
    )


@mutant(
    "trust-classification-case-insensitive", clauses=("S6-TRUST-05",), interpretations=("INT-39",)
)
def _() -> SourcePatch:
    """Classifications match the deny list case-insensitively ('Malicious' is denied)."""
    return patch(
        "_trust.py",
        "        if classification not in denied:",
        "        if classification.lower() not in {d.lower() for d in denied}:",
    )


@mutant(
    "trust-missing-snapshot-ignored",
    clauses=("S6-TRUST-07", "S6-INPUT-13"),
    interpretations=("INT-38",),
)
def _() -> SourcePatch:
    """A trust_snapshot_path that does not exist disables filtering instead of failing."""
    return patch("_trust.py", '    missing: str = "error",\n', '    missing: str = "no-filter",\n')


@mutant("trust-infers-from-tags", clauses=("S6-TRUST-02", "S6-TRUST-06", "S6-TRUST-07"))
def _() -> SourcePatch:
    """Records tagged 'malicious' are dropped as trust_denied even without a snapshot."""
    return patch(
        "_trust.py",
        _ACTIVE,
        "        return True\n",
        (
            _DENIES_BODY,
            '        return "malicious" in tags or ' + _DENIES_BODY.lstrip()[len("return ") :],
        ),
    )


@mutant("trust-snapshot-validated-lazily", clauses=("S6-INPUT-13",), interpretations=("INT-38",))
def _() -> SourcePatch:
    """The snapshot is not read (nor validated) when deny_classifications is empty."""
    return patch(
        "_trust.py",
        "    if snapshot_path is None:\n        return TrustFilter()\n",
        "    if snapshot_path is None or not deny:\n        return TrustFilter()\n",
    )
