"""The heuristic bot plays its role well enough to matter: a side played by heuristic bots
against random bots wins far more often than the random side would (all-random five-player
games: the Law about 40%, the Outlaws about 55%, the Renegade about 5%)."""

from __future__ import annotations

from collections import Counter

import pytest

from services.game.bots.cards import CardBot, HeuristicCardBot, RandomCardBot
from services.game.rules.cards.vocabulary import SIDE_OF_ROLE, PlayerId, Side
from services.game.simulation_cards import deal, game_seeds, play_game

GAMES = 20


def _wins(players: int, smart: Side) -> Counter[Side]:
    wins: Counter[Side] = Counter()
    for index in range(GAMES):
        rng, table = game_seeds(404, index, players)
        seats = deal(players, table)
        heuristic, rand = HeuristicCardBot(), RandomCardBot()
        bots: dict[PlayerId, CardBot] = {
            s.player: heuristic if SIDE_OF_ROLE[s.role] is smart else rand for s in seats
        }
        game = play_game(seats, bots, table, rng)
        assert game.result is not None
        wins[game.result.winner] += 1
    return wins


@pytest.mark.parametrize(("smart", "at_least"), [(Side.LAW, 14), (Side.OUTLAWS, 14), (Side.RENEGADE, 5)])
def test_a_side_of_heuristic_bots_beats_random_bots(smart: Side, at_least: int) -> None:
    assert _wins(5, smart)[smart] >= at_least
