"""Mutants of trust filtering (TRUST FILTERING; INT-38, INT-39)."""

from __future__ import annotations

from typing import Any

from tools.mutants._patch import replace, shadow_builtin, wrap
from tools.mutants._registry import mutant


@mutant("trust-ignores-record-hash", clauses=("S6-TRUST-04",), interpretations=("INT-39",))
def _() -> None:
    """Snapshot entries naming only a record_hash deny nothing."""
    from reference._trust import TrustFilter

    def denies(self: Any, memory_id: str, record_hash: str) -> bool:
        return memory_id in self.memory_ids or (memory_id, record_hash) in self.pairs

    replace(TrustFilter, "denies", denies)


@mutant(
    "trust-either-key-matches", clauses=("S6-TRUST-03", "S6-ACC-06"), interpretations=("INT-39",)
)
def _() -> None:
    """An entry naming memory_id and record_hash denies a candidate matching either one."""
    from reference import _controller
    from reference._trust import TrustFilter

    def make(original: Any) -> Any:
        def load(path: Any, deny: Any) -> Any:
            found = original(path, deny)
            return TrustFilter(
                found.memory_ids | {m for m, _ in found.pairs},
                found.record_hashes | {h for _, h in found.pairs},
                frozenset(),
            )

        return load

    wrap(_controller, "load_trust_filter", make)


@mutant(
    "trust-classification-case-insensitive", clauses=("S6-TRUST-05",), interpretations=("INT-39",)
)
def _() -> None:
    """Classifications match the deny list case-insensitively ('Malicious' is denied)."""
    from reference import _trust

    class Caseless(set[Any]):
        def __contains__(self, item: object) -> bool:
            if isinstance(item, str):
                return any(isinstance(x, str) and x.lower() == item.lower() for x in self)
            return super().__contains__(item)

    shadow_builtin(_trust, "set", Caseless)


@mutant(
    "trust-missing-snapshot-ignored",
    clauses=("S6-TRUST-07", "S6-INPUT-13"),
    interpretations=("INT-38",),
)
def _() -> None:
    """A trust_snapshot_path that does not exist disables filtering instead of failing."""
    from reference import _controller
    from reference._errors import TrustSnapshotError
    from reference._trust import TrustFilter

    def make(original: Any) -> Any:
        def load(path: Any, deny: Any) -> Any:
            try:
                return original(path, deny)
            except TrustSnapshotError as error:
                if error.code == "trust_snapshot_not_found":
                    return TrustFilter()
                raise

        return load

    wrap(_controller, "load_trust_filter", make)


@mutant("trust-infers-from-tags", clauses=("S6-TRUST-02", "S6-TRUST-06", "S6-TRUST-07"))
def _() -> None:
    """Records tagged 'malicious' are dropped as trust_denied even without a snapshot."""
    from reference import _package
    from reference._reader import read_line_at
    from reference._records import parse_record

    def make(original: Any) -> Any:
        def read_chunk(chunk: Any, scorer: Any, trust: Any) -> tuple[list[Any], list[Any]]:
            entries, candidates = original(chunk, scorer, trust)
            flagged = set()
            for c in candidates:
                record: Any = parse_record(read_line_at(chunk[1], c[5]))
                if "malicious" in record[2]:
                    flagged.add(id(c))
            if not flagged:
                return entries, candidates
            entries = [
                (e[3], e[4], e[2], _package.TRUST_DENIED) if id(e) in flagged else e
                for e in entries
            ]
            return entries, [c for c in candidates if id(c) not in flagged]

        return read_chunk

    wrap(_package, "_read_chunk", make)


@mutant("trust-snapshot-validated-lazily", clauses=("S6-INPUT-13",), interpretations=("INT-38",))
def _() -> None:
    """The snapshot is not read (nor validated) when deny_classifications is empty."""
    from reference import _controller
    from reference._trust import TrustFilter

    def make(original: Any) -> Any:
        return lambda path, deny: TrustFilter() if not deny else original(path, deny)

    wrap(_controller, "load_trust_filter", make)
