"""Returns a wrong package_hash for every package."""

from typing import Any

from _fake_protocol import lookup, serve


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """Flip the last hex digit of package_hash."""
    reply = lookup(message)
    package = reply.get("result", {}).get("package")
    if package is not None:
        digest = package["package_hash"]
        package["package_hash"] = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    return reply


serve(answer)
