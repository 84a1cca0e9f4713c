"""Hand vectors: the memory.compact job (family ``compact``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.phase2._dsl import (
    after,
    entity,
    event,
    fixture,
    job,
    job_err,
    link,
    summary,
    turn,
    vec,
)

DESCRIPTION = "Hand-written: the strict 30-day cutoff from an explicit now, deletion of old inbox items only, the memory_compaction_completed event with its counts and id, bad now."
_NOW = "2024-06-30T12:00:00Z"
_CUT = "2024-05-31T12:00:00Z"
_W = "now 2024-06-30T12:00:00Z - 30 x 86400 s = cutoff 2024-05-31T12:00:00Z (June 30 - 30 days = May 31, same time). "
_CL = ["P2-CMP-01", "P2-CMP-02", "P2-CMP-04", "P2-CMP-05", "P2-CMP-06", "P2-CFG-04"]
_INT = ["P2-INT-21", "P2-INT-22", "P2-INT-23"]


def _done(
    event_id: int, removed: int, retained: int, cutoff: str = _CUT, now: str = _NOW
) -> tuple[dict[str, object], dict[str, object]]:
    payload = {
        "retention_days": 30,
        "cutoff": cutoff,
        "inbox_items_removed": removed,
        "inbox_items_retained": retained,
    }
    return payload, event(
        event_id, "memory_compaction_completed", now, payload, user=None, chat=None
    )


_F1 = fixture(
    turns=[
        turn(1, "one second too old", "2024-05-31T11:59:59Z"),
        turn(2, "exactly at the cutoff", _CUT),
        turn(3, "after now", "2024-06-30T12:00:01Z"),
    ]
)
_P1, _E1 = _done(1, 1, 2)
_F2 = fixture(
    summaries=[summary(1, "old summary", "2024-01-01T00:00:00Z", sources=[1])],
    events=[
        event(1, "inbox_item_received", "2024-01-01T00:00:00Z", {"text": "x"}),
        event(2, "task_created", "2024-01-02T00:00:00Z"),
        event(
            3,
            "memory_summary_created",
            "2024-01-03T00:00:00Z",
            {"summary_id": 1, "source_count": 1},
        ),
    ],
    turns=[
        turn(1, "old u1", "2024-01-01T00:00:00Z"),
        turn(2, "old u2", "2024-02-01T00:00:00Z", user="u2", chat="c2"),
        turn(3, "recent", "2024-06-29T00:00:00Z"),
    ],
    entities=[entity(1, "task", "Old task", "2023-01-01T00:00:00Z")],
    links=[link(1, 1, 1)],
)
_P2, _E2 = _done(4, 2, 1)
_P3, _E3 = _done(1, 0, 0)
_F4 = fixture(turns=[turn(1, "fresh", "2024-06-01T00:00:00Z")])
_P4, _E4 = _done(1, 0, 1)
_F5 = fixture(
    turns=[turn(1, "gone", "2024-01-30T23:59:59Z"), turn(2, "kept", "2024-01-31T00:00:00Z")]
)
_P5, _E5 = _done(1, 1, 1, "2024-01-31T00:00:00Z", "2024-03-01T00:00:00Z")
_F8 = fixture(events=[event(5, "a", "2024-06-01T00:00:00Z"), event(2, "b", "2024-06-01T00:00:00Z")])
_P8, _E8 = _done(6, 0, 0)

VECTORS = [
    vec(
        "p2-compact-h001",
        "Strictly older than the cutoff is removed; exactly at the cutoff and after now are kept.",
        comment=_W
        + "Turn 1 at 11:59:59 on May 31 < cutoff -> removed; turn 2 at the cutoff -> kept (strict, P2-INT-21); turn 3 after now -> kept. Removed 1, retained 2. Event id 1 (empty log), user/chat null, created_at = now, payload {retention_days 30, cutoff, 1, 2}.",
        clauses=_CL,
        interpretations=_INT,
        fixture=_F1,
        call={"op": "compact", "now": _NOW},
        expect=job(_P1, after(_F1, remove_turns=[1], add_events=[_E1])),
    ),
    vec(
        "p2-compact-h002",
        "Summaries, entities, links and events are retained; every user's old turns go; the event id follows the greatest.",
        comment=_W
        + "Turns: 1 (Jan 1, u1) and 2 (Feb 1, u2/c2) < cutoff -> removed (all users and chats); 3 (Jun 29) kept. Summary 1, entity 1, link 1 and events 1..3 unchanged (P2-CMP-03, P2-INT-22). Event id 3 + 1 = 4. Removed 2, retained 1.",
        clauses=[*_CL, "P2-CMP-03"],
        interpretations=_INT,
        fixture=_F2,
        call={"op": "compact", "now": _NOW},
        expect=job(_P2, after(_F2, remove_turns=[1, 2], add_events=[_E2])),
    ),
    vec(
        "p2-compact-h003",
        "An empty database: the event is still logged with zero counts.",
        comment=_W
        + "No inbox item: removed 0, retained 0; event id 1 (P2-INT-23: logged also when nothing was removed).",
        clauses=_CL,
        interpretations=_INT,
        fixture={},
        call={"op": "compact", "now": _NOW},
        expect=job(_P3, after({}, add_events=[_E3])),
    ),
    vec(
        "p2-compact-h004",
        "Nothing old: nothing removed, the run still logged.",
        comment=_W + "Turn 1 at Jun 1 >= cutoff -> kept. Removed 0, retained 1; event id 1.",
        clauses=_CL,
        interpretations=_INT,
        fixture=_F4,
        call={"op": "compact", "now": _NOW},
        expect=job(_P4, after(_F4, add_events=[_E4])),
    ),
    vec(
        "p2-compact-h005",
        "Thirty days of seconds across a leap February, not one calendar month.",
        comment="now 2024-03-01T00:00:00Z - 30 x 86400 s: Feb 2024 has 29 days, so 29 days back is Feb 1 and 30 days back is 2024-01-31T00:00:00Z (a 'one month' rule would give Feb 1). Turn 1 at Jan 30 23:59:59 < cutoff -> removed; turn 2 at Jan 31 00:00:00 = cutoff -> kept. Event id 1.",
        clauses=_CL,
        interpretations=_INT,
        fixture=_F5,
        call={"op": "compact", "now": "2024-03-01T00:00:00Z"},
        expect=job(_P5, after(_F5, remove_turns=[1], add_events=[_E5])),
    ),
    vec(
        "p2-compact-h006",
        "now with an offset instead of Z: invalid_job, nothing written.",
        comment="now '2024-06-30T12:00:00+00:00' is not the YYYY-MM-DDTHH:MM:SSZ form -> {error: invalid_job, param now}; state = fixture (P2-INT-26).",
        clauses=["P2-CMP-01"],
        interpretations=["P2-INT-26", "P2-INT-19"],
        fixture=_F1,
        call={"op": "compact", "now": "2024-06-30T12:00:00+00:00"},
        expect=job_err("now", after(_F1)),
    ),
    vec(
        "p2-compact-h007",
        "now on a day that does not exist: invalid_job.",
        comment="now '2024-02-30T00:00:00Z' matches the pattern but February has no 30th (P2-INT-19) -> invalid_job, param now; nothing written.",
        clauses=["P2-CMP-01"],
        interpretations=["P2-INT-26", "P2-INT-19"],
        fixture=_F1,
        call={"op": "compact", "now": "2024-02-30T00:00:00Z"},
        expect=job_err("now", after(_F1)),
    ),
    vec(
        "p2-compact-h008",
        "The new event id is the greatest id + 1, not the row count + 1.",
        comment=_W
        + "event_log ids 5 and 2 -> new id 6 (not 3). No inbox items: removed 0, retained 0.",
        clauses=["P2-CMP-05", "P2-CMP-06"],
        interpretations=_INT,
        fixture=_F8,
        call={"op": "compact", "now": _NOW},
        expect=job(_P8, after(_F8, add_events=[_E8])),
    ),
]
