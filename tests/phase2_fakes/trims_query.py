"""Reading: the query is trimmed before it is used (P2-INT-17/trim).

An outside team trimmed the query parameter of leading and trailing whitespace (the Unicode
White_Space characters, as P2-INT-02 says) before validating and using it. Its own code trims;
the rest is the reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.phase2 import run_vector_call as reference_call

FOLLOWS = "P2-INT-17/trim"
#: Unicode White_Space (PropList.txt), written out.
_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)


def run_vector_call(fixture: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """The reference, sent the query trimmed."""
    params = [
        [name, value.strip(_SPACE) if name == "query" else value]
        for name, value in call.get("params", [])
    ]
    return reference_call(fixture, {**call, "params": params})
