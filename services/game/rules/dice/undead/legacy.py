"""UA5, legacy: a series of games with the same players (RULINGS-expansions §4 UA5, §7, §8).

Between two games of a series, the finished game and what was decided and drawn since give the
next game's setup. Pure: no I/O, no randomness. Every random choice is asked for as a *draw*
(what it is among, in a fixed order) and entered as data: online from the series seed
(``services/game/fairness/legacy.py``), at a table by the scorekeeper; an audit enters the same
entries again and must reach the same setup.

The questions, in order (``LegacyPlan.asked``):

1. The next Sheriff. The Sheriff is the holder of the Sheriff role at the end (Le Bien
   included). Alive at the end: he decides ``next_sheriff {player}`` (himself, or another player
   who then gets +1 starting and max life, ``Seat.legacy_bonus``, on top of the Sheriff's +2).
   Eliminated: the source of his eliminating loss (``PlayerResult.eliminated_by``) is the next
   Sheriff; with no player source the Sheriff is drawn (``sheriff``) among the other players.
2. ``keep_character {bool}`` of each survivor, in seat order from the new Sheriff.
3. ``choose_character {name}`` of each eliminated player, in order of elimination (the first
   ``PlayerEliminated`` of each; without the events, by turn and then seat order from the new
   Sheriff), among the pool's characters not used in the finished game nor chosen before.
4. A ``character`` draw for each survivor who redraws, in seat order from the new Sheriff,
   among what is left (the pool less every character of the finished game and those chosen).
5. The ``roles`` draw: the role table less one Sheriff, dealt over the other seats in seat
   order from the new Sheriff (one draw: the roles in that order).

The pool is the next game's rules' (§1 pool rules: ``Rules.characters`` has already left out
the characters whose module is absent). Seats keep their order and ids (ruling: the table keeps
its seats, so ``p1`` is the same member in every game of a series).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

import msgspec

from services.game.rules.dice import events as ev
from services.game.rules.dice.errors import InvalidSetup, RuleError
from services.game.rules.dice.modules import Rules, RulesModule
from services.game.rules.dice.setup import roles_for
from services.game.rules.dice.state import GameState
from services.game.rules.dice.vocabulary import CharacterId, PlayerId, Role
from services.game.rules.ruleset import ModuleId

LEGACY_BONUS = 1
"""The designated Sheriff's extra starting and max life (on top of the Sheriff's +2)."""
MIN_PLAYERS, MAX_PLAYERS = 4, 8


class LegacyError(RuleError):
    """An entry between two games of a series that the rules refuse; the message says why."""


class Ask(StrEnum):
    NEXT_SHERIFF = "next_sheriff"
    KEEP_CHARACTER = "keep_character"
    CHOOSE_CHARACTER = "choose_character"
    SHERIFF_DRAW = "sheriff"
    CHARACTER_DRAW = "character"
    ROLES_DRAW = "roles"


DECISIONS = frozenset({Ask.NEXT_SHERIFF, Ask.KEEP_CHARACTER, Ask.CHOOSE_CHARACTER})
"""Asked of a player; the others are draws."""


# --- entries: what was decided or drawn between two games ----------------------------------------


class Entry(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag=True):
    player: PlayerId
    """Who decided, or whom the draw is for (``roles``: the new Sheriff)."""


class NextSheriff(Entry, frozen=True, kw_only=True, tag="next_sheriff"):
    sheriff: PlayerId


class KeepCharacter(Entry, frozen=True, kw_only=True, tag="keep_character"):
    keep: bool


class ChooseCharacter(Entry, frozen=True, kw_only=True, tag="choose_character"):
    character: CharacterId


class SheriffDrawn(Entry, frozen=True, kw_only=True, tag="sheriff"):
    """``player`` was drawn as the next Sheriff."""


class CharacterDrawn(Entry, frozen=True, kw_only=True, tag="character"):
    character: CharacterId


class RolesDrawn(Entry, frozen=True, kw_only=True, tag="roles"):
    roles: tuple[Role, ...]
    """The roles of the seats other than the new Sheriff's, in seat order from him."""


LegacyEntry = NextSheriff | KeepCharacter | ChooseCharacter | SheriffDrawn | CharacterDrawn | RolesDrawn
ENTRY_KIND: Mapping[type[Entry], Ask] = {
    NextSheriff: Ask.NEXT_SHERIFF,
    KeepCharacter: Ask.KEEP_CHARACTER,
    ChooseCharacter: Ask.CHOOSE_CHARACTER,
    SheriffDrawn: Ask.SHERIFF_DRAW,
    CharacterDrawn: Ask.CHARACTER_DRAW,
    RolesDrawn: Ask.ROLES_DRAW,
}


def entry_text(entry: LegacyEntry) -> str:
    """The compact form: ``p2 next_sheriff p4``, ``p1 keep_character no``, ``roles p3: ...``."""
    match entry:
        case NextSheriff():
            return f"{entry.player} next_sheriff {entry.sheriff}"
        case KeepCharacter():
            return f"{entry.player} keep_character {'yes' if entry.keep else 'no'}"
        case ChooseCharacter():
            return f"{entry.player} choose_character {entry.character}"
        case SheriffDrawn():
            return f"sheriff drawn {entry.player}"
        case CharacterDrawn():
            return f"{entry.player} draws {entry.character}"
        case RolesDrawn():
            return f"roles from {entry.player}: {' '.join(entry.roles)}"


# --- the finished game ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """What the legacy reads of a finished game."""

    started: ev.GameStarted
    ended: ev.GameEnded
    eliminated_order: tuple[PlayerId, ...] | None = None
    """The first elimination of each eliminated player, in order, when the events are known."""

    @classmethod
    def from_events(cls, events: Iterable[ev.Event]) -> FinishedGame:
        started: ev.GameStarted | None = None
        ended: ev.GameEnded | None = None
        order: list[PlayerId] = []
        for e in events:
            if isinstance(e, ev.GameStarted):
                started = e
            elif isinstance(e, ev.PlayerEliminated) and e.player not in order:
                order.append(e.player)
            elif isinstance(e, ev.GameEnded):
                ended = e
        if started is None:
            raise LegacyError("the finished game has no GameStarted")
        if ended is None:
            raise LegacyError("the game is not finished: a series goes on only after its GameEnded")
        return cls(started, ended, tuple(order))

    @property
    def seats(self) -> tuple[PlayerId, ...]:
        return tuple(s.player for s in self.started.seats)

    def sheriff_result(self) -> ev.PlayerResult:
        """The holder of the Sheriff role at the end (Le Bien's swap included)."""
        sheriffs = [r for r in self.ended.results if r.role is Role.SHERIFF]
        if len(sheriffs) != 1:
            raise LegacyError("a legacy series needs a Sheriff: the finished game ended with none")
        return sheriffs[0]


# --- the plan: the questions in order, and the setup they give --------------------------------------


@dataclass(frozen=True, slots=True)
class Question:
    ask: Ask
    player: PlayerId
    """Who decides, or whom the draw is for (``roles``: the new Sheriff)."""
    among: tuple[str, ...]
    """The options, in the order a draw counts them (sorted ids; ``keep_character``: no, yes;
    ``roles``: the role names of the multiset to deal, in ``roles_for`` order)."""

    @property
    def is_draw(self) -> bool:
        return self.ask not in DECISIONS

    @property
    def text(self) -> str:
        if self.is_draw:
            return f"draw {self.ask.value} for {self.player}"
        return f"{self.player} {self.ask.value}"


@dataclass(frozen=True, slots=True)
class NextSetup:
    """The next game of the series, ready to start."""

    seats: tuple[ev.Seat, ...]
    sheriff: PlayerId
    legacy_bonus: int
    """+1 when a surviving Sheriff designated another player, else 0 (on the Sheriff's seat)."""


@dataclass(slots=True)
class _Progress:
    sheriff: PlayerId | None = None
    bonus: int = 0
    keeps: dict[PlayerId, bool] | None = None
    characters: dict[PlayerId, CharacterId] | None = None
    roles: tuple[Role, ...] | None = None


class LegacyPlan:
    """The way from a finished game to the next one, as the entries so far have taken it.

    ``asked`` is the next question (None once the setup is complete); ``enter`` checks an entry
    against it and returns the plan one entry further; ``setup`` is the result."""

    def __init__(self, finished: FinishedGame, rules: Rules, entries: Sequence[LegacyEntry] = ()) -> None:
        n = len(finished.started.seats)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidSetup(f"a legacy series is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        self.finished = finished
        self.rules = rules
        self.entries: tuple[LegacyEntry, ...] = ()
        self._sheriff_result = finished.sheriff_result()
        self._results = {r.player: r for r in finished.ended.results}
        missing = [p for p in finished.seats if p not in self._results]
        if missing:
            raise LegacyError(f"the finished game's result lacks {', '.join(missing)}")
        self._p = _Progress()
        killer = self._sheriff_result.eliminated_by
        dead = not self._sheriff_result.alive
        if dead and killer is not None and killer != self.old_sheriff and killer in self._results:
            self._p.sheriff = killer
        for entry in entries:
            self._enter(entry)

    # -- reading ----------------------------------------------------------------------------------

    @property
    def old_sheriff(self) -> PlayerId:
        return self._sheriff_result.player

    @property
    def sheriff(self) -> PlayerId | None:
        return self._p.sheriff

    def survivors(self) -> list[PlayerId]:
        assert self._p.sheriff is not None
        return [p for p in self.from_sheriff() if self._results[p].alive]

    def eliminated(self) -> list[PlayerId]:
        """Eliminated players in order of elimination."""
        dead = {p for p in self.finished.seats if not self._results[p].alive}
        order = self.finished.eliminated_order
        if order is not None and set(order) >= dead:
            return [p for p in order if p in dead]
        rank = {p: i for i, p in enumerate(self.from_sheriff())}
        return sorted(dead, key=lambda p: (self._results[p].eliminated_turn or 0, rank[p]))

    def used(self) -> set[CharacterId]:
        """The characters of the finished game (as dealt; UA4 returns none to the pool)."""
        return {s.character for s in self.finished.started.seats} | {
            r.character for r in self.finished.ended.results
        }

    def pool(self) -> list[CharacterId]:
        """The next game's character pool (§1 pool rules), sorted by id."""
        return sorted(self.rules.characters)

    def from_sheriff(self) -> list[PlayerId]:
        seats = list(self.finished.seats)
        assert self._p.sheriff is not None
        i = seats.index(self._p.sheriff)
        return seats[i:] + seats[:i]

    @property
    def asked(self) -> Question | None:
        p = self._p
        if p.sheriff is None:
            if self._sheriff_result.alive:
                return Question(Ask.NEXT_SHERIFF, self.old_sheriff, tuple(sorted(self.finished.seats)))
            others = tuple(sorted(x for x in self.finished.seats if x != self.old_sheriff))
            return Question(Ask.SHERIFF_DRAW, self.old_sheriff, others)
        keeps = p.keeps or {}
        for survivor in self.survivors():
            if survivor not in keeps:
                return Question(Ask.KEEP_CHARACTER, survivor, ("no", "yes"))
        chosen = p.characters or {}
        for dead in self.eliminated():
            if dead not in chosen:
                return Question(Ask.CHOOSE_CHARACTER, dead, self._free(chosen))
        for survivor in self.survivors():
            if not keeps[survivor] and survivor not in chosen:
                return Question(Ask.CHARACTER_DRAW, survivor, self._free(chosen))
        if p.roles is None:
            table = list(roles_for(len(self.finished.seats)))
            table.remove(Role.SHERIFF)
            return Question(Ask.ROLES_DRAW, p.sheriff, tuple(r.value for r in table))
        return None

    def _free(self, chosen: Mapping[PlayerId, CharacterId]) -> tuple[str, ...]:
        taken = self.used() | set(chosen.values())
        free = tuple(c.value for c in self.pool() if c not in taken)
        if not free:
            raise LegacyError("no character is left in the pool for the next game")
        return free

    @property
    def setup(self) -> NextSetup | None:
        """The next game's seats once every question is answered, else None."""
        if self.asked is not None:
            return None
        p = self._p
        assert p.sheriff is not None and p.roles is not None  # no keeps when nobody survived
        chosen = p.characters or {}
        roles = dict(zip([x for x in self.from_sheriff() if x != p.sheriff], p.roles, strict=True))
        roles[p.sheriff] = Role.SHERIFF
        seats = []
        for seat in self.finished.started.seats:
            player = seat.player
            character = chosen.get(player, self._results[player].character)
            bonus = p.bonus if player == p.sheriff else 0
            seats.append(ev.Seat(player=player, role=roles[player], character=character, legacy_bonus=bonus))
        return NextSetup(tuple(seats), p.sheriff, p.bonus)

    # -- entering ---------------------------------------------------------------------------------

    def enter(self, entry: LegacyEntry) -> LegacyPlan:
        """A new plan with ``entry`` entered; ``LegacyError`` (nothing entered) if the rules refuse it."""
        plan = LegacyPlan(self.finished, self.rules, self.entries)
        plan._enter(entry)
        return plan

    def _enter(self, entry: LegacyEntry) -> None:
        q = self.asked
        kind = ENTRY_KIND[type(entry)]
        if q is None:
            raise LegacyError(f"the next game's setup is complete: {entry_text(entry)} is not asked")
        if kind is not q.ask:
            raise LegacyError(f"{q.text} is asked now, not {kind.value}")
        if q.ask is not Ask.SHERIFF_DRAW and entry.player != q.player:
            verb = "enter" if q.is_draw else "decide"
            raise LegacyError(f"{q.ask.value} is {q.player}'s to {verb}, not {entry.player}'s")
        p = self._p
        match entry:
            case NextSheriff():
                if entry.sheriff not in q.among:
                    raise LegacyError(f"{entry.sheriff} is not a player of the series")
                p.sheriff = entry.sheriff
                p.bonus = 0 if entry.sheriff == entry.player else LEGACY_BONUS
            case SheriffDrawn():
                if entry.player not in q.among:
                    raise LegacyError(f"the Sheriff is drawn among {', '.join(q.among)}, not {entry.player}")
                p.sheriff = entry.player
            case KeepCharacter():
                p.keeps = {**(p.keeps or {}), entry.player: entry.keep}
            case ChooseCharacter() | CharacterDrawn():
                if entry.character not in q.among:
                    why = (
                        "was used in the finished game"
                        if entry.character in self.used()
                        else (
                            "is already taken"
                            if entry.character in (p.characters or {}).values()
                            else "is not in this series' character pool"
                        )
                    )
                    raise LegacyError(f"{entry.player} cannot have {entry.character}: it {why}")
                p.characters = {**(p.characters or {}), entry.player: entry.character}
            case RolesDrawn():
                if Counter(r.value for r in entry.roles) != Counter(q.among):
                    raise LegacyError(
                        f"the other seats take exactly these roles: {', '.join(q.among)} "
                        f"(in seat order from {q.player})"
                    )
                p.roles = tuple(entry.roles)
        self.entries = (*self.entries, entry)


# --- the engine module: the designated Sheriff's bonus -----------------------------------------------


def check_seats(seats: Sequence[ev.Seat]) -> None:
    for seat in seats:
        if seat.legacy_bonus not in (0, LEGACY_BONUS):
            raise InvalidSetup(
                f"{seat.player}: the legacy bonus is {LEGACY_BONUS} life, not {seat.legacy_bonus}"
            )
        if seat.legacy_bonus and seat.role is not Role.SHERIFF:
            raise InvalidSetup(f"{seat.player}: only the designated Sheriff gets the legacy bonus")


def on_start(s: GameState, started: ev.GameStarted) -> None:
    """+1 starting and max life for a designated Sheriff (on top of the +2, or L'Ours' +3)."""
    position = started.position
    for seat in started.seats:
        if seat.legacy_bonus:
            p = s.by_id[seat.player]
            p.max_life += seat.legacy_bonus
            if position is None or all(pp.player != p.id for pp in position.players):
                p.life += seat.legacy_bonus


UA5 = RulesModule(id=ModuleId.UA5, check_seats=check_seats, on_start=on_start)
