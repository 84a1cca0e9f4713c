"""Timestamp reading: the INT-20 grammar and the INT-21 normalized form.

``parse_ts`` is the one definition of a valid SPEC-006 timestamp in the kit: the property
model, the strategies, the store checker and the oracle all call it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Final, Literal

__all__ = ["TsGrammar", "parse_ts"]

#: INT-20: which strings are valid UTC timestamps: the pinned "profile", or the executable
#: alternative "case-and-minus-zero" (``INT-20/case-and-minus-zero``, the register's
#: ``alternatives[4]``).
TsGrammar = Literal[
    "profile",
    "case-and-minus-zero",
    "accept-rfc-3339-date",
    "accept-iso-8601-forms",
    "python-fromisoformat",
    "java-instant-parse",
    "go-time-parse-rfc3339",
]

# INT-20: YYYY-MM-DD 'T' hh:mm:ss [ '.' 1*9DIGIT ] ( 'Z' / '+00:00' ), ASCII digits only.
_TS = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(?:Z|\+00:00)"
)
# INT-20/case-and-minus-zero: "Accept what RFC 3339 section 5.6 allows for UTC beyond the
# profile, and nothing more: a lower-case 't' and 'z', and the offset '-00:00' (normalized as
# INT-21 says)."
_TS_RFC3339_UTC = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(?:[Zz]|[+-]00:00)"
)
# INT-20/accept-rfc-3339-date: "Accept every RFC 3339 date-time in UTC: lower-case 't'/'z',
# '-00:00', second 60 and any number of fraction digits."
_TS_RFC3339_ANY = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]+))?([Zz]|[+-]00:00)"
)
# INT-20/accept-iso-8601-forms: "Accept ISO 8601 forms beyond RFC 3339: basic format, a decimal
# comma, a space instead of 'T'; convert other offsets to UTC."  Extended or basic throughout.
_TS_ISO_FORMS = (
    re.compile(
        r"([0-9]{4})-([0-9]{2})-([0-9]{2})[T ]([0-9]{2}):([0-9]{2}):([0-9]{2})"
        r"(?:[.,]([0-9]{1,9}))?(Z|[+-][0-9]{2}(?::[0-9]{2})?)"
    ),
    re.compile(
        r"([0-9]{4})([0-9]{2})([0-9]{2})[T ]([0-9]{2})([0-9]{2})([0-9]{2})"
        r"(?:[.,]([0-9]{1,9}))?(Z|[+-][0-9]{2}(?:[0-9]{2})?)"
    ),
)
_GRAMMARS: Final = {"profile": _TS, "case-and-minus-zero": _TS_RFC3339_UTC}


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)  # Gregorian rule
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_before_year(year: int) -> int:
    """Days from 0001-01-01 to year-01-01 (proleptic Gregorian)."""
    y = year - 1
    return y * 365 + y // 4 - y // 100 + y // 400


def _days_before_month(year: int, month: int) -> int:
    return sum(_days_in_month(year, m) for m in range(1, month))


def parse_ts(value: str, grammar: TsGrammar = "profile") -> tuple[int, int, str] | None:
    """INT-20/21: (seconds since 0001-01-01, nanoseconds, normalized string) or None if invalid.

    ``grammar`` is the INT-20 reading (the pinned profile by default).
    """
    if grammar == "accept-rfc-3339-date":
        return _parse_wide(_TS_RFC3339_ANY.fullmatch(value), leap=True)
    if grammar == "python-fromisoformat":
        return _parse_python(value)
    if grammar == "java-instant-parse":
        return _parse_java(value)
    if grammar == "go-time-parse-rfc3339":
        return _parse_go(value)
    if grammar == "accept-iso-8601-forms":
        return _parse_wide(_TS_ISO_FORMS[0].fullmatch(value) or _TS_ISO_FORMS[1].fullmatch(value))
    m = _GRAMMARS[grammar].fullmatch(value)
    if m is None:
        return None
    year, month, day, hh, mi, ss = (int(g) for g in m.groups()[:6])
    frac = m.group(7) or ""
    if not (1 <= year <= 9999 and 1 <= month <= 12):
        return None
    if not (1 <= day <= _days_in_month(year, month)):
        return None
    if hh > 23 or mi > 59 or ss > 59:  # no leap second
        return None
    days = _days_before_year(year) + _days_before_month(year, month) + day - 1
    seconds = days * 86_400 + hh * 3600 + mi * 60 + ss
    nanos = int(frac.ljust(9, "0"))
    # INT-21: fraction digits without trailing zeros (nothing when all zeros), then 'Z'.
    digits = frac.rstrip("0")
    normalized = value[:10] + "T" + value[11:19] + ("." + digits if digits else "") + "Z"
    return seconds, nanos, normalized


def _parse_wide(m: re.Match[str] | None, leap: bool = False) -> tuple[int, int, str] | None:
    """INT-20's wider alternatives: a match of their grammar -> (seconds since 0001-01-01 UTC,
    nanoseconds, normalized string of the UTC instant), or None.

    ``leap``: second 60 is allowed and is the second after 59 (23:59:60 on the 31st is the next
    day's 00:00:00); its normalized string keeps ":60".  Fraction digits after the ninth are not
    part of the instant (nanoseconds) but stay in the normalized string.  An offset other than
    zero is subtracted (the UTC instant), which must stay within years 0001..9999.
    """
    if m is None:
        return None
    year, month, day, hh, mi, ss = (int(g) for g in m.groups()[:6])
    frac = (m.group(7) or "").rstrip("0")
    zone = m.group(8)
    if not (1 <= year <= 9999 and 1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
        return None
    if hh > 23 or mi > 59 or ss > (60 if leap else 59):
        return None
    east = 0
    if zone not in ("Z", "z"):
        digits = zone[1:].replace(":", "")
        oh, om = int(digits[:2]), int(digits[2:] or "0")
        if oh > 23 or om > 59:
            return None
        east = (oh * 60 + om) * 60 * (-1 if zone[0] == "-" else 1)
    days = _days_before_year(year) + _days_before_month(year, month) + day - 1
    seconds = days * 86_400 + hh * 3600 + mi * 60 + ss - east
    nanos = int(frac[:9].ljust(9, "0"))
    tail = ("." + frac if frac else "") + "Z"
    if east == 0:
        return seconds, nanos, f"{year:04d}-{month:02d}-{day:02d}T{hh:02d}:{mi:02d}:{ss:02d}{tail}"
    if not 0 <= seconds < (_days_before_year(10000)) * 86_400:
        return None
    moment = datetime(1, 1, 1) + timedelta(seconds=seconds)
    return seconds, nanos, moment.strftime("%Y-%m-%dT%H:%M:%S").rjust(19, "0") + tail


def _utc_form(seconds: int, nanos: int) -> str:
    """INT-21's normalized string of a UTC instant (seconds since 0001-01-01, nanoseconds)."""
    moment = datetime(1, 1, 1) + timedelta(seconds=seconds)
    digits = f"{nanos:09d}".rstrip("0")
    return moment.isoformat(timespec="seconds") + ("." + digits if digits else "") + "Z"


def _parse_python(value: str) -> tuple[int, int, str] | None:
    """INT-20/python-fromisoformat: "what Python's datetime.fromisoformat accepts, with a UTC
    offset of zero" -- the runtime's own function decides; the instant is its datetime's
    (microseconds)."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None or moment.utcoffset() != timedelta(0):
        return None
    naive = moment.replace(tzinfo=None)
    seconds = (naive - datetime(1, 1, 1)) // timedelta(seconds=1)
    nanos = naive.microsecond * 1000
    return seconds, nanos, _utc_form(seconds, nanos)


# INT-20/java-instant-parse: java.time.Instant.parse (JDK 17), four-digit years.
_TS_JAVA = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{0,9}))?"
    r"(?:([Zz])|([+-])([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)"
)


def _parse_java(value: str) -> tuple[int, int, str] | None:
    """INT-20/java-instant-parse: "what java.time.Instant.parse accepts": ISO_INSTANT parses
    case-insensitively, 24:00:00 is the end of the day, a leap second 23:59:60 becomes
    23:59:59, offsets up to +-18:00 (with optional seconds) are converted to UTC; the kit keeps
    the UTC instant within years 0001..9999."""
    m = _TS_JAVA.fullmatch(value)
    if m is None:
        return None
    year, month, day, hh, mi, ss = (int(g) for g in m.groups()[:6])
    frac = (m.group(7) or "").rstrip("0")
    if not (1 <= year <= 9999 and 1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
        return None
    carry = 0
    if (hh, mi, ss, frac) == (24, 0, 0, ""):
        hh, carry = 0, 86_400
    if hh == 23 and mi == 59 and ss == 60:
        ss = 59
    if hh > 23 or mi > 59 or ss > 59:
        return None
    east = 0
    if m.group(8) is None:
        oh, om, osec = int(m.group(10)), int(m.group(11)), int(m.group(12) or "0")
        if om > 59 or osec > 59 or oh * 3600 + om * 60 + osec > 18 * 3600:
            return None
        east = (oh * 3600 + om * 60 + osec) * (-1 if m.group(9) == "-" else 1)
    days = _days_before_year(year) + _days_before_month(year, month) + day - 1
    seconds = days * 86_400 + carry + hh * 3600 + mi * 60 + ss - east
    if not 0 <= seconds < _days_before_year(10000) * 86_400:
        return None
    nanos = int(frac.ljust(9, "0"))
    return seconds, nanos, _utc_form(seconds, nanos)


# INT-20/go-time-parse-rfc3339: "Go's time.Parse(time.RFC3339, s) (Go 1.19) with a zero UTC
# offset: YYYY-MM-DD, upper-case 'T', an hour of one or two digits, ':mm:ss', then optionally
# '.' or ',' and one or more digits (any number; the instant cut to nanoseconds), then 'Z',
# '+00:00' or '-00:00'".
_TS_GO = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{1,2}):([0-9]{2}):([0-9]{2})"
    r"(?:[.,]([0-9]+))?(?:Z|\+00:00|-00:00)"
)


def _parse_go(value: str) -> tuple[int, int, str] | None:
    """INT-20/go-time-parse-rfc3339: "a real calendar date, hh <= 23, mm <= 59, ss <= 59 ...
    year 0000 ... stays invalid here. The normalized string is INT-21's form of the instant"."""
    m = _TS_GO.fullmatch(value)
    if m is None:
        return None
    year, month, day, hh, mi, ss = (int(g) for g in m.groups()[:6])
    if not (1 <= year <= 9999 and 1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
        return None
    if hh > 23 or mi > 59 or ss > 59:
        return None
    days = _days_before_year(year) + _days_before_month(year, month) + day - 1
    seconds = days * 86_400 + hh * 3600 + mi * 60 + ss
    nanos = int((m.group(7) or "")[:9].ljust(9, "0"))
    return seconds, nanos, _utc_form(seconds, nanos)
