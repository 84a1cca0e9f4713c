"""Answers every invalid request with a package (of the same request with its faults cured): a
request invalid under every listed reading (no query) then gets a package no reading gives."""

from typing import Any

from probe_support import serve

from reference import memory_read

VALID = {
    "query": "alpha",
    "store_paths": ["stores/alpha.jsonl"],
    "budget": {"max_excerpt_tokens": 50},
}


def after(request: Any, result: Any) -> Any:
    """Replace an error with the package of a plain valid request."""
    return memory_read(VALID) if "error" in result else result


serve(after=after)
