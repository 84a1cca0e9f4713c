"""Write the sample memory stores under adam_os_data/memory/ with the reference writer.

    python -m tools.samples          # regenerate the four files
    python -m tools.samples --check  # exit 1 if the committed files differ

The data is a fictional AdamOS personal-assistant memory over twelve weeks (2025-01-06 to
2025-03-30): projects, tasks, meetings and decisions (episodic), standard operating procedures
(procedural) and facts and preferences (semantic), with a few corrections.  Every record is
written by `reference.StoreWriter` (append-only, canonical, INT-24 dual-spec records) and every
write leaves a receipt in ledger.jsonl.  Deterministic: fixed created_at_utc values, no clock,
no randomness, fixed write order; the same script always writes the same bytes.  No real
people, addresses or contact details appear (SPEC-005: "no sensitive storage by default").
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make the repository importable
    sys.path.insert(0, str(ROOT))

from reference import StoreWriter, make_ref  # noqa: E402

MEMORY = "adam_os_data/memory"
STORES = {t: f"{MEMORY}/{t}.jsonl" for t in ("episodic", "procedural", "semantic")}
LEDGER = f"{MEMORY}/ledger.jsonl"
FILES = (*STORES.values(), LEDGER)
START = datetime.datetime(2025, 1, 6, tzinfo=datetime.UTC)  # a Monday


@dataclass(frozen=True)
class Item:
    """One write: when, where, what; `key` names it so later items can refer to its id."""

    day: int
    minute: int  # minutes after midnight UTC
    type: str
    source: str
    text: str
    tags: tuple[str, ...]
    refs: tuple[tuple[str, str], ...] = ()
    key: str | None = None
    corrects: str | None = None  # key of the item this one corrects
    derived_from: tuple[str, ...] = field(default=())  # keys -> {"kind": "memory_id"} refs


def at(day: int, hhmm: str) -> tuple[int, int]:
    hours, minutes = hhmm.split(":")
    return day, int(hours) * 60 + int(minutes)


def stamp(day: int, minute: int) -> str:
    when = START + datetime.timedelta(days=day, minutes=minute)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


# ------------------------------------------------------------------------------ episodic

Refs = tuple[tuple[str, str], ...]
# (day, time, source, text, tags, refs, key)
EVENTS: list[tuple[int, str, str, str, tuple[str, ...], Refs, str | None]] = [
    (0, "08:10", "user", "Set the quarter's three priorities: ship the Phase 6 memory controller, "
     "finish the kitchen renovation by the end of March, run the spring half marathon under "
     "two hours.", ("planning", "quarterly", "priorities"), (), "q1-priorities"),
    (0, "10:00", "user", "Phase 6 kickoff with Priya and Tomasz. Agreed scope: read-only "
     "memory.read, deterministic scoring, token-budgeted context packages. Store writes stay "
     "out of scope.", ("phase6", "meeting", "kickoff"), (("run_id", "run-2025-01-06-001"),),
     "p6-kickoff"),
    (0, "14:30", "user", "Kitchen: first walkthrough with Maya from Lindqvist Build. She will "
     "send a quote for cabinets, worktop and electrics by Friday.", ("kitchen", "meeting",
     "contractor"), (), "kitchen-walkthrough"),
    (1, "09:15", "user", "Decision: canonical JSON for every hash is RFC 8785 (JCS). Python "
     "json.dumps with sort_keys differs on floats and non-BMP key order.", ("phase6",
     "decision", "hashing"), (("file", "specs/interpretations.toml"),), "p6-jcs"),
    (1, "18:45", "user", "Dentist appointment moved to 21 January, 08:30.", ("health",
     "appointment"), (), "dentist-1"),
    (2, "11:00", "user", "Tax 2024: collected the annual statements from both bank accounts "
     "and the pension provider; still missing the freelance invoices from November.",
     ("taxes", "task"), (), None),
    (2, "16:00", "user", "Phase 6: Tomasz raised that SPEC-005 stores use created_at_utc while "
     "SPEC-006 reads ts_utc. Parked for the interpretation register.", ("phase6", "spec",
     "question"), (("file", "specs/seeds/SPEC-005.txt"),), "p6-ts-question"),
    (3, "09:30", "user", "Booked the plumber for the kitchen sink move on 3 February.",
     ("kitchen", "task", "plumbing"), (), "plumber-booked"),
    (3, "13:00", "user", "Lunch with Jonas: he will review the meetup talk outline next week.",
     ("talk", "meeting"), (), None),
    (4, "10:30", "system", "Received Lindqvist Build quote v1: cabinets, quartz worktop, "
     "rewiring of two circuits. Total above the planned budget by about 12 percent.",
     ("kitchen", "quote", "budget"), (("file", "projects/kitchen/quote-v1.pdf"),),
     "kitchen-quote-1"),
    (4, "17:00", "user", "Decision: ask Maya to price a laminate worktop as an alternative "
     "before accepting the quote.", ("kitchen", "decision", "budget"), (), "kitchen-laminate"),
    (7, "10:00", "user", "Phase 6 design review: reader streams line by line, invalid lines "
     "become invalid_record_schema drops, never errors.", ("phase6", "meeting", "design"),
     (("run_id", "run-2025-01-13-002"),), "p6-design-review"),
    (7, "15:00", "user", "Sent the freelance invoices for November to the accountant.",
     ("taxes", "task", "done"), (), None),
    (8, "09:00", "user", "Decision: budget overflow stops selection; later candidates are "
     "dropped with budget_exhausted even if they would fit.", ("phase6", "decision",
     "budget"), (("file", "specs/interpretations.toml"),), "p6-stop-rule"),
    (8, "19:30", "user", "Choir rehearsal moved from Tuesday to Wednesday evenings for the rest "
     "of the term.", ("family", "schedule"), (), None),
    (9, "12:00", "user", "Talk outline reviewed with Jonas: cut the history section, add a "
     "live demo of the conformance report.", ("talk", "meeting", "feedback"), (), None),
    (10, "10:15", "system", "Lindqvist Build quote v2 received: laminate worktop brings the "
     "total within budget; delivery of cabinets in week 7.", ("kitchen", "quote", "budget"),
     (("file", "projects/kitchen/quote-v2.pdf"),), "kitchen-quote-2"),
    (10, "16:30", "user", "Decision: accept quote v2 with the laminate worktop; pay the 30 "
     "percent deposit on signature.", ("kitchen", "decision", "contract"), (),
     "kitchen-accept"),
    (11, "09:00", "user", "Phase 6: first green run of the reference against 400 hand "
     "vectors.", ("phase6", "milestone", "vectors"), (("run_id", "run-2025-01-17-004"),),
     None),
    (14, "08:30", "user", "Dentist check-up done; next one in six months.", ("health",
     "appointment", "done"), (), None),
    (14, "11:00", "user", "Phase 6 sync: the JavaScript port passes 92 percent of the corpus; "
     "failures are all in pow rounding for recency.", ("phase6", "meeting", "javascript"),
     (("run_id", "run-2025-01-20-003"),), "p6-js-sync"),
    (15, "10:00", "user", "Allotment committee meeting: our plot gets a water butt and a drip "
     "line this spring; work day on 15 March.", ("garden", "meeting"), (), "garden-meeting"),
    (16, "14:00", "user", "Decision: the kit only uses recency inputs whose correctly rounded "
     "weight CPython and Node agree on.", ("phase6", "decision", "recency"), (), None),
    (17, "18:00", "user", "Signed the kitchen contract and paid the deposit.", ("kitchen",
     "contract", "payment"), (("receipt_id", "rcpt-2025-01-23-kitchen-deposit"),),
     "kitchen-signed"),
    (21, "09:00", "user", "Kitchen demolition started; the old units go to the recycling "
     "centre on Thursday.", ("kitchen", "milestone"), (), None),
    (22, "10:30", "user", "Phase 6: trust snapshot format agreed as phase6-trust/1; Phase 4 "
     "snapshots may carry extra members.", ("phase6", "decision", "trust"), (), None),
    (23, "15:00", "user", "Talk accepted for the April meetup, 25-minute slot.", ("talk",
     "milestone"), (), "talk-accepted"),
    (29, "08:00", "user", "Plumber moved the sink supply and drain; the wall needs to dry for "
     "two days before tiling.", ("kitchen", "plumbing", "done"), (), None),
    (28, "10:00", "user", "Phase 6 retro: vectors caught three reader bugs before any "
     "implementation shipped; keep writing hand vectors first.", ("phase6", "meeting",
     "retro"), (), None),
    (29, "12:30", "user", "Accountant confirmed the tax return draft; two questions about home "
     "office expenses.", ("taxes", "meeting"), (), "tax-draft"),
    (30, "17:30", "user", "Bought a new pair of trail shoes; retire the old road pair after "
     "the half marathon.", ("running", "purchase"), (), None),
    (35, "09:30", "user", "Cabinets delivered, two wall units damaged in transit; Maya is "
     "ordering replacements.", ("kitchen", "delivery", "issue"), (), "cabinets-damaged"),
    (36, "11:00", "user", "Phase 6: certification report renders per-area bars and the clause "
     "matrix; Priya wants a JSON summary too.", ("phase6", "meeting", "reports"), (), None),
    (37, "16:00", "user", "Answered the accountant's home office questions and sent the floor "
     "plan.", ("taxes", "task", "done"), (("file", "documents/taxes/floor-plan.pdf"),), None),
    (38, "14:00", "user", "Decision: the meetup demo runs offline from a recorded report, no "
     "live network.", ("talk", "decision", "demo"), (), None),
    (42, "10:00", "user", "Replacement wall units arrived and were fitted.", ("kitchen",
     "delivery", "done"), (), None),
    (43, "09:00", "user", "Tax return filed.", ("taxes", "milestone", "done"),
     (("receipt_id", "rcpt-2025-02-18-tax-filing"),), "tax-filed"),
    (44, "10:00", "user", "Phase 6 planning: freeze phase6-v1 at the end of March, then write "
     "the Phase 7 proposal.", ("phase6", "planning", "meeting"), (), "p6-freeze-plan"),
    (45, "19:00", "user", "Sofia's school play is on 14 March at 18:00; both of us attend.",
     ("family", "event"), (), "school-play"),
    (49, "08:30", "user", "Electrician finished the two new circuits; certificate to follow "
     "by email.", ("kitchen", "electrics", "done"), (), None),
    (50, "11:00", "user", "Talk rehearsal with Jonas: 31 minutes, needs to lose six.",
     ("talk", "rehearsal"), (), "talk-rehearsal-1"),
    (51, "15:00", "user", "Phase 6: the store checker found two records in the demo data with "
     "string refs; regenerated the samples with object refs.", ("phase6", "stores",
     "cleanup"), (("run_id", "run-2025-02-26-001"),), None),
    (56, "10:00", "user", "Worktop installed; tiling starts Wednesday.", ("kitchen",
     "milestone"), (), None),
    (57, "09:30", "user", "Phase 6 sync: mutation gallery kills every mutant except one in "
     "tie-break 5; adding a vector.", ("phase6", "meeting", "testing"), (), None),
    (58, "18:00", "user", "Allotment: ordered the drip line kit and two water butts.",
     ("garden", "purchase"), (), None),
    (59, "13:00", "user", "Second talk rehearsal: 24 minutes, demo worked offline.", ("talk",
     "rehearsal", "done"), (), None),
    (63, "09:00", "user", "Kitchen tiling done; painter booked for next Tuesday.", ("kitchen",
     "milestone"), (), None),
    (68, "10:00", "user", "Allotment work day: water butts in place, drip line laid along the "
     "two long beds.", ("garden", "event", "done"), (), None),
    (67, "18:00", "user", "School play: Sofia was great as the narrator.", ("family",
     "event", "done"), (), None),
    (70, "11:00", "user", "Kitchen painting finished; snagging list has five items.",
     ("kitchen", "milestone"), (), "kitchen-painted"),
    (72, "10:00", "user", "Phase 6 contract phase6-v1 frozen; corpus tagged.", ("phase6",
     "milestone", "release"), (("run_id", "run-2025-03-26-001"),), "p6-frozen"),
    (73, "16:00", "user", "Maya closed four of the five snagging items; the cooker hood light "
     "is on back order.", ("kitchen", "snagging"), (), None),
    (76, "09:00", "user", "Half marathon done in 1:57:40. Knees fine, pacing even.",
     ("running", "race", "milestone"), (), "half-marathon"),
    (83, "18:00", "user", "Quarter review: Phase 6 shipped, kitchen done except one snag, "
     "half marathon under two hours. Next quarter: Phase 7 proposal, garden, talk.",
     ("planning", "quarterly", "review"), (), "q1-review"),
]  # fmt: skip

WEEKLY_FOCUS = [
    "Phase 6 kickoff, kitchen quote, tax paperwork",
    "Phase 6 design review, kitchen quote v2, tax invoices",
    "JavaScript port sync, kitchen contract, garden plans",
    "Kitchen demolition, trust snapshot format, talk acceptance",
    "Phase 6 retro, tax draft questions, new running shoes",
    "Cabinet delivery issue, certification reports, talk demo plan",
    "Tax filing, Phase 6 freeze plan, school play date",
    "Electrics, talk rehearsal, store cleanup",
    "Worktop, mutation gallery, allotment order",
    "Tiling, allotment work day, school play",
    "Painting and snagging, phase6-v1 freeze",
    "Half marathon, snagging, quarter review",
]

# Training log: (day, distance km, minutes, note); paces are plausible for a sub-2h goal.
RUNS = [
    (1, 6.0, 37, "easy"), (3, 8.0, 49, "easy, windy"), (5, 12.0, 76, "long run"),
    (8, 6.5, 39, "easy"), (10, 5.0, 27, "tempo 3 x 1 km"), (12, 13.0, 82, "long run"),
    (15, 7.0, 42, "easy"), (17, 6.0, 32, "intervals 6 x 400 m"), (19, 14.0, 88, "long run"),
    (22, 7.0, 43, "easy, icy paths"), (24, 6.0, 32, "tempo"), (26, 15.0, 95, "long run"),
    (29, 8.0, 48, "easy"), (31, 7.0, 37, "intervals 5 x 800 m"), (33, 16.0, 100, "long run"),
    (36, 8.0, 48, "easy"), (38, 8.0, 43, "tempo 2 x 3 km"), (40, 17.0, 106, "long run"),
    (43, 6.0, 37, "recovery"), (45, 8.0, 42, "race-pace 6 km"), (47, 18.0, 112, "long run"),
    (50, 8.0, 47, "easy"), (52, 9.0, 49, "tempo"), (54, 19.0, 118, "long run, gels tested"),
    (57, 8.0, 47, "easy"), (59, 8.0, 43, "race-pace 7 km"), (61, 16.0, 99, "long run"),
    (64, 7.0, 42, "easy"), (66, 6.0, 33, "tempo"), (68, 12.0, 73, "taper long run"),
    (71, 6.0, 36, "easy"), (73, 5.0, 28, "strides"), (74, 3.0, 19, "shakeout"),
]  # fmt: skip

BUDGET = [  # (week, groceries, transport, household, note)
    (0, 142, 38, 61, "on track"),
    (1, 156, 41, 240, "household includes the kitchen walkthrough fee"),
    (2, 133, 36, 58, "on track"),
    (3, 171, 44, 95, "groceries up: hosted dinner"),
    (4, 128, 39, 47, "under budget"),
    (5, 149, 52, 73, "transport up: train to the accountant"),
    (6, 137, 35, 66, "on track"),
    (7, 144, 40, 112, "household: paint samples"),
    (8, 131, 37, 59, "on track"),
    (9, 158, 43, 134, "household: drip line kit"),
    (10, 140, 39, 62, "on track"),
    (11, 165, 48, 70, "race week"),
]


def episodic_items() -> Iterator[Item]:
    """Hand-written events, the weekly reviews, the training log and the budget check-ins."""
    for day, hhmm, source, text, tags, refs, key in EVENTS:
        yield Item(*at(day, hhmm), "episodic", source, text, tags, refs, key)
    for week, focus in enumerate(WEEKLY_FOCUS):
        day = week * 7
        yield Item(
            *at(day, "07:30"),
            "episodic",
            "system",
            f"Weekly review for week {week + 1}: focus on {focus}.",
            ("weekly-review", "planning"),
            (("run_id", f"run-weekly-review-{week + 1:02d}"),),
            f"review-{week}",
        )
        yield Item(
            *at(day + 4, "17:45"),
            "episodic",
            "system",
            f"Friday wrap-up for week {week + 1}: inbox at zero, open tasks carried over to "
            "Monday's review.",
            ("weekly-review", "wrap-up"),
        )
    for day, km, minutes, note in RUNS:
        pace = minutes / km
        yield Item(
            *at(day, "06:40"),
            "episodic",
            "system",
            f"Run logged: {km:.1f} km in {minutes} min ({int(pace)}:{round(pace % 1 * 60):02d} "
            f"min/km), {note}.",
            ("running", "training-log"),
            (("run_id", f"run-training-{day:03d}"),),
        )
    for week, groceries, transport, household, note in BUDGET:
        total = groceries + transport + household
        yield Item(
            *at(week * 7 + 6, "20:00"),
            "episodic",
            "system",
            f"Budget check-in, week {week + 1}: groceries EUR {groceries}, transport EUR "
            f"{transport}, household EUR {household}, total EUR {total}; {note}.",
            ("finance", "budget", "weekly"),
        )
    # Reminders AdamOS sent (system): one per fortnight per recurring chore.
    chores = [
        ("Water the indoor plants and check the herb tray.", ("home", "reminder")),
        ("Back up the laptop to the external drive.", ("home", "reminder", "backup")),
        ("Pay the childminder invoice before Friday.", ("family", "reminder", "finance")),
    ]
    for fortnight in range(6):
        for index, (text, tags) in enumerate(chores):
            day = fortnight * 14 + 2 + index * 3
            yield Item(
                *at(day, "08:00"),
                "episodic",
                "system",
                f"Reminder sent: {text}",
                tags,
                (("receipt_id", f"rcpt-reminder-{day:03d}-{index}"),),
            )
    # Corrections (SPEC-005: "Corrections require a new memory record referencing the old").
    yield Item(
        *at(2, "08:05"),
        "episodic",
        "user",
        "Correction: the dentist appointment is on 20 January at 08:30, not 21 January.",
        ("health", "appointment", "correction"),
        corrects="dentist-1",
    )
    yield Item(
        *at(11, "18:20"),
        "episodic",
        "user",
        "Correction: the plumber comes on 4 February, not 3 February (his van was booked).",
        ("kitchen", "plumbing", "correction"),
        corrects="plumber-booked",
    )
    yield Item(
        *at(77, "10:00"),
        "episodic",
        "system",
        "Correction: official half marathon chip time is 1:57:22; 1:57:40 was the watch time.",
        ("running", "race", "correction"),
        (("file", "results/half-marathon-2025.csv"),),
        corrects="half-marathon",
    )


# ------------------------------------------------------------------------------ procedural

SOPS: list[tuple[int, str, str, tuple[str, ...], str | None]] = [
    (0, "07:00", "Weekly review SOP: 1) empty the inbox; 2) review last week's calendar; 3) "
     "review next week's calendar; 4) update the project list; 5) pick three priorities for "
     "the week.", ("sop", "weekly-review", "planning"), "sop-weekly-review"),
    (1, "20:00", "Expense capture SOP: photograph the receipt the same day, file it under "
     "documents/receipts/YYYY-MM, and add the amount to the budget sheet on Sunday.",
     ("sop", "finance", "receipts"), "sop-expenses"),
    (2, "21:00", "Meeting notes SOP: write decisions first, then action items with an owner "
     "and a date, then open questions; send the notes within one hour.", ("sop", "meetings",
     "notes"), "sop-meeting-notes"),
    (3, "20:30", "Phase 6 vector SOP: write the request, work the expected package out by "
     "hand in the comment, then run the reference; a mismatch is a finding, not a fix.",
     ("sop", "phase6", "vectors"), "sop-vectors"),
    (4, "19:00", "Contractor payment SOP: pay only against an invoice that matches the signed "
     "quote line items; keep 10 percent back until snagging is closed.", ("sop", "kitchen",
     "finance"), "sop-contractor-pay"),
    (7, "21:00", "Long run SOP: eat two hours before, carry 500 ml water and one gel per 45 "
     "minutes, start 30 seconds per km slower than goal pace.", ("sop", "running",
     "long-run"), "sop-long-run"),
    (8, "20:00", "Password rotation SOP: rotate the banking and email passwords every 90 days "
     "with the password manager's generator; never reuse; update the recovery codes "
     "envelope.", ("sop", "security", "home"), "sop-passwords"),
    (9, "21:30", "Memory store SOP: append only with the store writer, never edit a line; "
     "corrections are new records that reference the old memory_id; run store check before "
     "committing.", ("sop", "phase6", "stores"), "sop-memory-store"),
    (10, "20:00", "Travel packing SOP: charger, passport, medication, running kit, one spare "
     "day of clothes; check the weather two days before.", ("sop", "travel"), None),
    (14, "20:30", "Release SOP for the conformance kit: run nox -s tests lint typecheck, "
     "regenerate vectors with --check, certify the reference, tag, then publish the report.",
     ("sop", "phase6", "release"), "sop-release"),
    (15, "21:00", "Tax document SOP: one folder per tax year; statements, invoices, receipts "
     "and the filed return in separate subfolders; keep seven years.", ("sop", "taxes",
     "documents"), "sop-tax-docs"),
    (16, "20:00", "Backup SOP: laptop to external drive every second Sunday, photos to the "
     "cloud weekly, test one restore per quarter.", ("sop", "home", "backup"), "sop-backup"),
    (21, "19:30", "Contractor site visit SOP: photograph each room before and after, note "
     "deviations from the plan in the snagging list, agree the next visit date.", ("sop",
     "kitchen", "contractor"), None),
    (22, "21:00", "Talk preparation SOP: outline, then slides, then two timed rehearsals; cut "
     "anything that does not support the one main message.", ("sop", "talk"), "sop-talk"),
    (23, "20:00", "Interpretation register SOP: every ambiguity gets an INT entry with the "
     "question, the pinned reading, the quote, the alternatives and whether it is an "
     "erratum.", ("sop", "phase6", "spec"), "sop-register"),
    (28, "20:30", "Grocery planning SOP: plan five dinners on Sunday, check the pantry, order "
     "online before 20:00 for Monday delivery.", ("sop", "home", "groceries"), None),
    (29, "21:00", "Code review SOP: read the tests first, then the spec quotes, then the "
     "code; ask for a vector when a behaviour is not pinned.", ("sop", "phase6", "review"),
     None),
    (30, "20:00", "Race week SOP: no new shoes or food, two short runs with strides, sleep "
     "eight hours, lay out kit the night before.", ("sop", "running", "race"), "sop-race-week"),
    (35, "20:30", "Delivery inspection SOP: open and inspect every box before the driver "
     "leaves; photograph damage and note it on the delivery slip.", ("sop", "kitchen",
     "delivery"), "sop-delivery"),
    (36, "21:00", "Incident SOP for the kit: reproduce with a vector, add it to the corpus, "
     "fix, and note the finding in the register if the spec was unclear.", ("sop", "phase6",
     "incident"), None),
    (42, "20:00", "Garden watering SOP: drip line 20 minutes at 06:00 every second day from "
     "May; water butts first, mains only when both are empty.", ("sop", "garden"),
     "sop-watering"),
    (43, "20:30", "Tax filing SOP: reconcile income against statements, attach the home "
     "office calculation, file online, save the receipt PDF in the year folder.", ("sop",
     "taxes", "filing"), None),
    (44, "21:00", "Quarterly planning SOP: review the last quarter's priorities, pick at most "
     "three for the next quarter, write one measurable outcome each.", ("sop", "planning",
     "quarterly"), "sop-quarterly"),
    (49, "20:00", "Snagging SOP: one list per room, each item with a photo, owner and due "
     "date; close an item only after checking it in person.", ("sop", "kitchen",
     "snagging"), None),
    (50, "20:30", "Demo SOP: record the demo the day before, keep the recording on the "
     "laptop, run live only if the network is reliable.", ("sop", "talk", "demo"), None),
    (56, "21:00", "Store check SOP: run python -m conformance.store check on every store; a "
     "spec006-invalid line means the controller will drop it.", ("sop", "phase6", "stores"),
     None),
    (57, "20:00", "School admin SOP: read the school newsletter on Sunday, add events to the "
     "family calendar, reply to permission slips the same day.", ("sop", "family",
     "school"), None),
    (63, "20:30", "Painting SOP: two coats, four hours between coats, ventilate overnight, "
     "keep the colour codes in the kitchen folder.", ("sop", "kitchen", "painting"), None),
    (70, "21:00", "Post-race SOP: walk ten minutes, eat within an hour, easy week after, "
     "check the shoes' mileage.", ("sop", "running", "recovery"), None),
    (71, "20:00", "Freeze SOP for a contract version: announce a week ahead, accept only "
     "erratum fixes, tag the corpus, publish the register.", ("sop", "phase6", "release"),
     None),
]  # fmt: skip

CHECKLISTS = [  # (day, topic, steps): short checklists AdamOS keeps as procedures
    (5, "Morning startup", "open the task list, check today's calendar, pick one deep-work "
     "block"),
    (12, "Evening shutdown", "capture loose tasks, check tomorrow's first meeting, close the "
     "laptop by 22:00"),
    (19, "Before a contractor call", "have the quote, the snagging list and the budget sheet "
     "open"),
    (26, "Before a Phase 6 sync", "read last week's notes, run the tests, list blockers"),
    (33, "Before a long run", "charge the watch, fill the bottle, pick the route"),
    (40, "Monthly finance", "reconcile the accounts, pay open invoices, review subscriptions"),
    (47, "Before travel", "check tickets, download maps, set the out-of-office reply"),
    (54, "Guest visit", "clean the spare room, plan meals, share the wifi card"),
    (61, "Garden visit", "check the water butts, weed one bed, log what was sown"),
    (68, "Talk day", "laptop charged, adapter packed, recording copied to a USB stick"),
]  # fmt: skip


def procedural_items() -> Iterator[Item]:
    """SOPs, short checklists, two revisions of SOPs, and two corrections."""
    for day, hhmm, text, tags, key in SOPS:
        yield Item(*at(day, hhmm), "procedural", "user", text, tags, key=key)
    for day, topic, steps in CHECKLISTS:
        yield Item(
            *at(day, "21:15"),
            "procedural",
            "system",
            f"Checklist '{topic}': {steps}.",
            ("checklist", "routine"),
        )
    yield Item(
        *at(17, "20:10"),
        "procedural",
        "user",
        "Correction to the long run SOP: one gel per 40 minutes, not 45; the 45-minute gap "
        "left me flat in the last 3 km.",
        ("sop", "running", "long-run", "correction"),
        corrects="sop-long-run",
    )
    yield Item(
        *at(37, "21:30"),
        "procedural",
        "user",
        "Correction to the contractor payment SOP: keep 5 percent back, as the signed "
        "contract says, not 10 percent.",
        ("sop", "kitchen", "finance", "correction"),
        (("file", "projects/kitchen/contract-signed.pdf"),),
        corrects="sop-contractor-pay",
    )


# ------------------------------------------------------------------------------ semantic

PEOPLE = [  # fictional people: (name, role, preference or fact), day first mentioned
    (0, "Priya Raman", "Phase 6 spec owner", "prefers written questions in the issue tracker "
     "over chat"),
    (0, "Tomasz Nowak", "Phase 6 reviewer", "reviews on Tuesdays and Thursdays"),
    (0, "Maya Lindqvist", "kitchen contractor at Lindqvist Build", "sends quotes as PDF and "
     "confirms visits a day ahead"),
    (3, "Jonas Weber", "friend and meetup organiser", "gives feedback best over lunch"),
    (7, "Elif Kaya", "accountant", "needs documents at least two weeks before a deadline"),
    (15, "Ruth Okafor", "allotment committee chair", "runs the spring work day"),
    (24, "Dario Conti", "plumber", "books jobs one week ahead"),
    (49, "Hannah Berg", "electrician", "issues certificates by email within a week"),
]  # fmt: skip

FACTS: list[tuple[int, str, tuple[str, ...], str | None, tuple[str, ...]]] = [
    # (day, text, tags, key, derived_from keys)
    (0, "Adam prefers meetings after 10:00 and keeps mornings for deep work.",
     ("preference", "schedule"), "pref-mornings", ()),
    (0, "The quarter's priorities are the Phase 6 memory controller, the kitchen renovation "
     "and the spring half marathon.", ("planning", "priorities"), None, ("q1-priorities",)),
    (0, "AdamOS Phase 6 governs read-only memory retrieval: memory.read, deterministic "
     "scoring and token-budgeted context packages.", ("phase6", "glossary"), "fact-phase6",
     ("p6-kickoff",)),
    (1, "Canonical JSON in the kit means RFC 8785 (JCS).", ("phase6", "hashing",
     "glossary"), None, ("p6-jcs",)),
    (1, "The SPEC-006 contract version string is phase6-v1.", ("phase6", "glossary"), None,
     ()),
    (2, "SPEC-005 defines the append-only JSONL memory stores: episodic, procedural and "
     "semantic.", ("phase6", "spec", "stores"), None, ()),
    (2, "SPEC-005 records carry created_at_utc; SPEC-006 readers look at ts_utc, so the kit's "
     "writer stores both.", ("phase6", "spec", "stores"), None, ("p6-ts-question",)),
    (3, "The token estimator is ceil(utf8 bytes / 4).", ("phase6", "glossary", "budget"),
     None, ()),
    (4, "The kitchen budget is EUR 18,000 including a 10 percent contingency.", ("kitchen",
     "budget"), "kitchen-budget", ()),
    (8, "Selection stops at the first candidate that does not fit the token budget.",
     ("phase6", "budget", "glossary"), None, ("p6-stop-rule",)),
    (10, "The kitchen worktop is laminate, chosen to stay within budget.", ("kitchen",
     "decision"), None, ("kitchen-accept",)),
    (14, "Half marathon goal: under 2:00:00 on 23 March.", ("running", "goal"), "hm-goal",
     ()),
    (15, "The allotment plot is number 14, on the east side near the water tap.",
     ("garden", "location"), None, ("garden-meeting",)),
    (17, "The kitchen contract was signed on 23 January with a 30 percent deposit.",
     ("kitchen", "contract"), None, ("kitchen-signed",)),
    (22, "Trust snapshots use the format phase6-trust/1.", ("phase6", "trust", "glossary"),
     None, ()),
    (23, "The meetup talk is 25 minutes, in April, about conformance kits.", ("talk",
     "event"), None, ("talk-accepted",)),
    (29, "Home office expenses are claimed by floor area: 9 percent of the flat.", ("taxes",
     "rule"), None, ("tax-draft",)),
    (43, "The 2024 tax return was filed on 18 February.", ("taxes", "milestone"), None,
     ("tax-filed",)),
    (44, "phase6-v1 freezes at the end of March 2025.", ("phase6", "release"), None,
     ("p6-freeze-plan",)),
    (45, "Sofia's school play is on 14 March at 18:00.", ("family", "event"), None,
     ("school-play",)),
    (72, "phase6-v1 was frozen on 19 March 2025.", ("phase6", "release"), None,
     ("p6-frozen",)),
    (76, "Half marathon 2025 result: 1:57:40.", ("running", "race", "result"), "hm-result",
     ("half-marathon",)),
]  # fmt: skip

GLOSSARY = [  # Phase 6 vocabulary AdamOS keeps as semantic memory
    ("candidate", "a normalized record eligible for scoring"),
    ("ContextPackage", "the bounded, hashable output of memory.read"),
    ("record_hash", "SHA-256 of the canonical normalized record"),
    ("package_hash", "SHA-256 of the canonical package without package_hash"),
    ("query_hash", "SHA-256 of the normalized query"),
    ("invalid_record_schema", "the drop reason for lines that fail the record contract"),
    ("budget_exhausted", "the drop reason once the token budget is used up"),
    ("max_items_reached", "the drop reason once max_items are selected"),
    ("trust_denied", "the drop reason for explicitly deny-listed memories"),
    ("tie-breaking", "score, ts_utc, store_path, memory_id, record_hash"),
    ("recency weight", "0.5 to the power of age_days over the half-life"),
    ("tag overlap", "half a point per query term equal to a tag"),
    ("memory receipt", "a metadata-only ledger line for each store write"),
    ("interpretation register", "the list of pinned readings of ambiguous spec text"),
    ("vector", "one request with its store files and the expected result"),
    ("adapter", "the process that lets the harness call an implementation"),
    ("probe", "a behavioural check of a non-functional MUST"),
    ("erratum", "a place where the spec contradicts itself"),
]

HOME = [  # household facts and preferences
    (5, "The recycling centre is open Tuesday to Saturday, 09:00 to 17:00.", ("home",
     "errands")),
    (6, "Bins go out on Sunday evening; paper every second week.", ("home", "chores")),
    (9, "Adam's running shoe size is EU 44.", ("running", "preference")),
    (12, "The family calendar is the shared one named 'Home'.", ("family", "calendar")),
    (13, "Groceries are delivered on Mondays between 18:00 and 20:00.", ("home",
     "groceries")),
    (18, "The laptop backup drive is the grey 2 TB disk in the desk drawer.", ("home",
     "backup")),
    (20, "Adam does not drink coffee after 14:00.", ("preference", "health")),
    (25, "The choir meets on Wednesday evenings this term.", ("family", "schedule")),
    (27, "Preferred long-run route: the river loop, 8 km per lap.", ("running", "route")),
    (31, "Adam prefers written agendas sent a day before meetings.", ("preference",
     "meetings")),
    (34, "The kitchen colour is 'Sage 4' in eggshell finish.", ("kitchen", "design")),
    (39, "The spare room sleeps two.", ("home", "guests")),
    (46, "The herb tray needs water every three days.", ("home", "plants")),
    (48, "Sofia's swimming lessons are on Saturdays at 09:00.", ("family", "schedule")),
    (52, "Adam reads the school newsletter on Sunday evenings.", ("family", "routine")),
    (53, "The budget sheet lives in documents/finance/budget-2025.ods.", ("finance",
     "documents")),
    (55, "The childminder invoices fortnightly.", ("family", "finance")),
    (60, "Adam's meetup slides use the kit's report screenshots.", ("talk", "slides")),
    (62, "The drip line timer runs on two AA batteries.", ("garden", "equipment")),
    (65, "The cooker hood model is HX-60; its light unit is on back order.", ("kitchen",
     "appliances")),
]  # fmt: skip


def semantic_items() -> Iterator[Item]:
    """People, project facts, the Phase 6 glossary, household facts, and two corrections."""
    for index, (day, name, role, fact) in enumerate(PEOPLE):
        minute = at(day, "22:00")[1] + 2 * index  # one contact card every two minutes
        yield Item(day, minute, "semantic", "user", f"{name} is the {role}.",
                   ("people", "contact-role"))  # fmt: skip
        yield Item(day, minute + 1, "semantic", "user", f"{name} {fact}.",
                   ("people", "preference"))  # fmt: skip
    for day, text, tags, key, derived in FACTS:
        yield Item(*at(day, "22:30"), "semantic", "user", text, tags, key=key,
                   derived_from=derived)  # fmt: skip
    for index, (term, meaning) in enumerate(GLOSSARY):
        yield Item(
            *at(index * 4 + 1, "23:00"),
            "semantic",
            "system",
            f"Glossary: {term} means {meaning}.",
            ("phase6", "glossary"),
            (("file", "specs/seeds/SPEC-006.txt"),),
        )
    for day, text, tags in HOME:
        yield Item(*at(day, "21:45"), "semantic", "user", text, tags)
    yield Item(
        *at(11, "22:40"),
        "semantic",
        "user",
        "Correction: the kitchen budget is EUR 19,500 including the contingency; the "
        "electrics were missing from the first figure.",
        ("kitchen", "budget", "correction"),
        corrects="kitchen-budget",
    )
    yield Item(
        *at(77, "10:05"),
        "semantic",
        "system",
        "Correction: half marathon 2025 official chip time is 1:57:22.",
        ("running", "race", "result", "correction"),
        corrects="hm-result",
        derived_from=("half-marathon",),
    )


# ------------------------------------------------------------------------------ writing


def all_items() -> list[Item]:
    """Every write, in time order (ties keep the episodic, procedural, semantic order)."""
    items = [*episodic_items(), *procedural_items(), *semantic_items()]
    return sorted(items, key=lambda item: (item.day, item.minute))


def write_samples(root: Path) -> dict[str, int]:
    """Write the stores and the ledger under `root`; return records per store file."""
    (root / MEMORY).mkdir(parents=True, exist_ok=True)
    writer = StoreWriter(root, ledger=LEDGER)
    ids: dict[str, str] = {}
    counts = dict.fromkeys(STORES.values(), 0)
    for item in all_items():
        store = STORES[item.type]
        refs: list[dict[str, Any]] = [make_ref(kind, value) for kind, value in item.refs]
        refs.extend(make_ref("memory_id", ids[key]) for key in item.derived_from)
        fields: dict[str, Any] = {
            "type": item.type,
            "created_at_utc": stamp(item.day, item.minute),
            "source": item.source,
            "text": item.text,
            "tags": item.tags,
            "refs": refs,
        }
        if item.corrects is not None:
            receipt = writer.correct(store, ids[item.corrects], **fields)
        else:
            receipt = writer.append(store, **fields)
        if item.key is not None:
            ids[item.key] = receipt.memory_id
        counts[store] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    """Regenerate the samples, or with --check compare them with the committed files."""
    parser = argparse.ArgumentParser(description="Write or check the sample memory stores.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the files differ")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        counts = write_samples(Path(tmp))
        fresh = {name: (Path(tmp) / name).read_bytes() for name in FILES}
    if args.check:
        stale = [
            name
            for name in FILES
            if not (ROOT / name).is_file() or (ROOT / name).read_bytes() != fresh[name]
        ]
        for name in stale:
            print(f"{name}: differs from what tools/samples.py writes", file=sys.stderr)
        return 1 if stale else 0
    for name in FILES:
        target = ROOT / name
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".jsonl.tmp")
        partial.write_bytes(fresh[name])
        os.replace(partial, target)  # regenerated whole: these are generated artifacts
    for name, count in counts.items():
        print(f"{name}: {count} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
