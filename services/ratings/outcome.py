"""What the rating models read from a game: who sat at the table, in which role, and who won.

A rated game is a contest between *factions*: the Law (Sheriff and Deputies), the Outlaws, and
each Renegade on their own (an 8-player table has two Renegade factions). In a 3-player game
every player is a faction (Deputy, Outlaw, Renegade). A faction wins or loses as a whole:
eliminated members of the winning faction share the win. The faction's kind is a ``Side`` of the
game service's neutral result (services/game/results/__init__.py), so the vocabulary is the rulebook's and
no engine is imported: a game of any type is rated from its ``GameResult``, a special role as
the base role it stands for. A side the model does not know (Undead or Alive's zombies) makes
the game unratable, with that reason, rather than misread.

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


class TableSeat(msgspec.Struct, frozen=True, kw_only=True):
    player: LeaguePlayerId
    role: Role


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

    @property
    def players(self) -> int:
        return len(self.seats)

    def factions(self) -> tuple[Faction, ...]:
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
        _check_roles(tuple(s.player for s in self.seats), tuple(s.role for s in self.seats))
        _check_ruleset(self.ruleset)
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
    def table(self) -> Table:
        return Table(
            seats=tuple(TableSeat(player=s.player, role=s.role) for s in self.seats), ruleset=self.ruleset
        )

    def factions(self) -> tuple[Faction, ...]:
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
    is inconsistent.
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
