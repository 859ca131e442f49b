"""The legal commands of a game at rest, as a lazy collection.

``command in legal_commands(state)`` checks one command without listing any; iterating
lists them (for a roll that is every combination of faces, produced lazily).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from services.game.rules.dice import commands as cmd
from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.decide import awaiting, check
from services.game.rules.dice.errors import RuleError
from services.game.rules.dice.state import GameState
from services.game.rules.dice.table import distance, reach
from services.game.rules.dice.vocabulary import SHOOT_FACES, Face


class LegalCommands:
    def __init__(self, state: GameState) -> None:
        self._state = state
        self.question: Awaiting | None = awaiting(state)

    def __contains__(self, command: object) -> bool:
        if self.question is None or not isinstance(command, cmd.Command):
            return False
        try:
            check(self._state, command)  # type: ignore[arg-type]
        except RuleError:
            return False
        return True

    def __iter__(self) -> Iterator[cmd.GameCommand]:
        if self.question is None:
            return iter(())
        return _GENERATE[self.question.decision](self._state, self.question)

    def __bool__(self) -> bool:
        return self.question is not None


def legal_commands(state: GameState) -> LegalCommands:
    return LegalCommands(state)


def _heal(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for p in s.living():
        yield cmd.ChooseTarget(player=q.player, target=p.id)


def _roll(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for faces in itertools.product(list(Face), repeat=len(q.dice)):
        yield cmd.RollDice(player=q.player, faces=faces)


def _reroll(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.StopRolling(player=q.player)
    for k in range(1, len(q.dice) + 1):
        for dice in itertools.combinations(q.dice, k):
            yield cmd.Reroll(player=q.player, dice=dice)


def _double(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    assert s.turn is not None
    dice = s.turn.dice
    for shot in q.dice:
        for beer in q.dice:
            if dice[shot] in SHOOT_FACES and dice[beer] is Face.BEER:
                yield cmd.DoubleShot(player=q.player, shot_die=shot, beer_die=beer)


def _shot_target(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    assert s.turn is not None
    shooter = s.by_id[q.player]
    for die in q.dice:
        face = s.turn.dice[die]
        assert face is not None
        faces = [face]
        if shooter.character.swaps_shoot_faces:
            faces.append(Face.SHOOT2 if face is Face.SHOOT1 else Face.SHOOT1)
        seen: set[str] = set()
        for used in faces:
            allowed = reach(s, shooter, used)
            for p in s.living():
                if p is not shooter and p.id not in seen and distance(s, shooter, p) in allowed:
                    seen.add(p.id)
                    as_face = None if used is face else used
                    yield cmd.ChooseTarget(player=q.player, die=die, target=p.id, as_face=as_face)


def _beer_target(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for die in q.dice:
        for p in s.living():
            yield cmd.ChooseTarget(player=q.player, die=die, target=p.id)


def _arrows_instead(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for n in range(1, q.max_count + 1):
        yield cmd.TakeArrowsInstead(player=q.player, count=n)


def _discard(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    for n in range(1, q.max_count + 1):
        yield cmd.DiscardArrows(player=q.player, count=n)


def _remove(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    yield cmd.Decline(player=q.player)
    pool = [p.id for p in s.living() for _ in range(p.arrows)]
    seen: set[tuple[str, ...]] = set()
    for k in range(1, min(q.max_count, len(pool)) + 1):
        for combo in itertools.combinations(pool, k):
            if combo not in seen:
                seen.add(combo)
                yield cmd.RemoveArrows(player=q.player, from_players=combo)


_GENERATE = {
    Decision.TURN_START_HEAL: _heal,
    Decision.ROLL: _roll,
    Decision.REROLL_OR_STOP: _reroll,
    Decision.DOUBLE_SHOT: _double,
    Decision.SHOT_TARGET: _shot_target,
    Decision.ARROWS_INSTEAD: _arrows_instead,
    Decision.DISCARD_ARROWS: _discard,
    Decision.BEER_TARGET: _beer_target,
    Decision.REMOVE_ARROWS: _remove,
}
