"""Hand vectors: memory.summarize provenance (family ``summarize``)."""

# ruff: noqa: E501

from __future__ import annotations

from tools.generate.phase2._dsl import after, event, fixture, job, job_err, summary, vec

DESCRIPTION = "Hand-written: which events become source_event_ids, the new summary's id and created_at, the memory_summary_created event and its payload, nothing to summarize, bad input."
_NOW = "2024-06-01T00:00:00Z"
_T = "2024-05-01T10:00:00Z"
_CL = [
    "P2-SUM-01",
    "P2-SUM-02",
    "P2-SUM-03",
    "P2-SUM-04",
    "P2-SUM-05",
    "P2-SUM-06",
    "P2-SUM-07",
    "P2-SUM-08",
    "P2-SUM-09",
    "P2-SUM-10",
]
_INT = ["P2-INT-24", "P2-INT-25"]
_SHAPE = " The new row's summary_text (non-empty string) and facts_json (array or object) are compared by shape only (P2-INT-25)."


def _new(
    summary_id: int, sources: list[int], user: str = "u1", chat: str = "c1"
) -> dict[str, object]:
    return {
        "id": summary_id,
        "user_id": user,
        "chat_id": chat,
        "source_event_ids": sources,
        "created_at": _NOW,
    }


def _logged(event_id: int, summary_id: int, count: int) -> dict[str, object]:
    return event(
        event_id, "memory_summary_created", _NOW, {"summary_id": summary_id, "source_count": count}
    )


_F1 = fixture(
    events=[
        event(1, "inbox_item_received", _T, {"text": "Renew passport."}),
        event(2, "task_created", _T, {"title": "Passport"}),
        event(3, "inbox_item_received", _T, {"text": "other chat"}, chat="c2"),
        event(4, "inbox_item_received", _T, {"text": "other user"}, user="u2"),
        event(5, "memory_context_previewed", _T),
    ]
)
_F2 = fixture(
    summaries=[summary(3, "earlier", _T, sources=[1, 2])],
    events=[
        event(1, "inbox_item_received", _T, {"text": "a"}),
        event(2, "inbox_item_received", _T, {"text": "b"}),
        event(3, "memory_summary_created", _T, {"summary_id": 3, "source_count": 2}),
        event(4, "inbox_item_received", _T, {"text": "c"}),
    ],
)
_F3 = fixture(
    summaries=[summary(1, "all", _T, sources=[1])],
    events=[event(1, "inbox_item_received", _T, {"text": "a"})],
)
_F4 = fixture(
    summaries=[summary(1, "other chat", _T, chat="c2", sources=[1])],
    events=[event(1, "inbox_item_received", _T, {"text": "a"})],
)

VECTORS = [
    vec(
        "p2-summarize-h001",
        "Sources: this user's events in this chat, engine events excluded.",
        comment="Events: 1 u1/c1 inbox_item_received, 2 u1/c1 task_created -> sources; 3 (chat c2) and 4 (user u2) are not this user+chat; 5 memory_context_previewed is an engine event (P2-INT-24). source_event_ids [1, 2]. Summary id 1 (table empty), created_at now. Event id 5 + 1 = 6 memory_summary_created, u1/c1, payload {summary_id 1, source_count 2}; result = payload."
        + _SHAPE,
        clauses=_CL,
        interpretations=_INT,
        fixture=_F1,
        call={"op": "summarize", "user_id": "u1", "chat_id": "c1", "now": _NOW},
        expect=job(
            {"summary_id": 1, "source_count": 2},
            after(_F1, add_summaries=[_new(1, [1, 2])], add_events=[_logged(6, 1, 2)]),
        ),
    ),
    vec(
        "p2-summarize-h002",
        "Events an earlier summary of the chat covers are not summarized again.",
        comment="Summary 3 (u1/c1) covers events 1, 2. Event 3 is memory_summary_created (engine). Event 4 is new -> sources [4]. Summary id 3 + 1 = 4; event id 4 + 1 = 5, payload {summary_id 4, source_count 1}."
        + _SHAPE,
        clauses=_CL,
        interpretations=_INT,
        fixture=_F2,
        call={"op": "summarize", "user_id": "u1", "chat_id": "c1", "now": _NOW},
        expect=job(
            {"summary_id": 4, "source_count": 1},
            after(_F2, add_summaries=[_new(4, [4])], add_events=[_logged(5, 4, 1)]),
        ),
    ),
    vec(
        "p2-summarize-h003",
        "Nothing new to summarize: nothing written.",
        comment="Event 1 is covered by summary 1 of u1/c1 -> no source -> result {summary_id null, source_count 0}, state = fixture (P2-INT-24).",
        clauses=["P2-SUM-01", "P2-SUM-08"],
        interpretations=_INT,
        fixture=_F3,
        call={"op": "summarize", "user_id": "u1", "chat_id": "c1", "now": _NOW},
        expect=job({"summary_id": None, "source_count": 0}, after(_F3)),
    ),
    vec(
        "p2-summarize-h004",
        "Coverage is per user and chat: another chat's summary does not cover this chat's event.",
        comment="Summary 1 is u1/c2 with sources [1], but event 1 is u1/c1: coverage counts only summaries of (u1, c1) -> sources [1]. Summary id 2, event id 2, payload {summary_id 2, source_count 1}."
        + _SHAPE,
        clauses=_CL,
        interpretations=_INT,
        fixture=_F4,
        call={"op": "summarize", "user_id": "u1", "chat_id": "c1", "now": _NOW},
        expect=job(
            {"summary_id": 2, "source_count": 1},
            after(_F4, add_summaries=[_new(2, [1])], add_events=[_logged(2, 2, 1)]),
        ),
    ),
    vec(
        "p2-summarize-h005",
        "An empty user_id is invalid_job.",
        comment="user_id '' -> {error: invalid_job, param user_id}; nothing written (P2-INT-26).",
        clauses=["P2-SUM-01"],
        interpretations=["P2-INT-26"],
        fixture=_F1,
        call={"op": "summarize", "user_id": "", "chat_id": "c1", "now": _NOW},
        expect=job_err("user_id", after(_F1)),
    ),
    vec(
        "p2-summarize-h006",
        "chat_id is checked before now.",
        comment="chat_id '' and now null: order user_id, chat_id, now -> param chat_id (P2-INT-26).",
        clauses=["P2-SUM-01"],
        interpretations=["P2-INT-26"],
        fixture=_F1,
        call={"op": "summarize", "user_id": "u1", "chat_id": "", "now": None},
        expect=job_err("chat_id", after(_F1)),
    ),
    vec(
        "p2-summarize-h007",
        "A missing now is invalid_job: no clock is read.",
        comment="now null -> {error: invalid_job, param now}; nothing written (P2-INT-26).",
        clauses=["P2-SUM-01"],
        interpretations=["P2-INT-26"],
        fixture=_F1,
        call={"op": "summarize", "user_id": "u1", "chat_id": "c1", "now": None},
        expect=job_err("now", after(_F1)),
    ),
]
