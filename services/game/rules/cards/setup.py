"""Setting up a card game: roles for 4–7 players (8 with two Renegades, a recorded option),
starting life, and the checks a set of seats must pass.

Dealing roles and characters is random and happens outside the engine; the deck's first shuffle
is the engine's first random input (``Decision.SHUFFLE``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from services.game.rules.cards.deck import ALL_CARDS, CARDS, WEAPON_RANGE, card, name_of
from services.game.rules.cards.errors import InvalidSetup
from services.game.rules.cards.events import GameStarted, PlayerPosition, Position, Seat
from services.game.rules.cards.position_rules import check_turn_under_way
from services.game.rules.cards.vocabulary import BULLETS, CardId, CardName, Cause, CharacterId, PlayerId, Role

SHERIFF, DEPUTY, OUTLAW, RENEGADE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE

ROLES_BY_PLAYER_COUNT: dict[int, tuple[Role, ...]] = {
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}
EIGHT_PLAYER_ROLES: tuple[Role, ...] = (SHERIFF, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY)
"""Dodge City's 8-role set, allowed with the base deck as a game option."""


def roles_for(player_count: int, *, eight_players: bool = False) -> tuple[Role, ...]:
    if player_count == 8 and eight_players:
        return EIGHT_PLAYER_ROLES
    if player_count == 8:
        raise InvalidSetup("8 players need the recorded option eight_players (two Renegades)")
    try:
        return ROLES_BY_PLAYER_COUNT[player_count]
    except KeyError:
        raise InvalidSetup(f"BANG! is for 4 to 7 players (8 as an option), not {player_count}") from None


def starting_life(role: Role, character: CharacterId) -> int:
    return BULLETS[character] + (role is SHERIFF)


def new_game(
    seats: Sequence[Seat], *, eight_players: bool = False, position: Position | None = None
) -> GameStarted:
    """The first event of a game with these seats (clockwise), checked against the rules."""
    n = len(seats)
    if eight_players and n != 8:
        raise InvalidSetup("the eight_players option is for 8 players")
    expected = Counter(roles_for(n, eight_players=eight_players))
    if Counter(s.role for s in seats) != expected:
        table = ", ".join(f"{count} {role}" for role, count in sorted(expected.items()))
        raise InvalidSetup(f"{n} players take exactly these roles: {table}")
    if len({s.player for s in seats}) != n:
        raise InvalidSetup("every seat needs a different player id")
    if any(s.player == "table" for s in seats):
        raise InvalidSetup("'table' is not a player id: it names the random inputs")
    if len({s.character for s in seats}) != n:
        raise InvalidSetup("every player needs a different character")
    if position is not None:
        check_position(seats, position)
    return GameStarted(seats=tuple(seats), eight_players=eight_players, position=position)


def check_position(seats: Sequence[Seat], position: Position) -> None:
    """Every card in exactly one place, lives within bounds, a game not already over; a turn
    under way as the rules could have left it (``position_rules``)."""
    by_id = {s.player: s for s in seats}
    listed = [pp.player for pp in position.players]
    if len(set(listed)) != len(listed) or any(p not in by_id for p in listed):
        raise InvalidSetup("a position lists each seated player at most once")
    dying_allowed = position.resolving is not None
    for pp in position.players:
        most = starting_life(by_id[pp.player].role, by_id[pp.player].character)
        if pp.alive and pp.life <= 0 and position.phase is not None and not dying_allowed:
            raise InvalidSetup(
                f"{pp.player} is living at {pp.life} life: a player at 0 or less is dying, which happens "
                "only while a card (or Dynamite) resolves"
            )
        if pp.alive and not 1 <= pp.life <= most and not (dying_allowed and MIN_LIFE <= pp.life <= 0):
            raise InvalidSetup(f"{pp.player}: a living player's life is 1..{most}, not {pp.life}")
        if not pp.alive and (pp.hand or pp.in_play):
            raise InvalidSetup(f"{pp.player}: an eliminated player holds no card")
        if not pp.alive and pp.life > 0:
            raise InvalidSetup(f"{pp.player}: an eliminated player has 0 life or less, not {pp.life}")
        _check_elimination(pp, by_id)
    _check_places(position)
    for pp in position.players:
        _check_in_play(pp.player, by_id[pp.player].role, pp.in_play)
    dead = {pp.player for pp in position.players if not pp.alive}
    under_way = position.resolving is not None
    if position.active not in by_id or (position.active in dead and not under_way):
        raise InvalidSetup("the position's active player must be a living seated player")
    # a resolution eliminating its dying players checks the end of the game once all are out
    # and their cards are dealt with (the Outlaw's reward drawn first)
    eliminating = position.resolving is not None and bool(position.resolving.doomed)
    if any(s.role is SHERIFF for s in seats if s.player in dead) and not eliminating:
        raise InvalidSetup("a position with the Sheriff eliminated is a finished game")
    enemies = {s.player for s in seats if s.role in (OUTLAW, RENEGADE)}
    if enemies <= dead and not eliminating:
        raise InvalidSetup("a position with every Outlaw and Renegade eliminated is a finished game")
    if position.turn < 1:
        raise InvalidSetup("turns are numbered from 1")
    check_turn_under_way(seats, position)


MIN_LIFE = -2
"""The lowest life a dying player can stand at: Dynamite's 3 from his last point."""


def _check_elimination(pp: PlayerPosition, by_id: Mapping[PlayerId, Seat]) -> None:
    said = pp.eliminated_by is not None or pp.eliminated_cause is not None or pp.eliminated_turn is not None
    if pp.alive:
        if said:
            raise InvalidSetup(f"{pp.player} is living: he has no eliminator, cause or turn of elimination")
        return
    if pp.eliminated_by is not None:
        if pp.eliminated_by not in by_id or pp.eliminated_by == pp.player:
            raise InvalidSetup(f"{pp.player} was eliminated by another seated player, not {pp.eliminated_by}")
        if pp.eliminated_cause is not Cause.CARD:
            raise InvalidSetup(f"{pp.player}: eliminated by {pp.eliminated_by} means by his card")
    elif pp.eliminated_cause is Cause.CARD:
        raise InvalidSetup(f"{pp.player}: eliminated by a card: whose?")
    if pp.eliminated_turn is not None and pp.eliminated_turn < 1:
        raise InvalidSetup(f"{pp.player}: turns are numbered from 1")


def _check_places(position: Position) -> None:
    """Each of the 80 cards in exactly one place, named by where it lies."""
    places: list[tuple[CardId, str]] = []
    places += [(c, "the deck") for c in (*position.deck, *position.pool)]
    places += [(c, "the discard pile") for c in position.discard]
    for pp in position.players:
        places += [(c, f"{pp.player}'s hand") for c in pp.hand]
        places += [(c, f"play in front of {pp.player}") for c in pp.in_play]
    places += [(c, "Kit Carlson's look") for c in position.kit]
    places += [(c, "the General Store") for c in position.store]
    r = position.resolving
    if r is not None and r.card is not None and not r.resolved:
        places.append((r.card, "resolving"))
    seen: dict[CardId, str] = {}
    for c, where in places:
        if c not in CARDS:
            raise InvalidSetup(f"{c} is not a card id (1..80)")
        if c in seen:
            raise InvalidSetup(f"{card(c).text} (card {c}) is placed twice: in {seen[c]} and in {where}")
        seen[c] = where
    missing = [c for c in ALL_CARDS if c not in seen]
    if missing:
        raise InvalidSetup(
            "a position places each of the 80 cards exactly once: "
            f"{card(missing[0]).text} (card {missing[0]}) is nowhere"
        )
    if list(position.pool) != sorted(position.pool):
        raise InvalidSetup("the deck's cards in unknown order are listed in id order")


def _check_in_play(player: str, role: Role, in_play: Sequence[CardId]) -> None:
    """What may lie in front of a player is what the rules let him put there: blue cards only,
    one weapon, no two of one name, and never a Jail in front of the Sheriff."""
    names = [name_of(c) for c in in_play]
    for card_id, name in zip(in_play, names, strict=True):
        if not card(card_id).is_blue:
            raise InvalidSetup(
                f"{player}: {name} (card {card_id}) is played and discarded, never kept in play"
            )
    doubled = sorted({str(n) for n, k in Counter(names).items() if k > 1})
    if doubled:
        raise InvalidSetup(f"{player}: two cards of one name in play ({', '.join(doubled)})")
    if sum(name in WEAPON_RANGE for name in names) > 1:
        raise InvalidSetup(f"{player}: one weapon in play at most")
    if role is SHERIFF and CardName.JAIL in names:
        raise InvalidSetup(f"{player}: the Sheriff cannot be in Jail")
