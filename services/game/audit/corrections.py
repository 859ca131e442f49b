"""Entries taken back at a table (``EntryTakenBack``), as an audit reads them.

A taken-back entry is legal history, not a divergence: the stream keeps it, and the game is the
fold of the entries that stand (``services/game/application/corrections.py``). The audit checks
each take-back as the ruling allows it (docs/rulings.md, "Taking back an entry at a table"):

- it is a table game's;
- it names exactly one command's events (their ``command_id``), the latest entry still standing;
- that entry was legal when entered (the stream as it stood then replays clean);
- it does not reach back across a started turn: no entry was ever entered in a later turn.

A take-back after the game's end is an event after the end: the result check names it. The rules
replay then runs on the entries that stand; the report says "entry N taken back".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from services.game.application.lifecycle import EntryTakenBack
from services.game.engines import engine_for
from services.game.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from services.game.audit.stream import StoredEvent


@dataclass(frozen=True, slots=True)
class Correction:
    stored: StoredEvent
    """The ``EntryTakenBack``."""
    taken: tuple[StoredEvent, ...]
    """The engine events it took back."""
    standing: tuple[StoredEvent, ...]
    """The engine events that stood just before it (the taken entry last)."""
    problem: str | None = None
    """Why this take-back is not one the ruling allows (then nothing was taken back)."""

    @property
    def event(self) -> EntryTakenBack:
        assert isinstance(self.stored.event, EntryTakenBack)
        return self.stored.event

    def words(self) -> str:
        """``event 21: entry 18 taken back (p2 target 0 p3)``."""
        event = self.event
        return f"event {self.stored.number}: entry {event.from_version} taken back ({event.command})"


def take_back(
    engine: list[StoredEvent], stored: StoredEvent, events: Sequence[StoredEvent], table: bool
) -> tuple[list[StoredEvent], Correction]:
    """The engine events that stand after ``stored`` (an ``EntryTakenBack``), and what it did.

    ``engine``: the engine events standing before it; ``events``: the whole stream (the entry's
    range is read there, lifecycle facts and command ids included)."""
    event = stored.event
    assert isinstance(event, EntryTakenBack)
    first, last = event.from_version, event.to_version
    taken = [e for e in engine if first <= e.number <= last]
    standing = tuple(engine)

    def refused(why: str) -> tuple[list[StoredEvent], Correction]:
        return engine, Correction(stored, (), standing, f"event {stored.number}: {why}")

    if not table:
        return refused("an online game's entries cannot be taken back")
    if not first <= last < stored.number:
        return refused(f"it takes back events {first} to {last}, which do not come before it")
    if not taken or engine.index(taken[0]) == 0:
        return refused(f"it takes back events {first} to {last}, which hold no entry that stands")
    if any(e.number > last for e in engine):
        return refused(f"it takes back events {first} to {last}, but a later entry stands")
    in_range = [e for e in events if first <= e.number <= last]
    commands = {e.command_id for e in in_range}
    before = next((e for e in reversed(events) if e.number < first), None)
    after = next((e for e in events if e.number > last), None)
    one_entry = (
        len(commands) == 1
        and None not in commands
        and len(in_range) == last - first + 1
        and (before is None or before.command_id not in commands)
        and (after is None or after.command_id not in commands)
    )
    if not one_entry:
        return refused(f"events {first} to {last} are not the events of one entry")
    kept = [e for e in engine if not first <= e.number <= last]
    return kept, Correction(stored, tuple(taken), standing)


def check_corrections(corrections: Sequence[Correction], ruleset: Ruleset) -> str | None:
    """The first take-back the ruling does not allow, in a referee's words; None when every one
    took back a legal entry of the turn in progress."""
    from services.game.audit.replay import replay_events  # the replay reads this package's stream

    turns: list[int] = []
    """The turn each entry taken back so far was entered in: no later take-back reaches before."""
    for correction in corrections:
        if correction.problem is not None:
            return correction.problem
        entered = replay_events(correction.standing, ruleset)
        if entered.divergence is not None:
            return f"{entered.divergence} (in the entry taken back by event {correction.stored.number})"
        taken = {e.number for e in correction.taken}
        before = replay_events([e for e in correction.standing if e.number not in taken], ruleset)
        if before.game is None:
            return f"event {correction.stored.number}: the game's start cannot be taken back"
        turn = engine_for(ruleset).turn_number(before.game)
        if turns and max(turns) > turn:
            return (
                f"event {correction.stored.number}: it takes back an entry of turn {turn} after turn "
                f"{max(turns)} had started"
            )
        turns.append(turn)
    return None


SHOWN = 5
"""Take-backs a report names one by one; more are counted."""


def taken_back_words(corrections: Sequence[Correction]) -> str:
    """What a clean report adds: ``; event 21: entry 18 taken back (p2 target 0 p3)``."""
    if not corrections:
        return ""
    named = "; ".join(c.words() for c in corrections[:SHOWN])
    more = len(corrections) - SHOWN
    return f"; {named}" + (f"; and {more} more entries taken back" if more > 0 else "")
