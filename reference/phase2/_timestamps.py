"""Timestamps of the data model: ``YYYY-MM-DDTHH:MM:SSZ`` (P2-INT-19).

UTC, whole seconds, a real calendar date, years 1970..9999. For this one form chronological
order is byte order; the engine still compares parsed seconds, never strings. No function here
reads the clock: every time the engine uses is given to it (P2-DET-01).
"""

from __future__ import annotations

import calendar
import datetime
import re
from typing import Final

__all__ = ["DAY_SECONDS", "format_timestamp", "is_timestamp", "parse_timestamp"]

DAY_SECONDS: Final = 86400
_EPOCH: Final = datetime.datetime(1970, 1, 1)
_FORM: Final = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")


def parse_timestamp(text: object) -> int:
    """Seconds since 1970-01-01T00:00:00Z; ``ValueError`` for anything but the one form."""
    if not isinstance(text, str):
        raise ValueError(f"not a string: {text!r}")
    match = _FORM.fullmatch(text)
    if match is None:
        raise ValueError(f"not YYYY-MM-DDTHH:MM:SSZ: {text!r}")
    year, month, day, hour, minute, second = (int(part) for part in match.groups())
    if not 1970 <= year <= 9999 or not 1 <= month <= 12:
        raise ValueError(f"year or month out of range: {text!r}")
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        raise ValueError(f"no such day: {text!r}")
    if hour > 23 or minute > 59 or second > 59:
        raise ValueError(f"time out of range: {text!r}")
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))


def is_timestamp(text: object) -> bool:
    """Whether ``text`` is a timestamp of the one form."""
    try:
        parse_timestamp(text)
    except ValueError:
        return False
    return True


def format_timestamp(seconds: int) -> str:
    """The timestamp form of ``seconds`` since the epoch (negative values allowed)."""
    moment = _EPOCH + datetime.timedelta(seconds=seconds)
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}Z"
    )
