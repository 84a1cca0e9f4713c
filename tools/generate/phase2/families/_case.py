"""What a generated family yields, and seeded building blocks (no clock, no global randomness)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Case", "Json", "pick_ts", "text_of", "vocabulary", "words"]

Json = Any


@dataclass(frozen=True)
class Case:
    """One vector before its expectation is known."""

    id: str
    description: str
    clauses: tuple[str, ...]
    interpretations: tuple[str, ...]
    fixture: Json
    call: Json


#: Words for titles, turns and queries: a small vocabulary, so queries hit titles often.
vocabulary = (
    "passport visa flight hotel budget report invoice tax gym run marathon doctor dentist "
    "garden kitchen paint tiles plumber groceries milk bread coffee Q3 review deadline draft "
    "Spanish lesson piano school meeting call email plan trip Japan Lisbon car insurance"
).split()

#: Characters for estimator texts: ASCII, Latin-1, CJK, astral, White_Space and look-alikes.
_ALPHABET = [
    *"abcdefghij ABCXYZ 0123456789 .,;:!?-'",
    *["é", "ß", "ö", "語", "日", "😀", "𝔸"],
    *["\u00a0", "\u3000", "\u2003", "\t", "\n", "\u0085", "\u2028"],  # White_Space
    *["\u200b", "\ufeff", "\u001f", "\u180e"],  # not White_Space
]


def text_of(rng: random.Random, low: int, high: int) -> str:
    """A random string of ``low``..``high`` characters from the estimator alphabet."""
    return "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(low, high)))


def pick_ts(rng: random.Random, choices: Sequence[str]) -> str:
    """One of a few timestamps (few, so that ties happen)."""
    return rng.choice(list(choices))


def words(rng: random.Random, low: int, high: int) -> str:
    """``low``..``high`` vocabulary words joined by spaces."""
    return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(low, high)))
