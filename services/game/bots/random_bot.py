"""``RandomBot``: a uniformly random legal answer, cheaply (never lists 6^k rolls or 2^k rerolls)."""

from __future__ import annotations

import random

from services.game.bots.base import split_game
from services.game.bots.view import Knowledge, PlayerView, shot_options
from services.game.rules.dice import (
    Awaiting,
    ChooseTarget,
    Decision,
    Decline,
    DiscardArrows,
    DoubleShot,
    Game,
    GameCommand,
    GameState,
    Reroll,
    StopRolling,
    TakeArrowsInstead,
    legal_commands,
)
from services.game.rules.dice.vocabulary import ANY_BEER_FACES, ANY_SHOOT_FACES

_NO_KNOWLEDGE = Knowledge()


class RandomBot:
    """Each legal command equally likely (up to the engine's canonical spelling of a target)."""

    __slots__ = ()

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        state, _events = split_game(game)
        return random_command(state, question, rng)

    def __repr__(self) -> str:
        return "RandomBot()"


def random_command(state: GameState, q: Awaiting, rng: random.Random) -> GameCommand:
    player = q.player
    decision = q.decision
    if decision is Decision.REROLL_OR_STOP:
        # each subset of the rerollable dice equally likely; the empty one means stop
        dice = tuple(i for i in q.dice if rng.random() < 0.5)
        return Reroll(player=player, dice=dice) if dice else StopRolling(player=player)
    if decision is Decision.SHOT_TARGET:
        view = PlayerView(state, player, _NO_KNOWLEDGE)
        options = [(die, p, face) for die in q.dice for p, face in shot_options(view, die)]
        die, target, as_face = rng.choice(options)
        return ChooseTarget(player=player, die=die, target=target.id, as_face=as_face)
    if decision is Decision.BEER_TARGET:
        living = [p for p in state.players if p.alive]
        return ChooseTarget(player=player, die=rng.choice(q.dice), target=rng.choice(living).id)
    if decision is Decision.TURN_START_HEAL:
        living = [p for p in state.players if p.alive]
        return ChooseTarget(player=player, target=rng.choice(living).id)
    if decision is Decision.DOUBLE_SHOT:
        assert state.turn is not None
        dice = state.turn.dice
        shots = [i for i in q.dice if dice[i] in ANY_SHOOT_FACES]
        beers = [i for i in q.dice if dice[i] in ANY_BEER_FACES]
        k = rng.randrange(1 + len(shots) * len(beers))
        if k == 0:
            return Decline(player=player)
        shot, beer = divmod(k - 1, len(beers))
        return DoubleShot(player=player, shot_die=shots[shot], beer_die=beers[beer])
    if decision is Decision.ARROWS_INSTEAD or decision is Decision.DISCARD_ARROWS:
        count = rng.randint(0, q.max_count)
        if count == 0:
            return Decline(player=player)
        kind = TakeArrowsInstead if decision is Decision.ARROWS_INSTEAD else DiscardArrows
        return kind(player=player, count=count)
    if decision is Decision.REMOVE_ARROWS:
        # rare (Kit Carlson only) and small: list the legal answers
        return rng.choice(list(legal_commands(state)))
    if decision is Decision.ROLL:
        raise ValueError(f"bots do not answer {decision.value}: dice come from a DiceSource")
    return random_answer(state, q, rng)


def random_answer(state: GameState, q: Awaiting, rng: random.Random) -> GameCommand:
    """Any other declared decision (a module's): one of its legal answers, listed by its spec.
    A question to the whole table is answered for ``q.player``'s seat: its pass or one of its
    own uses, never another seat's."""
    spec = state.rules.decisions[q.decision]
    answers = [c for c in spec.generate(state, q) if c.player == q.player]
    if not answers:  # a table question re-addressed to a seat with nothing to use there
        fallback = spec.timeout(state, q)
        assert fallback is not None, f"{q.decision} has no answer for {q.player}"
        return fallback
    return rng.choice(answers)
