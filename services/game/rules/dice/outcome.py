"""Who has won, checked after every elimination; and each player's side."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from services.game.rules.dice.events import GameEnded, PlayerResult
from services.game.rules.dice.state import GameState, PlayerState
from services.game.rules.dice.vocabulary import PlayerId, Role, Side

_SIDE = {
    Role.SHERIFF: Side.LAW,
    Role.DEPUTY: Side.LAW,
    Role.OUTLAW: Side.OUTLAWS,
    Role.RENEGADE: Side.RENEGADE,
}
_THREE_PLAYER_SIDE = {Role.DEPUTY: Side.DEPUTY, Role.OUTLAW: Side.OUTLAW, Role.RENEGADE: Side.RENEGADE}
THREE_PLAYER_PREY = {Role.DEPUTY: Role.RENEGADE, Role.RENEGADE: Role.OUTLAW, Role.OUTLAW: Role.DEPUTY}
"""Three players: whom each role must eliminate while all three live."""


def side_of(state: GameState, player: PlayerState) -> Side:
    if state.outbreak:  # UA4: every seat's side at the end (docs/rulings.md, the zombie win)
        if player.zombie_since is not None:
            return Side.ZOMBIES
        return Side.ZOMBIE_MASTER if player.zombie_master else Side.SURVIVORS
    return (_THREE_PLAYER_SIDE if state.three_player else _SIDE)[player.role]


def _zombies_end(state: GameState) -> GameEnded | None:
    """UA4 after an outbreak (§UA4): the zombies and their Master win once every survivor is
    eliminated (everyone at once included); the survivors once every zombie and the Master are."""
    living = state.living()
    zombie_side = [p for p in state.players if p.zombie_since is not None or p.zombie_master]
    if not any(p.zombie_since is None and not p.zombie_master for p in living):
        return _ended(state, Side.ZOMBIES, zombie_side)
    if not any(p.zombie_since is not None or p.zombie_master for p in living):
        survivors = [p for p in state.players if p.zombie_since is None and not p.zombie_master]
        return _ended(state, Side.SURVIVORS, survivors)
    return None


def check_end(
    state: GameState,
    eliminated: Sequence[PlayerState],
    source: PlayerId | None,
    alive_before: int,
) -> GameEnded | None:
    """The game's end after ``eliminated`` left together (caused by ``source``, if a player)."""
    if state.three_player:
        return _three_player_end(state, eliminated, source, alive_before)
    if state.outbreak:
        return _zombies_end(state)
    living = state.living()
    sheriff = next(p for p in state.players if p.role is Role.SHERIFF)
    if not sheriff.alive:
        if len(living) == 1 and living[0].role is Role.RENEGADE:
            return _ended(state, Side.RENEGADE, [living[0]])
        return _ended(state, Side.OUTLAWS, [p for p in state.players if p.role is Role.OUTLAW])
    if not any(p.role in (Role.OUTLAW, Role.RENEGADE) for p in living):
        law = [p for p in state.players if p.role in (Role.SHERIFF, Role.DEPUTY)]
        return _ended(state, Side.LAW, law)
    return None


def _three_player_end(
    state: GameState, eliminated: Sequence[PlayerState], source: PlayerId | None, alive_before: int
) -> GameEnded | None:
    if source is not None and alive_before == 3:
        shooter = state.by_id[source]
        prey = THREE_PLAYER_PREY[shooter.role]
        if any(p.role is prey for p in eliminated):
            return _ended(state, side_of(state, shooter), [shooter])
    living = state.living()
    if len(living) == 1:
        # the duel's loser fell to the survivor, or to arrows/dynamite: the survivor wins
        return _ended(state, side_of(state, living[0]), living)
    if not living:
        return _ended(state, None, [])
    return None


def _ended(state: GameState, side: Side | None, winners: Sequence[PlayerState]) -> GameEnded:
    won = {p.id for p in winners}
    cards = {} if state.special is None else state.special.cards
    outbreak = state.outbreak
    results = tuple(
        PlayerResult(
            player=p.id,
            role=p.role,
            character=p.character.id,
            side=side_of(state, p),
            won=p.id in won,
            alive=p.alive,
            eliminated_by=p.eliminated_by,
            eliminated_cause=p.eliminated_cause,
            eliminated_turn=p.eliminated_turn,
            ghost=True if p.ghost else msgspec.UNSET,
            special=cards.get(p.id, msgspec.UNSET),
            zombie=p.zombie_since is not None if outbreak else msgspec.UNSET,
        )
        for p in state.players
    )
    turn = state.turn.number if state.turn is not None else state.last_turn_number
    return GameEnded(
        winning_side=side,
        winners=tuple(p.id for p in winners),
        results=results,
        turn=turn,
        outbreak_turn=_outbreak_turn(state),
    )


def _outbreak_turn(state: GameState) -> int | msgspec.UnsetType:
    b = state.boneyard
    return msgspec.UNSET if b is None or b.outbreak_turn is None else b.outbreak_turn
