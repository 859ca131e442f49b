"""What the rating models read from a game: who sat at the table, in which role, and who won.

A rated game is a contest between *factions*: the Law (Sheriff and Deputies), the Outlaws, and
each Renegade on their own (an 8-player table has two Renegade factions). In a 3-player game
every player is a faction (Deputy, Outlaw, Renegade). A faction wins or loses as a whole:
eliminated members of the winning faction share the win. The faction's kind is a ``Side`` of the
game service's neutral result (services/game/results/__init__.py), so the vocabulary is the rulebook's and
no engine is imported: a game of any type is rated from its ``GameResult``, a special role as
the base role it stands for. A side the model does not know makes the game unratable, with
that reason, rather than misread.

An Undead or Alive game with an outbreak (docs/rulings.md, UA4) is a two-faction game,
``survivors`` against ``zombies``, the Zombie Master in the zombies' faction: its factions come
from the seats' sides at the end, not from the roles dealt (``outbreak_factions``). Its table
carries those sides, so a model predicts that contest; per-role ratings skip it (``rates_roles``).

``Table`` is what is known before the game (enough to predict it: the seats and the ruleset,
whose side offsets apply); ``GameOutcome`` adds the result. Both check themselves against the
role table of the rules, so a model never has to guard against a malformed game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import NewType

import msgspec

from services.game.results import (
    BASE_RULESET,
    OUTBREAK_SIDES,
    ROLES_BY_PLAYER_COUNT,
    GameFinish,
    GameResult,
    GameType,
    MissingMember,
    Role,
    Side,
)

LeaguePlayerId = NewType("LeaguePlayerId", str)
"""A player's identity in the league, stable across games (a game's ``PlayerId`` is per seat)."""

_SIDE = {
    Role.SHERIFF: Side.LAW,
    Role.DEPUTY: Side.LAW,
    Role.OUTLAW: Side.OUTLAWS,
    Role.RENEGADE: Side.RENEGADE,
}
_THREE_PLAYER_SIDE = {Role.DEPUTY: Side.DEPUTY, Role.OUTLAW: Side.OUTLAW, Role.RENEGADE: Side.RENEGADE}


class InvalidOutcome(ValueError):
    """The table or result cannot have come from a game of BANG! The Dice Game."""


def side_of(role: Role, players: int) -> Side:
    """The side a role plays for at a table of ``players`` (3-player tables: one side per role)."""
    return (_THREE_PLAYER_SIDE if players == 3 else _SIDE)[role]


class Faction(msgspec.Struct, frozen=True, kw_only=True):
    """Players who win or lose together; ``seats`` index into the table's seats."""

    kind: Side
    seats: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.seats)


OUTBREAK_MODULE = "UA4"
"""The module whose games may have an outbreak (Undead or Alive?)."""


def outbreak_factions(sides: tuple[Side, ...]) -> tuple[Faction, ...]:
    """The factions of a game after an outbreak: the survivors, then the zombies with their
    Master (a fixed order, so predictions line up across models)."""
    survivors = tuple(i for i, side in enumerate(sides) if side == Side.SURVIVORS)
    zombies = tuple(i for i, side in enumerate(sides) if side in (Side.ZOMBIES, Side.ZOMBIE_MASTER))
    return (Faction(kind=Side.SURVIVORS, seats=survivors), Faction(kind=Side.ZOMBIES, seats=zombies))


def _is_outbreak(sides: tuple[Side | None, ...]) -> bool:
    return any(side in OUTBREAK_SIDES for side in sides)


def _check_outbreak(roles: tuple[Role, ...], sides: tuple[Side | None, ...], ruleset: str) -> None:
    """A game after an outbreak: UA4 in the ruleset, every seat on an outbreak side, survivors
    and zombies both seated, at most one Zombie Master and he a Renegade."""
    if OUTBREAK_MODULE not in ruleset.split()[1:]:
        raise InvalidOutcome(f"a game of {ruleset!r} has no outbreak: zombies need {OUTBREAK_MODULE}")
    for i, side in enumerate(sides):
        if side not in OUTBREAK_SIDES:
            shown = "no side" if side is None else side.value
            raise InvalidOutcome(f"after an outbreak seat {i + 1} plays for {shown}, not an outbreak side")
    masters = [i for i, side in enumerate(sides) if side == Side.ZOMBIE_MASTER]
    if len(masters) > 1:
        raise InvalidOutcome("an outbreak makes one Zombie Master, not several")
    if masters and roles[masters[0]] != Role.RENEGADE:
        raise InvalidOutcome(f"the Zombie Master is a Renegade, not a {roles[masters[0]]}")
    for faction in outbreak_factions(tuple(s for s in sides if s is not None)):
        if not faction.seats:
            raise InvalidOutcome(f"an outbreak leaves no {faction.kind} at the table")


class TableSeat(msgspec.Struct, frozen=True, kw_only=True):
    player: LeaguePlayerId
    role: Role
    """The base role dealt (a plain zombie keeps his, the Zombie Master is a Renegade)."""
    side: Side | None = None
    """Undead or Alive: the side at the end of a game with an outbreak (``survivors``,
    ``zombies``, ``zombie_master``), which makes the table a two-faction contest; None
    otherwise (the factions follow from the roles)."""


def _check_roles(players: tuple[LeaguePlayerId, ...], roles: tuple[Role, ...]) -> None:
    n = len(roles)
    if n not in ROLES_BY_PLAYER_COUNT:
        raise InvalidOutcome(f"a game has 3 to 8 players, not {n}")
    if Counter(roles) != Counter(ROLES_BY_PLAYER_COUNT[n]):
        raise InvalidOutcome(f"{n} players cannot take the roles {sorted(r.value for r in roles)}")
    if len(set(players)) != n:
        raise InvalidOutcome("a player sits at the table twice")


def factions_of(roles: tuple[Role, ...]) -> tuple[Faction, ...]:
    """The factions of a table whose seats take these roles, in a fixed order."""
    n = len(roles)
    grouped: dict[Side, list[int]] = {}
    singles: list[Faction] = []
    for i, role in enumerate(roles):
        kind = side_of(role, n)
        # every Renegade plays alone, and so does everyone at a 3-player table
        if kind == Side.RENEGADE or n == 3:
            singles.append(Faction(kind=kind, seats=(i,)))
        else:
            grouped.setdefault(kind, []).append(i)
    # a fixed order (Law, Outlaws, then singles by seat) so predictions line up across models
    ordered = [Faction(kind=k, seats=tuple(grouped[k])) for k in (Side.LAW, Side.OUTLAWS) if k in grouped]
    return tuple(ordered + singles)


def _check_ruleset(ruleset: str) -> None:
    if not ruleset.strip() or ruleset != " ".join(ruleset.split()):
        raise InvalidOutcome(f"a ruleset is its game type then its modules, one space apart, not {ruleset!r}")


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """Who plays which role, under which rules: everything a model may use to predict a game."""

    seats: tuple[TableSeat, ...]
    ruleset: str = BASE_RULESET
    """The rules in ``Ruleset.text`` form (``dice``, ``dice OS1 OS3``): side offsets are kept
    per ruleset, since each module set balances the sides its own way."""

    def __post_init__(self) -> None:
        _check_roles(tuple(s.player for s in self.seats), tuple(s.role for s in self.seats))
        _check_ruleset(self.ruleset)
        if self.outbreak:
            roles, sides = tuple(s.role for s in self.seats), tuple(s.side for s in self.seats)
            _check_outbreak(roles, sides, self.ruleset)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def outbreak(self) -> bool:
        """Undead or Alive: the game had an outbreak (its factions are survivors and zombies)."""
        return _is_outbreak(tuple(s.side for s in self.seats))

    def factions(self) -> tuple[Faction, ...]:
        if self.outbreak:
            return outbreak_factions(tuple(s.side for s in self.seats if s.side is not None))
        return factions_of(tuple(s.role for s in self.seats))


class SeatResult(msgspec.Struct, frozen=True, kw_only=True):
    player: LeaguePlayerId
    role: Role
    side: Side
    won: bool


class GameOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game as the ratings see it. ``game_id`` names it in rating histories."""

    game_id: str
    seats: tuple[SeatResult, ...]
    ruleset: str = BASE_RULESET
    """The rules the game was played with (``Table.ruleset``)."""

    def __post_init__(self) -> None:
        n = len(self.seats)
        roles = tuple(s.role for s in self.seats)
        _check_roles(tuple(s.player for s in self.seats), roles)
        _check_ruleset(self.ruleset)
        if self.outbreak:
            _check_outbreak(roles, tuple(s.side for s in self.seats), self.ruleset)
            if not any(s.won for s in self.seats):
                raise InvalidOutcome("after an outbreak one side always wins (all dead at once: the zombies)")
        else:
            for s in self.seats:
                if s.side != side_of(s.role, n):
                    raise InvalidOutcome(f"a {s.role} plays for {side_of(s.role, n)}, not {s.side}")
        winners = 0
        for faction in self.factions():
            won = {self.seats[i].won for i in faction.seats}
            if len(won) > 1:
                raise InvalidOutcome(f"the {faction.kind} faction both won and lost")
            winners += won == {True}
        if winners > 1:
            raise InvalidOutcome("more than one faction won")

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def outbreak(self) -> bool:
        """Undead or Alive: the game had an outbreak (its factions are survivors and zombies)."""
        return _is_outbreak(tuple(s.side for s in self.seats))

    @property
    def rates_roles(self) -> bool:
        """Whether the game updates per-role ratings: not after an outbreak, where a zombie's
        dealt role no longer says what he played for (docs/rulings.md, UA4)."""
        return not self.outbreak

    @property
    def table(self) -> Table:
        outbreak = self.outbreak
        return Table(
            seats=tuple(
                TableSeat(player=s.player, role=s.role, side=s.side if outbreak else None) for s in self.seats
            ),
            ruleset=self.ruleset,
        )

    def factions(self) -> tuple[Faction, ...]:
        if self.outbreak:
            return outbreak_factions(tuple(s.side for s in self.seats))
        return factions_of(tuple(s.role for s in self.seats))

    @property
    def winner(self) -> int | None:
        """Index of the winning faction in ``factions()``; None when nobody won (3 players
        eliminated at once)."""
        for i, faction in enumerate(self.factions()):
            if self.seats[faction.seats[0]].won:
                return i
        return None


def from_result(result: GameResult) -> GameOutcome:
    """The rated view of a finished game; each seat's member id is its league player.

    Raises ``InvalidOutcome`` if a seat plays for a side the ratings do not know, or the result
    is inconsistent. After an outbreak the sides are ``survivors``, ``zombies`` and
    ``zombie_master`` (rated as the survivors' and the zombies' factions).
    """
    seats = []
    for s in result.seats:
        try:
            side = Side(s.side)
        except ValueError:
            raise InvalidOutcome(f"seat {s.seat} plays for {s.side!r}, a side not rated") from None
        player = LeaguePlayerId(s.member_id)
        # the base role, never the special role card: per-role ratings are the four base roles
        seats.append(SeatResult(player=player, role=Role(s.base_role), side=side, won=s.won))
    outcome = GameOutcome(game_id=result.game_id, seats=tuple(seats), ruleset=result.ruleset)
    winner = outcome.winner
    won_side = None if winner is None else outcome.factions()[winner].kind
    if won_side != result.winning_side:
        raise InvalidOutcome(f"the result names {result.winning_side} but {won_side} won")
    return outcome


def from_finish(
    finish: GameFinish,
    players: Mapping[str, LeaguePlayerId],
    game_id: str,
    *,
    game_type: str = GameType.DICE,
    ruleset: str = BASE_RULESET,
) -> GameOutcome:
    """The rated view of a game's end; ``players`` maps each seat id to a league player.

    Raises ``InvalidOutcome`` if a seat has no league player or the result is inconsistent.
    """
    try:
        result = finish.result(game_id, players, game_type=game_type, ruleset=ruleset)
    except MissingMember as missing:
        raise InvalidOutcome(f"seat {missing.seat} has no league player") from None
    return from_result(result)
