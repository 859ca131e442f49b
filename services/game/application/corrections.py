"""Taking back an entry at a table: a correction is an event, never an edit of history.

A table game's scorekeeper enters the real dice and every decision, one command at a time; each
command's events are one **entry**. A mistaken entry is taken back with the command ``TakeBack``
(text form ``takeback``): the service appends ``EntryTakenBack`` naming the entry's version range
and its text, and the game becomes the fold of the entries not taken back, exactly as if the
mistaken one had never been entered. The stream keeps both; nothing is rewritten.

The limits are a referee's ruling (docs/rulings.md, "Taking back an entry at a table"):

- only at a table (online, the dice come from the seed and a decision stands once sent), only by
  whoever may enter (the creator, the game's scheduled scorekeeper);
- newest first: the latest entry not taken back, again and again;
- only while the next turn has not started: entries of the turn in progress, and the entry that
  ended the previous turn while nothing has been entered in the new one. Once anything was
  entered in a turn, the turns before it are closed, even if that entry is taken back later (the
  dice of the earlier turn have left the table, nobody can check a correction of them);
- never after the game has ended: its result has been consumed by the league, a referee voids it.

Everything here is pure: ``Entries`` is part of a session's fold, ``take_back_event`` decides on
a session, and the engine is asked only for its pure fold, turn count and the entry's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import msgspec

from services.game.application.errors import GameServiceError
from services.game.application.lifecycle import EntryTakenBack, GameMode
from services.game.engines import GameEngine, PlayedGame

if TYPE_CHECKING:
    from services.game.application.session import GameSession

TAKEBACK = "takeback"
"""The command's text form, as a client may post it (``{"command": "takeback"}``)."""

NOTHING_IN_THIS_TURN = "nothing to take back in this turn"
GAME_OVER = "the game is over: a referee voids it instead"


class TakeBack(msgspec.Struct, frozen=True, kw_only=True):
    """Take back the latest entry not yet taken back (``{"type": "TakeBack"}``)."""

    def __str__(self) -> str:
        return TAKEBACK


class TakeBackRefused(GameServiceError):
    """A take-back the ruling does not allow (422 ``illegal-command``); the message says why in a
    referee's words."""


def parse_take_back(command: object, malformed: type[Exception] = ValueError) -> TakeBack | None:
    """``command`` as a request carries it (its text form, or an object with ``type``), when it
    is a take-back; None for any other command. An object may have no field besides ``type``
    (``malformed`` is raised naming the others)."""
    if isinstance(command, str):
        return TakeBack() if command.strip().lower() == TAKEBACK else None
    if isinstance(command, dict) and command.get("type") == "TakeBack":
        unknown = sorted(set(command) - {"type"})
        if unknown:
            raise malformed(f"unknown field(s) in `command` (TakeBack): {', '.join(unknown)}")
        return TakeBack()
    return None


@dataclass(slots=True)
class Entry:
    """The events one command appended after the game's start."""

    command_id: str | None
    first_version: int
    last_version: int
    turn_before: int
    """The engine's turn count when the entry was made (``GameEngine.turn_number``)."""
    events: list[Any] = field(default_factory=list)
    """The engine's events of the entry (a timeout's ``DecisionTimedOut`` is in its range only)."""
    taken_back: bool = False


@dataclass(slots=True)
class Entries:
    """A game's entries, as its session folds them: what may be taken back, and the fold without
    what was."""

    opening: list[Any] = field(default_factory=list)
    """The engine's events of the command that started the game (never an entry)."""
    opening_command: str | None = None
    items: list[Entry] = field(default_factory=list)
    sealed: int = 0
    """The latest turn anything was entered in (taken back or not): turns before it are closed."""
    taken_back: int = 0

    def note(self, event: Any, version: int, first_version: int, command_id: str | None, turn: int) -> None:
        """One more engine event, stored at ``version`` by ``command_id`` (whose first event is
        at ``first_version``); ``turn``: the engine's turn count before it."""
        if not self.opening or (command_id is not None and command_id == self.opening_command):
            if not self.opening:
                self.opening_command = command_id
            self.opening.append(event)
            return
        last = self.items[-1] if self.items else None
        if last is None or command_id is None or last.command_id != command_id or last.taken_back:
            last = Entry(command_id, first_version, version, turn)
            self.items.append(last)
            self.sealed = max(self.sealed, turn)
        last.last_version = version
        last.events.append(event)

    def copy(self) -> Entries:
        """A copy sharing nothing that noting more events changes (a snapshot's): ``note``
        changes only the latest entry, which is copied, and ``take_back`` replaces the entry it
        takes back; the others are shared."""
        items = list(self.items)
        if items:
            items[-1] = replace(items[-1], events=list(items[-1].events))
        return Entries(list(self.opening), self.opening_command, items, self.sealed, self.taken_back)

    def latest(self) -> Entry | None:
        """The latest entry not taken back."""
        for entry in reversed(self.items):
            if not entry.taken_back:
                return entry
        return None

    def take_back(self, event: EntryTakenBack) -> bool:
        """Mark the entry ``event`` names as taken back; False when it names no entry standing
        (a stream written by something else: the audit names it, the fold ignores it)."""
        for i in range(len(self.items) - 1, -1, -1):
            entry = self.items[i]
            if entry.first_version == event.from_version and entry.last_version == event.to_version:
                if entry.taken_back:
                    return False
                self.items[i] = replace(entry, taken_back=True)  # replaced: a copy may share it
                self.taken_back += 1
                return True
        return False

    def kept(self) -> list[Any]:
        """The engine's events of the game as it stands: the opening and every entry not taken back."""
        return [*self.opening, *(e for entry in self.items if not entry.taken_back for e in entry.events)]

    def refold(self, engine: GameEngine) -> tuple[PlayedGame, int]:
        """The engine's fold of the events that stand, and the random values they used."""
        kept = self.kept()
        return engine.replay(kept), sum(engine.random_used(e) for e in kept)


def refusal(session: GameSession) -> tuple[Entry | None, str | None]:
    """(the entry a take-back would take back, None) or (None, why not) — by the ruling, for
    whoever may enter."""
    if session.mode is not GameMode.TABLE:
        return None, (
            "an online game's entries cannot be taken back: its dice come from the seed and a "
            "decision stands once it is sent"
        )
    if session.abandoned:
        return None, "the game was abandoned: it has nothing to take back"
    if session.game is not None and session.game.is_over:
        return None, GAME_OVER
    entries = session.entries
    entry = entries.latest()
    if entry is None:
        return None, f"{NOTHING_IN_THIS_TURN}: nothing has been entered since the game started"
    if entry.turn_before < entries.sealed:
        return None, (
            f"{NOTHING_IN_THIS_TURN}: turn {entries.sealed} has started, and the entries before it stand"
        )
    return entry, None


def take_back_event(session: GameSession) -> EntryTakenBack:
    """The event that takes back ``session``'s latest entry (the caller is one who may enter:
    the service checks). Raises ``TakeBackRefused`` in the ruling's words."""
    entry, why = refusal(session)
    if entry is None:
        raise TakeBackRefused(why or NOTHING_IN_THIS_TURN)
    return EntryTakenBack(
        from_version=entry.first_version, to_version=entry.last_version, command=text_of(session, entry)
    )


def text_of(session: GameSession, entry: Entry) -> str:
    return session.engine.entry_text(entry.events) or f"events {entry.first_version}-{entry.last_version}"


def take_back_offer(session: GameSession) -> dict[str, Any] | None:
    """``take_back`` in the state answered to whoever may enter: the entry a take-back would take
    back now (``{"command": "p2 reroll 0 2", "from_version": 17}``), None when none may be."""
    entry, _ = refusal(session)
    if entry is None:
        return None
    return {"command": text_of(session, entry), "from_version": entry.first_version}
