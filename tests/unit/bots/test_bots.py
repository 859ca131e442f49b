"""Bots answer only with legal commands, see only what their player may, and heuristics win."""

from __future__ import annotations

import random

import pytest

from services.game.bots import Bot, HeuristicBot, RandomBot
from services.game.rules.dice import Awaiting, Decision, Game, GameCommand, GameState, Role, RollDice, Side
from services.game.simulation import deal, game_seeds, play_game


class Checked:
    """Wraps a bot and asserts each answer is in the engine's legal commands."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.answered: set[Decision] = set()

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        command = self.bot.choose(game, question, rng)
        assert isinstance(game, Game)
        assert command in game.legal_commands(), f"{self.bot!r} played illegal '{command}' for {question}"
        self.answered.add(question.decision)
        return command


@pytest.mark.parametrize("make", [RandomBot, HeuristicBot, lambda: HeuristicBot(care=0.5)])
def test_bots_only_play_legal_commands(make: type[Bot]) -> None:
    checked = Checked(make())
    for players in range(3, 9):
        for index in range(25):
            rng, dice = game_seeds(players, index)
            game = play_game(deal(players, rng), checked, dice, rng)
            assert game.is_over
    # every decision kind a bot answers came up at least once over these 150 games
    assert checked.answered == set(Decision) - {Decision.ROLL}


def test_bots_do_not_roll() -> None:
    rng, _dice = game_seeds(0, 0)
    game = Game.start(deal(5, rng))
    question = game.awaiting
    assert question is not None and question.decision is Decision.ROLL
    for bot in (RandomBot(), HeuristicBot()):
        with pytest.raises(ValueError, match="DiceSource"):
            bot.choose(game, question, rng)


def test_care_is_a_probability() -> None:
    with pytest.raises(ValueError):
        HeuristicBot(care=1.5)


def _hidden_roles_swapped(state: GameState, me: str) -> GameState:
    """The same state with the roles ``me`` cannot know shuffled among their holders."""
    other = state.clone()
    hidden = [p for p in other.players if p.alive and p.id != me and p.role is not Role.SHERIFF]
    roles = [p.role for p in hidden]
    roles.reverse()
    for p, role in zip(hidden, roles, strict=True):
        p.role = role
    return other


def test_heuristic_bot_ignores_roles_its_player_cannot_know() -> None:
    compared = 0
    for index in range(40):
        rng, dice = game_seeds(99, index)
        game = Game.start(deal(6, rng))
        bot = HeuristicBot()
        while not game.is_over:
            question = game.awaiting
            assert question is not None
            if question.decision is Decision.ROLL:
                game.play(RollDice(player=question.player, faces=dice.roll(len(question.dice))))
                continue
            seed = rng.random()
            # the state alone (no events) and with hidden roles swapped must give the same answer
            plain = HeuristicBot().choose(game.state, question, random.Random(seed))
            hidden = _hidden_roles_swapped(game.state, question.player)
            swapped = HeuristicBot().choose(hidden, question, random.Random(seed))
            assert plain == swapped, question
            compared += 1
            game.play(bot.choose(game, question, rng))
    assert compared > 1000


def _law_win_rate(law: Bot, others: Bot, games: int) -> float:
    won = 0
    for index in range(games):
        rng, dice = game_seeds(2024, index)
        seats = deal(5, rng)
        bots = {s.player: law if s.role in (Role.SHERIFF, Role.DEPUTY) else others for s in seats}
        result = play_game(seats, bots, dice, rng).result
        assert result is not None
        won += result.winning_side is Side.LAW
    return won / games


def test_heuristic_bots_beat_random_bots_on_the_same_side() -> None:
    games = 150
    heuristic_law = _law_win_rate(HeuristicBot(), RandomBot(), games)
    random_law = _law_win_rate(RandomBot(), HeuristicBot(), games)
    # measured about 0.9 against 0.02; a margin of 0.3 leaves room for any reasonable change
    assert heuristic_law - random_law > 0.3, (heuristic_law, random_law)


def test_more_care_wins_more() -> None:
    careless = _law_win_rate(HeuristicBot(care=0.0), HeuristicBot(), 150)
    careful = _law_win_rate(HeuristicBot(care=1.0), HeuristicBot(care=0.0), 150)
    assert careful - careless > 0.3, (careful, careless)
