"""Result sheets: a BANG! card game played entirely on cardboard, as its table wrote it down.

There is no record to replay, so the sheet is checked for consistency instead
(``check_sheet``, pure): the roles are the set dealt at that table size
(../shared/rules/card-deck.md; 8 players only with the two-Renegade set), the characters are 16
real and distinct ones, each eliminated seat falls once and by a seat still alive then (or by
nobody: Dynamite, his own Duel), and the winning side is the one the end-of-game rule
(../shared/rules/RULINGS-cards.md, "End of game") gives for who was left, with the winners exactly
that side's seats. Each refusal says which rule the sheet breaks.

A valid sheet becomes the neutral ``GameResult`` every game type reports (seat ``p1``… in the
sheet's order), so standings and ratings read it as they read a finished game; the league event
that stores it says ``replayable: false``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec

from services.game.results import (
    Elimination,
    FinishKind,
    GameResult,
    GameType,
    Role,
    SeatResult,
    Side,
    roles_for,
)
from services.league.errors import InvalidCommand

CARD_CHARACTERS: frozenset[str] = frozenset(
    {
        "bart_cassidy",
        "black_jack",
        "calamity_janet",
        "el_gringo",
        "jesse_jones",
        "jourdonnais",
        "kit_carlson",
        "lucky_duke",
        "paul_regret",
        "pedro_ramirez",
        "rose_doolan",
        "sid_ketchum",
        "slab_the_killer",
        "suzy_lafayette",
        "vulture_sam",
        "willy_the_kid",
    }
)
"""The 16 characters of the base card game, as the card engine names them (a test holds the two
lists equal; the league does not import an engine)."""

CARD_RULESET = "cards"
"""The ruleset text of a base card game: what its side offsets are fitted under."""
EIGHT_PLAYERS = "eight_players"
"""The card game's recorded option for 8 players with two Renegades (``cards eight_players``, as
the card engine records it): its own ruleset, with offsets of its own."""

MIN_PLAYERS, MAX_PLAYERS = 4, 8
NOT_REPLAYABLE = "result sheet — not replayable"
"""How a game known only from its result sheet is shown wherever games are shown."""

_SIDE_OF_ROLE = {
    Role.SHERIFF: Side.LAW,
    Role.DEPUTY: Side.LAW,
    Role.OUTLAW: Side.OUTLAWS,
    Role.RENEGADE: Side.RENEGADE,
}


class SheetSeat(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    role: str
    """``sheriff``, ``deputy``, ``outlaw`` or ``renegade``."""
    character: str
    """One of ``CARD_CHARACTERS`` (``bart_cassidy``…)."""


class SheetElimination(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    """Who was eliminated."""
    by: str | None = None
    """The member whose card eliminated them; None for nobody (Dynamite, his own Duel)."""
    turn: int
    """The turn it happened in (1 = the Sheriff's first turn); never lower than the one before."""


class ResultSheet(msgspec.Struct, frozen=True, kw_only=True):
    """What the table wrote down, seats in the order they sat (clockwise from anyone)."""

    seats: tuple[SheetSeat, ...]
    eliminations: tuple[SheetElimination, ...] = ()
    """In the order they happened."""
    winning_side: str
    """``law``, ``outlaws`` or ``renegade``."""
    winners: tuple[str, ...]
    """The members who won: every seat of the winning side, dead or alive (a Renegade's win:
    the living Renegade alone)."""


def winner_of(roles: Sequence[Role], alive: Sequence[bool]) -> Side | None:
    """The end-of-game rule on who is left: the Sheriff's condition first (dead: the lone living
    Renegade, else the Outlaws; 8 players with both Renegades alive is the Outlaws'), then no
    Outlaw and no Renegade alive: the Law. None: the game goes on."""
    living = [role for role, up in zip(roles, alive, strict=True) if up]
    sheriff_alive = any(role == Role.SHERIFF for role in living)
    if not sheriff_alive:
        return Side.RENEGADE if living == [Role.RENEGADE] else Side.OUTLAWS
    if not any(role in (Role.OUTLAW, Role.RENEGADE) for role in living):
        return Side.LAW
    return None


def check_sheet(sheet: ResultSheet, game_id: str) -> GameResult:
    """The sheet as the neutral result of a card game; ``InvalidCommand`` naming the first rule
    it breaks otherwise."""
    seats = sheet.seats
    n = len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidCommand(
            f"a card game has {MIN_PLAYERS} to {MAX_PLAYERS} players (8 with the two-Renegade set), not {n}"
        )
    members = [s.member_id for s in seats]
    twice = sorted(m for m, k in Counter(members).items() if k > 1)
    if twice:
        raise InvalidCommand(f"a member holds two seats: {', '.join(twice)}")
    roles = _roles(seats)
    expected = Counter(roles_for(n))
    if Counter(roles) != expected:
        given_roles = Counter(roles)
        wanted = ", ".join(f"{expected[r]} {r.value}" for r in Role if expected[r])
        given = ", ".join(f"{given_roles[r]} {r.value}" for r in Role if given_roles[r])
        raise InvalidCommand(f"{n} players are dealt {wanted}; the sheet has {given}")
    _check_characters(seats)
    seat_of = {m: f"p{i + 1}" for i, m in enumerate(members)}
    alive = dict.fromkeys(members, True)
    eliminations: list[Elimination] = []
    last_turn = 0
    for index, fall in enumerate(sheet.eliminations):
        where = f"elimination {index + 1} ({fall.member_id})"
        if fall.member_id not in alive:
            raise InvalidCommand(f"{where}: {fall.member_id} has no seat on the sheet")
        if not alive[fall.member_id]:
            raise InvalidCommand(f"{where}: {fall.member_id} was eliminated already")
        if fall.turn < 1 or fall.turn < last_turn:
            raise InvalidCommand(
                f"{where}: turn {fall.turn} comes before turn {last_turn} of the elimination listed before it"
                if fall.turn >= 1
                else f"{where}: a turn is 1 or more, not {fall.turn}"
            )
        if fall.by is not None:
            if fall.by == fall.member_id:
                raise InvalidCommand(
                    f"{where}: a player who eliminated himself (his own Duel) was eliminated by nobody"
                )
            if fall.by not in alive:
                raise InvalidCommand(f"{where}: the eliminator {fall.by} has no seat on the sheet")
            if not alive[fall.by]:
                raise InvalidCommand(f"{where}: the eliminator {fall.by} was eliminated before")
        # the game ends at the end of a resolution: several falls of one turn may be one
        # resolution (a Gatling), so the end is checked only between turns
        if last_turn and fall.turn > last_turn:
            ended = winner_of(roles, [alive[m] for m in members])
            if ended is not None:
                raise InvalidCommand(
                    f"{where}: the game was over before turn {fall.turn} ({ended.value} had won), "
                    "but the sheet goes on"
                )
        alive[fall.member_id] = False
        last_turn = fall.turn
        eliminations.append(
            Elimination(
                seat=seat_of[fall.member_id],
                by=None if fall.by is None else seat_of[fall.by],
                cause=None if fall.by is None else "card",
                turn=fall.turn,
            )
        )
    side = winner_of(roles, [alive[m] for m in members])
    if side is None:
        raise InvalidCommand(
            "the game is not over on this sheet: the Sheriff is alive and so is an Outlaw or a Renegade"
        )
    if sheet.winning_side != side.value:
        raise InvalidCommand(f"the sheet says {sheet.winning_side} won, but by who was left: {_why(side)}")
    won = {
        m
        for m, role in zip(members, roles, strict=True)
        if _SIDE_OF_ROLE[role] is side and (side is not Side.RENEGADE or alive[m])
    }
    if set(sheet.winners) != won or len(sheet.winners) != len(won):
        raise InvalidCommand(
            f"the winners are {side.value}'s seats: {', '.join(sorted(won))}; the sheet lists "
            f"{', '.join(sheet.winners) or 'nobody'}"
        )
    return GameResult(
        game_id=game_id,
        game_type=GameType.CARDS,
        ruleset=f"{CARD_RULESET} {EIGHT_PLAYERS}" if n == MAX_PLAYERS else CARD_RULESET,
        finish=FinishKind.WON,
        winners=(side.value,),
        seats=tuple(
            SeatResult(
                seat=seat_of[m],
                member_id=m,
                role=role.value,
                base_role=role,
                side=_SIDE_OF_ROLE[role].value,
                alive=alive[m],
                won=m in won,
            )
            for m, role in zip(members, roles, strict=True)
        ),
        eliminations=tuple(eliminations),
        turn=last_turn,
    )


def _roles(seats: Sequence[SheetSeat]) -> list[Role]:
    roles = []
    for seat in seats:
        try:
            roles.append(Role(seat.role))
        except ValueError:
            known = ", ".join(r.value for r in Role)
            raise InvalidCommand(f"{seat.member_id}'s role {seat.role!r} is not one of {known}") from None
    return roles


def _check_characters(seats: Sequence[SheetSeat]) -> None:
    for seat in seats:
        if seat.character not in CARD_CHARACTERS:
            raise InvalidCommand(
                f"{seat.member_id}'s character {seat.character!r} is not one of the 16: "
                + ", ".join(sorted(CARD_CHARACTERS))
            )
    twice = sorted(c for c, k in Counter(s.character for s in seats).items() if k > 1)
    if twice:
        raise InvalidCommand(f"each character is dealt once; the sheet gives {', '.join(twice)} twice")


def _why(side: Side) -> str:
    if side is Side.LAW:
        return "the Sheriff is alive with no Outlaw or Renegade left: law won"
    if side is Side.RENEGADE:
        return "the Renegade alone survived the Sheriff: renegade won"
    return "the Sheriff is dead and the Renegade is not alone: outlaws won"
