"""A finished game's result in words every game type shares: seats, roles, sides, winners.

League standings and ratings read games through this package (and its ``decoder.py``) only, so
a new engine (the dice expansions, the card game) plugs in by teaching the decoder its end
event; nothing here, and nothing in league or ratings, imports an engine.

The vocabulary is the BANG! family's, not one engine's:

* ``Role`` — the four *base* roles. Every role card of every game type counts as one of them
  for per-role ratings and the league's Renegade and Sheriff counts (Old Saloon's Le Bien is a
  Deputy, its L'Ours the Sheriff). The role as the engine names it stays a plain string.
* ``Side`` — who wins together. A seat's side is a plain string, so an engine may report a
  side this module does not list yet; consumers that only know some sides refuse the others
  by name instead of misreading them. Undead or Alive (UA4) after an outbreak reports every
  seat's side *at the end*: ``zombies``, ``zombie_master`` or ``survivors`` (docs/rulings.md,
  "how a zombie win is scored and rated").
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

import msgspec


class GameType(StrEnum):
    DICE = "dice"
    """BANG! The Dice Game, with or without its expansion modules."""
    CARDS = "cards"
    """The original BANG! card game (sides law, outlaws, renegade; ``engines/cards.py``)."""


BASE_RULESET = "dice"
"""The base dice game's ruleset in its compact text form (``Ruleset.text``: the game type, then
the modules, e.g. ``dice OS1 OS4``): every game created before rulesets were recorded."""


def base_ruleset_of(ruleset: str) -> str:
    """The base game of a ruleset's game type (``dice OS1 OS3`` → ``dice``): the first word of
    its text form, which is the game type with no modules."""
    return ruleset.split(maxsplit=1)[0] if ruleset.strip() else ruleset


class Role(StrEnum):
    """A base role. Its values are the strings stored in league and ratings tables."""

    SHERIFF = "sheriff"
    DEPUTY = "deputy"
    OUTLAW = "outlaw"
    RENEGADE = "renegade"


class Side(StrEnum):
    """Who wins together. Three-player dice games have one side per player (their role)."""

    LAW = "law"
    OUTLAWS = "outlaws"
    RENEGADE = "renegade"
    # three-player dice game: each role is its own side
    DEPUTY = "deputy"
    OUTLAW = "outlaw"
    # Undead or Alive (UA4) after an outbreak: every seat's side at the end
    ZOMBIES = "zombies"
    """The plain zombies (players eliminated before the outbreak), in play or out for good."""
    ZOMBIE_MASTER = "zombie_master"
    """The living Renegade who became the Zombie Master: he wins with the zombies."""
    SURVIVORS = "survivors"
    """Every other seat, whatever its role, those out for good included."""


OUTBREAK_SIDES = frozenset({Side.ZOMBIES, Side.ZOMBIE_MASTER, Side.SURVIVORS})
"""The sides of a game after an Undead or Alive outbreak; a game reports these or base sides,
never both."""

ZOMBIE_WINNERS: tuple[str, ...] = (Side.ZOMBIES.value, Side.ZOMBIE_MASTER.value)
"""``winners`` of a zombie win (the zombies first, so ``winning_side`` names them)."""


class FinishKind(StrEnum):
    """How a game ended."""

    WON = "won"
    """One side won; its members share the win, the eliminated ones too."""
    NO_WINNER = "no_winner"
    """Nobody won: every player of a three-player game was eliminated at once."""


ROLES_BY_PLAYER_COUNT: dict[int, tuple[Role, ...]] = {
    3: (Role.DEPUTY, Role.OUTLAW, Role.RENEGADE),
    4: (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW),
    5: (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY),
    6: (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY),
    7: (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY, Role.DEPUTY),
    8: (Role.SHERIFF, Role.RENEGADE, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY,
        Role.DEPUTY),
}
"""The base roles dealt at each table size: the same in the dice game (with or without special
roles, which keep the base distribution) and the card game (4 to 8 players). The order is the
dice engine's, which seeded draws over this table depend on."""


def roles_for(players: int) -> tuple[Role, ...]:
    """The base roles at a table of ``players``; ValueError for a size no game has."""
    try:
        return ROLES_BY_PLAYER_COUNT[players]
    except KeyError:
        raise ValueError(f"a BANG! table has 3 to 8 players, not {players}") from None


def has_sheriff(players: int) -> bool:
    """Whether a table of this size has a Sheriff (three-player dice tables do not)."""
    return Role.SHERIFF in roles_for(players)


class SeatOutcome(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How one seat ended a game, before anyone asks who sat there.

    ``special`` and ``ghost`` are left out of the encoding when they have their defaults, so a
    base game's result encodes exactly as it did before the expansions."""

    seat: str
    """The seat id in the game (``p1``…), as in ``SeatsDealt``/``PlayerJoined``."""
    role: str
    """The role card as the engine names it (a special role's own name, say)."""
    base_role: Role
    """The base role the card counts as: what per-role ratings and league counts read."""
    side: str
    """The side the seat played for at the end (a ``Side`` value, or one it does not list yet)."""
    alive: bool
    """In play at the end: a zombie still in play is (docs/rulings.md, UA4); a player
    eliminated, the Ghost or one out for good after an outbreak is not."""
    won: bool
    special: str | None = None
    """Old Saloon (OS3): the special role card as the engine names it (``le_doc``); None without
    special roles. Informative only: ratings and league counts read ``base_role``."""
    ghost: bool = False
    """Old Saloon (OS5): the seat ended the game as the Ghost (eliminated, still playing for its
    side); ``alive`` is False for it."""


class SeatResult(SeatOutcome, frozen=True, kw_only=True):
    member_id: str
    """Who sat there: the player's identity across games (league player id)."""


class Elimination(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    by: str | None
    """The seat whose action eliminated this one; None when no player did (dynamite, arrows)."""
    cause: str | None
    """What did it, in the engine's words (``shoot1``, ``dynamite``, ``indian_attack``…); None
    when the record does not say (a player already out where a recorded position starts)."""
    turn: int


class MissingMember(KeyError):
    """A finished game names a seat nobody is known to have sat in."""

    def __init__(self, seat: str) -> None:
        super().__init__(seat)
        self.seat = seat


class GameFinish(msgspec.Struct, frozen=True, kw_only=True):
    """A game's end as its engine reported it, in the neutral words: seats by seat id."""

    finish: FinishKind
    winners: tuple[str, ...]
    """The sides that won: one, or ``ZOMBIE_WINNERS`` when the zombies and their Master won an
    Undead or Alive game; empty when nobody won. ``winning_side`` is the first."""
    seats: tuple[SeatOutcome, ...]
    """Every seat, in seat order."""
    eliminations: tuple[Elimination, ...]
    """In the order they happened."""
    turn: int
    """The turn the game ended in."""

    @property
    def winning_side(self) -> str | None:
        return self.winners[0] if self.winners else None

    def result(
        self,
        game_id: str,
        members: Mapping[str, str],
        *,
        game_type: str = GameType.DICE,
        ruleset: str = BASE_RULESET,
    ) -> GameResult:
        """The result with who sat where; raises ``MissingMember`` for a seat nobody took."""
        seats = []
        for s in self.seats:
            try:
                member = members[s.seat]
            except KeyError:
                raise MissingMember(s.seat) from None
            seats.append(
                SeatResult(
                    seat=s.seat,
                    member_id=member,
                    role=s.role,
                    base_role=s.base_role,
                    side=s.side,
                    alive=s.alive,
                    won=s.won,
                    special=s.special,
                    ghost=s.ghost,
                )
            )
        return GameResult(
            game_id=game_id,
            game_type=game_type,
            ruleset=ruleset,
            finish=self.finish,
            winners=self.winners,
            seats=tuple(seats),
            eliminations=self.eliminations,
            turn=self.turn,
        )


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game as league and ratings read it."""

    game_id: str
    game_type: str = GameType.DICE
    ruleset: str = BASE_RULESET
    """The rules the game was played with, in ``Ruleset.text`` form (``dice``, ``dice OS1 OS2``)."""
    finish: FinishKind
    winners: tuple[str, ...]
    seats: tuple[SeatResult, ...]
    eliminations: tuple[Elimination, ...]
    turn: int

    @property
    def winning_side(self) -> str | None:
        return self.winners[0] if self.winners else None


__all__ = [
    "BASE_RULESET",
    "OUTBREAK_SIDES",
    "ROLES_BY_PLAYER_COUNT",
    "ZOMBIE_WINNERS",
    "Elimination",
    "FinishKind",
    "GameFinish",
    "GameResult",
    "GameType",
    "MissingMember",
    "Role",
    "SeatOutcome",
    "SeatResult",
    "Side",
    "base_ruleset_of",
    "has_sheriff",
    "roles_for",
]
