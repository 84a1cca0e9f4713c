"""UTC timestamps: the pinned grammar (INT-20), normal form and exact instant (INT-21).

Valid: YYYY-MM-DD 'T' hh:mm:ss [ '.' 1*9DIGIT ] ( 'Z' / '+00:00' ), a real Gregorian date in
years 0001..9999, hh <= 23, mm <= 59, ss <= 59.  Anything else is not a valid UTC timestamp.
A parsed timestamp is a plain tuple (normalized string, nanoseconds since 0001-01-01T00:00Z):
the reader builds one per record, and tuples are the cheapest value Python has.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["Timestamp", "parse_utc", "sort_key", "sort_key_missing"]

Timestamp = tuple[str, int]

_DAYS_IN_MONTH: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_NS_PER_SECOND: Final = 1_000_000_000

#: Ordering key for "no valid ts_utc": after every valid one (S6-ORDER-02, missing last).
sort_key_missing: Final = 1


def sort_key(ts: Timestamp) -> int:
    """Ascending key for "ts_utc descending": newer first, always below sort_key_missing."""
    return -ts[1] - 1


_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CLOCK: Final = re.compile(r"T[0-9]{2}:[0-9]{2}:[0-9]{2}")
_FRACTION: Final = re.compile(r"(?:\.([0-9]{1,9}))?(?:Z|\+00:00)")
# Memo tables for the date and clock parts (a pure function of the part, so any cache policy
# is deterministic).  Stores have few distinct dates and at most 86,400 distinct clocks.
_MEMO_LIMIT: Final = 1 << 17
_dates: dict[str, int | None] = {}
_clocks: dict[str, int | None] = {}


def _day_seconds(date: str) -> int | None:
    """Seconds from 0001-01-01 to a YYYY-MM-DD date, or None when it is not a real date."""
    if _DATE.fullmatch(date) is None:
        return None
    year, month, day = int(date[0:4]), int(date[5:7]), int(date[8:10])
    if year < 1 or not 1 <= month <= 12:
        return None
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    last = 29 if (month == 2 and leap) else _DAYS_IN_MONTH[month - 1]
    if not 1 <= day <= last:
        return None
    y = year - 1
    days = y * 365 + y // 4 - y // 100 + y // 400
    days += sum(_DAYS_IN_MONTH[: month - 1]) + (1 if (leap and month > 2) else 0)
    return (days + day - 1) * 86_400


def _clock_seconds(clock: str) -> int | None:
    """Seconds since midnight of 'Thh:mm:ss', or None when out of range (no leap second)."""
    if _CLOCK.fullmatch(clock) is None:
        return None
    hour, minute, second = int(clock[1:3]), int(clock[4:6]), int(clock[7:9])
    if hour > 23 or minute > 59 or second > 59:
        return None
    return hour * 3_600 + minute * 60 + second


def _memo(
    table: dict[str, int | None], key: str, compute: Callable[[str], int | None]
) -> int | None:
    try:
        return table[key]
    except KeyError:
        if len(table) >= _MEMO_LIMIT:
            table.clear()
        value = table[key] = compute(key)
        return value


def parse_utc(text: str) -> Timestamp | None:
    """Parse under the pinned grammar; None when `text` is not a valid UTC timestamp."""
    date, clock, rest = text[:10], text[10:19], text[19:]
    day = _dates.get(date)
    if day is None:
        day = _memo(_dates, date, _day_seconds)
    clock_s = _clocks.get(clock)
    if clock_s is None:
        clock_s = _memo(_clocks, clock, _clock_seconds)
    if day is None or clock_s is None:
        return None
    seconds = (day + clock_s) * _NS_PER_SECOND
    if rest == "Z":  # the normal form itself: nothing to rewrite
        return text, seconds
    match = _FRACTION.fullmatch(rest)
    if match is None:
        return None
    fraction = (match[1] or "").rstrip("0")
    if not fraction:
        return text[:19] + "Z", seconds
    return f"{text[:19]}.{fraction}Z", seconds + int(fraction.ljust(9, "0"))
