"""Mutants of the ledger receipt (LEDGER RECEIPT CONSTRAINTS; INT-43, INT-44)."""

from __future__ import annotations

from typing import Any

from tools.mutants._registry import Reader, SourcePatch, Wrapper, mutant, patch

_COUNT = '            "selected_count": len(package["selection"]["selected"]),\n'


def _on_receipt(change: Any) -> Wrapper:
    """A wrapper that changes the receipt of a successful read: change(receipt, result, request)."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            result = read(request)
            if "receipt" in result:
                change(result["receipt"], result, request)
            return result

        return deviant

    return wrap


@mutant(
    "receipt-carries-excerpts",
    clauses=("S6-RCPT-07", "S6-RCPT-01", "S6-SEC-02"),
    interpretations=("INT-43",),
    probes=("receipt",),
)
def _() -> SourcePatch:
    """The receipt's data also lists the selected excerpts."""
    return patch(
        "_receipt.py",
        _COUNT,
        _COUNT
        + '            "excerpts": [i["excerpt"] for i in package["selection"]["selected"]],\n',
    )


@mutant(
    "receipt-carries-memory-ids",
    clauses=("S6-RCPT-11", "S6-RCPT-01"),
    interpretations=("INT-43",),
    probes=("receipt",),
)
def _() -> SourcePatch:
    """The receipt's data also lists the selected memory_ids."""
    return patch(
        "_receipt.py",
        _COUNT,
        _COUNT
        + '            "memory_ids": [i["memory_id"] for i in package["selection"]["selected"]],\n',
    )


@mutant("receipt-count-includes-dropped", clauses=("S6-RCPT-05",), interpretations=("INT-43",))
def _() -> Wrapper:
    """data.selected_count counts selected and dropped candidates."""

    def change(receipt: dict[str, Any], result: dict[str, Any], request: Any) -> None:
        receipt["data"]["selected_count"] += len(result["package"]["selection"]["dropped"])

    return _on_receipt(change)


@mutant("receipt-store-paths-as-given", clauses=("S6-RCPT-04",), interpretations=("INT-43",))
def _() -> Wrapper:
    """data.store_paths is the request's list as given, not normalized, deduplicated and sorted."""

    def change(receipt: dict[str, Any], result: dict[str, Any], request: Any) -> None:
        receipt["data"]["store_paths"] = list(request["store_paths"])

    return _on_receipt(change)


@mutant(
    "receipt-on-failure",
    clauses=("S6-ACC-03",),
    interpretations=("INT-43", "INT-44"),
    probes=("receipt",),
)
def _() -> Wrapper:
    """A failed call answers with the error and a receipt recording the failure."""

    def wrap(read: Reader) -> Reader:
        def deviant(request: Any) -> dict[str, Any]:
            result = read(request)
            if "error" in result:
                data = {"error": result["error"]["code"]}
                result["receipt"] = {"kind": "memory.read", "data": data}
            return result

        return deviant

    return wrap
