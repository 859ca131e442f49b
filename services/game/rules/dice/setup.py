"""Setting up a game: role tables and the checks a starting position must pass.

Dealing is random and randomness lives outside the engine: the caller shuffles (the server
with its seeded generator, a club at its table) and hands over the seats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import msgspec

from services.game.rules.dice.characters import Character
from services.game.rules.dice.errors import InvalidSetup
from services.game.rules.dice.events import GameStarted, Position, Seat
from services.game.rules.dice.modules import ARROW_TOKENS, BASE_GAME_RULES, Rules
from services.game.rules.dice.positions import check_expansions
from services.game.rules.dice.vocabulary import CharacterId, Face, PlayerId, Role, SpecialRole
from services.game.rules.ruleset import MODULES, ModuleId

SHERIFF, DEPUTY, OUTLAW, RENEGADE = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE

ROLES_BY_PLAYER_COUNT: dict[int, tuple[Role, ...]] = {
    3: (DEPUTY, OUTLAW, RENEGADE),
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
    8: (SHERIFF, RENEGADE, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}



def roles_for(player_count: int) -> tuple[Role, ...]:
    try:
        return ROLES_BY_PLAYER_COUNT[player_count]
    except KeyError:
        raise InvalidSetup(f"BANG! The Dice Game is for 3 to 8 players, not {player_count}") from None


def new_game(
    seats: Sequence[Seat], position: Position | None = None, rules: Rules = BASE_GAME_RULES
) -> GameStarted:
    """The first event of a game with these seats (clockwise), checked against the rules."""
    characters = rules.characters
    n = len(seats)
    expected = Counter(roles_for(n))
    if Counter(s.role for s in seats) != expected:
        table = ", ".join(f"{count} {role}" for role, count in sorted(expected.items()))
        raise InvalidSetup(f"{n} players take exactly these roles: {table}")
    ids = [s.player for s in seats]
    if len(set(ids)) != n:
        raise InvalidSetup("every seat needs a different player id")
    if len({s.character for s in seats}) != n:
        raise InvalidSetup("every player needs a different character")
    for s in seats:
        needs = rules.left_out.get(s.character)
        if needs is not None:
            raise InvalidSetup(
                f"{s.player}: {s.character} is not in this game's character pool: it needs "
                f"{MODULES[needs].short}"
            )
        if s.character not in characters:
            raise InvalidSetup(f"{s.character!r} is not a character of this game's ruleset")
    for s in seats:
        if s.special is not None and ModuleId.OS3 not in rules.modules:
            raise InvalidSetup(f"{s.player} holds the special role {s.special}, but OS3 is not played")
    for s in seats:
        if s.legacy_bonus and ModuleId.UA5 not in rules.modules:
            raise InvalidSetup(f"{s.player} has a legacy life bonus, but UA5 is not played")
    for check in rules.seat_checks:
        check(seats)
    pile = rules.arrow_tokens
    if position is not None:
        pile = _check_position(seats, position, rules)
    return GameStarted(seats=tuple(seats), arrow_pile=pile, position=position)


def _check_position(seats: Sequence[Seat], position: Position, rules: Rules) -> int:
    characters: Mapping[CharacterId, Character] = rules.characters
    tokens = rules.arrow_tokens
    by_id = {s.player: s for s in seats}
    for pp in position.players:
        if pp.player not in by_id:
            raise InvalidSetup(f"the position names {pp.player}, who has no seat")
    check_expansions(seats, position, rules)  # first: the base checks read what it vouches for
    special = position.special_roles
    # OS3: players at 0 life whose elimination waits for Main Gauche's window are still in
    held_out = set(special.held_eliminations.players) if special and special.held_eliminations else set()
    held = 0
    listed: set[str] = set()
    for pp in position.players:
        seat = by_id[pp.player]
        if pp.player in listed:  # a second entry would count its arrows twice
            raise InvalidSetup(f"the position lists {pp.player} twice")
        listed.add(pp.player)
        bonus = (2 if seat.role is Role.SHERIFF and len(seats) > 3 else 0) + seat.legacy_bonus
        if seat.special is SpecialRole.L_OURS:
            bonus += 1  # L'Ours: +3 instead of the Sheriff's +2
        max_life = characters[seat.character].life + bonus
        if pp.zombie:
            max_life = pp.zombie.max_life
        if not 0 <= pp.life <= max_life:
            raise InvalidSetup(f"{pp.player} cannot have {pp.life} life (0 to {max_life})")
        if pp.arrows < 0 or (pp.life == 0 and pp.arrows and pp.player not in held_out):
            raise InvalidSetup(f"{pp.player} cannot hold {pp.arrows} arrows")
        held += pp.arrows
    # the pile is empty only in the middle of an Indian attack (its losses held: OS3, OS4)
    attack_on = bool(held_out or position.held_losses)
    if held > tokens or (held == tokens and not attack_on):
        raise InvalidSetup(f"players hold {held} arrows; at most {tokens - 1} can be out")
    dead = {pp.player for pp in position.players if pp.life == 0 and pp.player not in held_out}
    _check_not_over(seats, dead, position)
    turn_on = bool(position.in_turn or position.turn_ended)
    if position.active_player is not None:
        if position.active_player not in by_id:
            raise InvalidSetup(f"the active player {position.active_player} has no seat")
        # seats out of play that keep their turn: the Ghost (OS5), the eliminated before an
        # outbreak (UA4, a Boneyard reveal); an eliminated player's own turn may just have ended
        entry = next((pp for pp in position.players if pp.player == position.active_player), None)
        ghost = entry is not None and bool(entry.ghost_since)
        before_outbreak = ModuleId.UA4 in rules.modules and not (
            position.boneyard and position.boneyard.outbreak_turn is not None
        )
        out_of_play_turns = ModuleId.OS5 in rules.modules or ModuleId.UA4 in rules.modules
        keeps_turn = ghost or before_outbreak or (turn_on and out_of_play_turns)
        if position.active_player in dead and not keeps_turn:
            raise InvalidSetup(f"the active player {position.active_player} is eliminated")
    if position.dice is not None:
        if position.active_player is None:
            raise InvalidSetup("a position with dice needs an active player")
        active = by_id[position.active_player]
        max_rolls = 1 + characters[active.character].rerolls
        if position.in_turn:
            if not all(f is None or isinstance(f, Face) for f in position.dice):
                raise InvalidSetup("a position's dice are faces (null: not rolled yet)")
            if not 0 <= position.rolls_used <= max_rolls + 1:
                raise InvalidSetup(f"{active.player}'s rolls_used is 0 to {max_rolls + 1}")
        else:
            if len(position.dice) != 5 or not all(isinstance(f, Face) for f in position.dice):
                raise InvalidSetup("a position's dice are exactly five faces")
            if not 1 <= position.rolls_used <= max_rolls:
                raise InvalidSetup(f"{active.player}'s rolls_used is 1 to {max_rolls}")
    if position.chief_holder is not None:
        if tokens == ARROW_TOKENS:
            raise InvalidSetup("a position gives the Chief's Arrow to a player, but OS2 is not played")
        holder = next((pp for pp in position.players if pp.player == position.chief_holder), None)
        if holder is None or holder.arrows < 1:
            raise InvalidSetup(f"{position.chief_holder} holds the Chief's Arrow: list it among his arrows")
    if position.turn < 1:
        raise InvalidSetup("turns are numbered from 1")
    return tokens - held


def _check_not_over(seats: Sequence[Seat], dead: set[PlayerId], position: Position) -> None:
    """A position must be a game still in progress: the end is only checked after an
    elimination, so a finished position would otherwise play on."""
    living = [s for s in seats if s.player not in dead]
    if position.boneyard and position.boneyard.outbreak_turn is not None:  # UA4: the zombie win
        zombies = {pp.player for pp in position.players if pp.zombie or pp.zombie_master}
        if not any(s.player not in zombies for s in living):
            raise InvalidSetup("the position is a finished game: no survivor of the outbreak is alive")
        if not any(s.player in zombies for s in living):
            raise InvalidSetup("the position is a finished game: no zombie and no Zombie Master is alive")
        return
    if position.sheriff:  # OS3: Le Bien is the Sheriff, the Sheriff of the seats a Deputy
        seats = [
            msgspec.structs.replace(
                s,
                role=SHERIFF if s.player == position.sheriff else DEPUTY if s.role is SHERIFF else s.role,
            )
            for s in seats
        ]
        living = [s for s in seats if s.player not in dead]
    if len(seats) == 3:
        if len(living) < 2:
            raise InvalidSetup("the position is a finished game: fewer than two players are alive")
        return
    if not any(s.role is SHERIFF for s in living):
        raise InvalidSetup("the position is a finished game: the Sheriff is eliminated")
    if not any(s.role in (OUTLAW, RENEGADE) for s in living):
        raise InvalidSetup("the position is a finished game: no Outlaw or Renegade is alive")
