"""UTC timestamps: the pinned grammar (INT-20), normal form and exact instant (INT-21).

Valid: YYYY-MM-DD 'T' hh:mm:ss [ '.' 1*9DIGIT ] ( 'Z' / '+00:00' ), a real Gregorian date in
years 0001..9999, hh <= 23, mm <= 59, ss <= 59.  Anything else is not a valid UTC timestamp.
A parsed timestamp is a plain tuple (normalized string, nanoseconds since 0001-01-01T00:00Z):
the reader builds one per record, and tuples are the cheapest value Python has.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date as _date
from datetime import datetime as _datetime
from datetime import timedelta as _timedelta
from typing import Final

__all__ = [
    "PARSERS",
    "RAW_ORDERS",
    "TS_KEYS",
    "RawTimestamp",
    "Timestamp",
    "parse_go_rfc3339",
    "parse_iso8601_utc",
    "parse_java_instant",
    "parse_lenient_utc",
    "parse_python_isoformat",
    "parse_rfc3339_utc",
    "parse_utc",
    "raw_string_key",
    "remembering",
    "sort_key",
    "sort_key_missing",
]

Timestamp = tuple[str, int]

_DAYS_IN_MONTH: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_NS_PER_SECOND: Final = 1_000_000_000

#: Ordering key for "no valid ts_utc": after every valid one (S6-ORDER-02, missing last).
sort_key_missing: Final = 1


def sort_key(ts: Timestamp | None) -> int:
    """S6-ORDER-02 "ts_utc descending (missing ts_utc sorts last)" as an ascending key: newer
    first, every valid timestamp below sort_key_missing."""
    return sort_key_missing if ts is None else -ts[1] - 1


_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FRACTION: Final = re.compile(r"(?:\.([0-9]{1,9}))?(?:Z|\+00:00)")
# Dates: a memo (a pure function of the part, so any cache policy is deterministic; stores
# have few distinct dates), holding nanoseconds, or -1 for a part that is not a real date.
# Clocks: complete tables of the valid "Thh" and ":mm:ss" parts (24 and 3,600 entries, no
# leap second); anything else is not a clock.
_MEMO_LIMIT: Final = 1 << 17
_dates: dict[str, int] = {}
_HOURS: Final = {f"T{hour:02d}": hour * 3_600 * _NS_PER_SECOND for hour in range(24)}
_MINUTES_SECONDS: Final = {
    f":{minute:02d}:{second:02d}": (minute * 60 + second) * _NS_PER_SECOND
    for minute in range(60)
    for second in range(60)
}


def _day_ns(date: str) -> int:
    """Nanoseconds from 0001-01-01 to a YYYY-MM-DD date, or -1 when it is not a real date."""
    if _DATE.fullmatch(date) is None:
        return -1
    year, month, day = int(date[0:4]), int(date[5:7]), int(date[8:10])
    if year < 1 or not 1 <= month <= 12:
        return -1
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    last = 29 if (month == 2 and leap) else _DAYS_IN_MONTH[month - 1]
    if not 1 <= day <= last:
        return -1
    y = year - 1
    days = y * 365 + y // 4 - y // 100 + y // 400
    days += sum(_DAYS_IN_MONTH[: month - 1]) + (1 if (leap and month > 2) else 0)
    return (days + day - 1) * 86_400 * _NS_PER_SECOND


def parse_utc(text: str) -> Timestamp | None:
    """Parse under the pinned grammar; None when `text` is not a valid UTC timestamp."""
    date = text[:10]
    day = _dates.get(date)
    if day is None:
        if len(_dates) >= _MEMO_LIMIT:
            _dates.clear()
        day = _dates[date] = _day_ns(date)
    hour = _HOURS.get(text[10:13])
    rest = _MINUTES_SECONDS.get(text[13:19])
    if day < 0 or hour is None or rest is None:
        return None
    instant = day + hour + rest
    if len(text) == 20 and text[19] == "Z":  # the normal form itself: nothing to rewrite
        return text, instant
    match = _FRACTION.fullmatch(text, 19)
    if match is None:
        return None
    fraction = (match[1] or "").rstrip("0")
    if not fraction:
        return text[:19] + "Z", instant
    return f"{text[:19]}.{fraction}Z", instant + int(fraction.ljust(9, "0"))


def parse_lenient_utc(text: str) -> Timestamp | None:
    """INT-20/case-and-minus-zero (an alternative, ``_readings.py``): also accept what RFC 3339
    section 5.6 allows for UTC beyond the pinned profile -- a lower-case ``t`` and ``z`` and the
    offset ``-00:00`` -- and nothing more; the normalized form is the pinned one (INT-21)."""
    if len(text) > 10 and text[10] == "t":
        text = text[:10] + "T" + text[11:]
    if text.endswith("z"):
        text = text[:-1] + "Z"
    elif text.endswith("-00:00"):
        text = text[:-6] + "Z"
    return parse_utc(text)


# INT-20's wider alternatives (``_readings.py``): grammars beyond the profile, parsed field by
# field (never on the pinned path).  Each match gives (date, time fields, fraction digits,
# offset); the instant is exact to the nanosecond (digits after the ninth are cut, as the
# runtimes' nanosecond types do), the normalized string is INT-21's form of the UTC instant.
_RFC3339_UTC: Final = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
    r"([Zz]|[+-]00:00)"
)
_ISO_EXTENDED: Final = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[.,]([0-9]{1,9}))?"
    r"(Z|[+-][0-9]{2}(?::[0-9]{2})?)"
)
_ISO_BASIC: Final = re.compile(
    r"([0-9]{8})[T ]([0-9]{2})([0-9]{2})([0-9]{2})(?:[.,]([0-9]{1,9}))?"
    r"(Z|[+-][0-9]{2}(?:[0-9]{2})?)"
)
_NS_PER_DAY: Final = 86_400 * _NS_PER_SECOND


def _fields(match: re.Match[str], last_second: int) -> Timestamp | None:
    """A grammar match -> (INT-21 normalized string of the UTC instant, nanoseconds)."""
    date, hour, minute, second, digits, offset = match.groups()
    if len(date) == 8:  # basic format YYYYMMDD
        date = f"{date[:4]}-{date[4:6]}-{date[6:]}"
    day = _day_ns(date)
    hh, mm, ss = int(hour), int(minute), int(second)
    if day < 0 or hh > 23 or mm > 59 or ss > last_second:
        return None
    sign = -1 if offset[0] == "-" else 1
    offset_hh = int(offset[1:3]) if len(offset) > 1 else 0
    offset_mm = int(offset[-2:]) if len(offset) > 3 else 0
    if offset_hh > 23 or offset_mm > 59:
        return None
    fraction = (digits or "").rstrip("0")
    shift = sign * (offset_hh * 3_600 + offset_mm * 60) * _NS_PER_SECOND
    instant = day + (hh * 3_600 + mm * 60 + ss) * _NS_PER_SECOND - shift
    instant += int(fraction[:9].ljust(9, "0")) if fraction else 0
    tail = f".{fraction}Z" if fraction else "Z"
    if not shift:  # the fields are UTC already (a leap second keeps its ":60")
        return f"{date}T{hour}:{minute}:{second}{tail}", instant
    days, rest = divmod(instant - instant % _NS_PER_SECOND, _NS_PER_DAY)
    if not 0 <= days < _day_ns("9999-12-31") // _NS_PER_DAY + 1:
        return None  # converted out of years 0001..9999
    utc = _date.fromordinal(days + 1).isoformat()
    seconds = rest // _NS_PER_SECOND
    clock = f"{seconds // 3_600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return f"{utc}T{clock}{tail}", instant


def parse_rfc3339_utc(text: str) -> Timestamp | None:
    """INT-20/accept-rfc-3339-date: every RFC 3339 date-time in UTC -- a lower-case ``t`` and
    ``z``, ``-00:00``, second 60 (the instant one second after second 59) and any number of
    fraction digits (all kept in the normalized string; the instant cut to nanoseconds)."""
    match = _RFC3339_UTC.fullmatch(text)
    return None if match is None else _fields(match, 60)


def parse_iso8601_utc(text: str) -> Timestamp | None:
    """INT-20/accept-iso-8601-forms: also ISO 8601 basic format (YYYYMMDDThhmmss), a decimal
    comma, a space for ``T``, and offsets other than UTC (±hh:mm, ±hhmm, ±hh), converted to
    UTC; still upper case, seconds <= 59, at most 9 fraction digits, an offset required."""
    match = _ISO_EXTENDED.fullmatch(text) or _ISO_BASIC.fullmatch(text)
    return None if match is None else _fields(match, 59)


def _normal_form(instant: int) -> str:
    """INT-21's normalized string of an instant (nanoseconds since 0001-01-01T00:00:00Z)."""
    days, rest = divmod(instant, _NS_PER_DAY)
    seconds, nanos = divmod(rest, _NS_PER_SECOND)
    fraction = f"{nanos:09d}".rstrip("0")
    clock = f"{seconds // 3_600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    tail = f".{fraction}Z" if fraction else "Z"
    return f"{_date.fromordinal(days + 1).isoformat()}T{clock}{tail}"


_LAST_INSTANT: Final = _day_ns("9999-12-31") + _NS_PER_DAY  # the end of year 9999
_JAVA_INSTANT: Final = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{0,9}))?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2}(?::[0-9]{2})?)"
)


def parse_java_instant(text: str) -> Timestamp | None:
    """INT-20/java-instant-parse: what ``java.time.Instant.parse`` accepts (JDK 17, checked
    against it), among four-digit years whose UTC instant stays in years 0001..9999: 'T' or
    't'; hh:mm:ss with 24:00:00 the next day's midnight and 23:59:60 read as 23:59:59 (its
    fraction kept); '.' and 0 to 9 digits; 'Z', 'z' or an offset ±hh:mm[:ss] up to 18:00,
    converted to UTC.  The normalized string is INT-21's form of the UTC instant."""
    match = _JAVA_INSTANT.fullmatch(text)
    if match is None:
        return None
    date, hour, minute, second, digits, offset = match.groups()
    hh, mm, ss = int(hour), int(minute), int(second)
    digits = (digits or "").rstrip("0")
    day = _day_ns(date)
    if (hh, mm, ss) == (24, 0, 0) and not digits:
        hh, day = 0, day + _NS_PER_DAY if day >= 0 else -1
    if (hh, mm, ss) == (23, 59, 60):
        ss = 59
    if day < 0 or hh > 23 or mm > 59 or ss > 59:
        return None
    east = 0
    if offset not in ("Z", "z"):
        parts = [int(part) for part in offset[1:].split(":")]
        east = parts[0] * 3_600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0)
        if parts[1] > 59 or (len(parts) > 2 and parts[2] > 59) or east > 18 * 3_600:
            return None
        east = -east if offset[0] == "-" else east
    instant = day + (hh * 3_600 + mm * 60 + ss - east) * _NS_PER_SECOND
    instant += int(digits.ljust(9, "0")) if digits else 0
    if not 0 <= instant < _LAST_INSTANT:
        return None
    return _normal_form(instant), instant


_GO_RFC3339: Final = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:[.,]([0-9]+))?"
    r"(?:Z|[+-]00:00)"
)


def parse_go_rfc3339(text: str) -> Timestamp | None:
    """INT-20/go-time-parse-rfc3339: what Go's ``time.Parse(time.RFC3339, s)`` accepts (Go
    1.19, probed in ``tools/runtimes/go``) with a zero UTC offset: upper-case 'T' and 'Z', an
    hour of one or two digits, '.' or ',' and any number of fraction digits (the instant cut
    to nanoseconds), 'Z', '+00:00' or '-00:00'; a real date in years 0001..9999, hh <= 23,
    mm <= 59, ss <= 59.  The normalized string is INT-21's form of the instant."""
    match = _GO_RFC3339.fullmatch(text)
    if match is None:
        return None
    date, hour, minute, second, digits = match.groups()
    day = _day_ns(date)
    hh, mm, ss = int(hour), int(minute), int(second)
    if day < 0 or hh > 23 or mm > 59 or ss > 59:
        return None
    fraction = (digits or "")[:9]
    instant = day + (hh * 3_600 + mm * 60 + ss) * _NS_PER_SECOND
    instant += int(fraction.ljust(9, "0")) if fraction else 0
    return _normal_form(instant), instant


def parse_python_isoformat(text: str) -> Timestamp | None:
    """INT-20/python-fromisoformat: what Python's ``datetime.fromisoformat`` accepts (3.11: ISO
    8601 basic and extended forms, any separator character, week dates, reduced precision,
    any number of fraction digits, 't' but not 'z') with a UTC offset of zero ('Z', '+00:00',
    '-00:00', '+0000'...; no offset is not UTC).  The instant is the datetime's, to the
    microsecond (further digits cut); the normalized string is INT-21's form of it."""
    try:
        moment = _datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.utcoffset() != _timedelta(0):
        return None
    seconds = moment.hour * 3_600 + moment.minute * 60 + moment.second
    instant = (moment.toordinal() - 1) * _NS_PER_DAY + seconds * _NS_PER_SECOND
    instant += moment.microsecond * 1_000
    return _normal_form(instant), instant


class RawTimestamp(tuple[str, int]):
    """INT-21/order-raw-string-05: a timestamp that remembers the string it was read from."""

    raw: str


def remembering(
    parse: Callable[[str], Timestamp | None],
) -> Callable[[str], Timestamp | None]:
    """INT-21/order-raw-string-05: `parse`, its timestamps remembering their raw string."""

    def parse_remembered(text: str) -> Timestamp | None:
        ts = parse(text)
        if ts is None:
            return None
        remembered = RawTimestamp(ts)
        remembered.raw = text
        return remembered

    return parse_remembered


#: How many leading bytes of a raw ts_utc string its order key reads (every valid timestamp
#: but one with more than 29 fraction digits under INT-20/accept-rfc-3339-date fits).
RAW_KEY_BYTES: Final = 64


def raw_string_key(ts: Timestamp | None) -> int:
    """INT-21/order-raw-string-05: tie-break 2 by the raw ts_utc string, descending (code-point
    order, which is UTF-8 byte order), as an ascending integer key; missing still last."""
    if ts is None:
        return sort_key_missing
    data = getattr(ts, "raw", ts[0]).encode("utf-8")[:RAW_KEY_BYTES]
    return -int.from_bytes(data.ljust(RAW_KEY_BYTES, b"\0"), "big") - 1


#: INT-21: the tie-break 2 key of each reading (by the instant, pinned, first).
TS_KEYS: Final = {"instant": sort_key, "order-raw-string-05": raw_string_key}
#: INT-21: the readings whose key needs each timestamp's raw string (`remembering`).
RAW_ORDERS: Final = frozenset({"order-raw-string-05"})


#: INT-20: which strings are valid UTC timestamps (the pinned profile first).
PARSERS: Final = {
    "profile": parse_utc,
    "case-and-minus-zero": parse_lenient_utc,
    "accept-rfc-3339-date": parse_rfc3339_utc,
    "accept-iso-8601-forms": parse_iso8601_utc,
    "python-fromisoformat": parse_python_isoformat,
    "java-instant-parse": parse_java_instant,
    "go-time-parse-rfc3339": parse_go_rfc3339,
}
