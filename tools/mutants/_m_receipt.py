"""Mutants of the ledger receipt (LEDGER RECEIPT CONSTRAINTS; INT-43, INT-44)."""

from __future__ import annotations

from typing import Any

from tools.mutants._patch import wrap
from tools.mutants._registry import mutant


def _receipt_variant(change: Any) -> None:
    from reference import _controller

    def make(original: Any) -> Any:
        return lambda package, paths: change(original(package, paths), package)

    wrap(_controller, "build_receipt", make)


@mutant(
    "receipt-carries-excerpts",
    clauses=("S6-RCPT-07", "S6-RCPT-01", "S6-SEC-02"),
    interpretations=("INT-43",),
    probes=("receipt",),
)
def _() -> None:
    """The receipt's data also lists the selected excerpts."""

    def change(receipt: dict[str, Any], package: dict[str, Any]) -> dict[str, Any]:
        receipt["data"]["excerpts"] = [i["excerpt"] for i in package["selection"]["selected"]]
        return receipt

    _receipt_variant(change)


@mutant(
    "receipt-carries-memory-ids",
    clauses=("S6-RCPT-11", "S6-RCPT-01"),
    interpretations=("INT-43",),
    probes=("receipt",),
)
def _() -> None:
    """The receipt's data also lists the selected memory_ids."""

    def change(receipt: dict[str, Any], package: dict[str, Any]) -> dict[str, Any]:
        receipt["data"]["memory_ids"] = [i["memory_id"] for i in package["selection"]["selected"]]
        return receipt

    _receipt_variant(change)


@mutant("receipt-count-includes-dropped", clauses=("S6-RCPT-05",), interpretations=("INT-43",))
def _() -> None:
    """data.selected_count counts selected and dropped candidates."""

    def change(receipt: dict[str, Any], package: dict[str, Any]) -> dict[str, Any]:
        receipt["data"]["selected_count"] += len(package["selection"]["dropped"])
        return receipt

    _receipt_variant(change)


@mutant("receipt-store-paths-as-given", clauses=("S6-RCPT-04",), interpretations=("INT-43",))
def _() -> None:
    """data.store_paths is the request's list as given, not normalized, deduplicated and sorted."""
    from reference import _controller

    def make(original: Any) -> Any:
        def read_package(request: Any) -> Any:
            package, receipt = original(request)
            receipt["data"]["store_paths"] = list(request.store_paths)
            return package, receipt

        return read_package

    wrap(_controller, "read_package", make)


@mutant(
    "receipt-on-failure",
    clauses=("S6-ACC-03",),
    interpretations=("INT-43", "INT-44"),
    probes=("receipt",),
)
def _() -> None:
    """A failed call answers with the error and a receipt recording the failure."""
    from reference import _serve

    def make(original: Any) -> Any:
        def memory_read(request: Any) -> dict[str, Any]:
            result: dict[str, Any] = original(request)
            if "error" in result:
                data = {"error": result["error"]["code"]}
                result["receipt"] = {"kind": "memory.read", "data": data}
            return result

        return memory_read

    wrap(_serve, "memory_read", make)
