"""The card game's simulation: every game ends at 4–8 players, a run is reproduced by its seed,
its randomness is the online derivation of each game's seed, and the CLI reports it."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest
import typer
from typer.testing import CliRunner

from bang_cli.simulate import simulate as simulate_command
from services.game.bots.cards import HeuristicCardBot, RandomCardBot
from services.game.fairness import shuffles
from services.game.rules.cards import events as ev
from services.game.rules.cards.game import Game
from services.game.rules.cards.setup import EIGHT_PLAYER_ROLES, ROLES_BY_PLAYER_COUNT
from services.game.simulation import GameDidNotEnd
from services.game.simulation_cards import deal, game_seeds, play_game, simulate

_TIMING = ("seconds", "games_per_second")


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_every_game_finishes_and_counts_under_a_side(players: int) -> None:
    report = simulate(10, players, 2026, HeuristicCardBot, bot_name="heuristic")
    assert report.finished == 10
    assert set(report.wins) == {"law", "outlaws", "renegade"}
    assert sum(report.wins.values()) == 10
    assert report.avg_turns > players and report.games_per_second > 0
    randoms = simulate(4, players, 2026, RandomCardBot, bot_name="random")
    assert randoms.finished == 4 and sum(randoms.wins.values()) == 4


def test_eight_players_play_with_two_renegades() -> None:
    _rng, table = game_seeds(1, 0, 8)
    seats = deal(8, table)
    assert Counter(s.role for s in seats) == Counter(EIGHT_PLAYER_ROLES)
    report = simulate(4, 8, 1, HeuristicCardBot)
    assert report.finished == 4 and report.ruleset == "cards eight_players"


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_the_deal_has_the_role_table_and_distinct_characters(players: int) -> None:
    _rng, table = game_seeds(3, players, players)
    seats = deal(players, table)
    assert [s.player for s in seats] == [f"p{i}" for i in range(1, players + 1)]
    assert Counter(s.role for s in seats) == Counter(ROLES_BY_PLAYER_COUNT[players])
    assert len({s.character for s in seats}) == players


def test_a_run_is_reproduced_by_its_seed() -> None:
    first = simulate(8, 5, 7, HeuristicCardBot).to_json()
    again = simulate(8, 5, 7, HeuristicCardBot).to_json()
    other = simulate(8, 5, 8, HeuristicCardBot).to_json()
    for report in (first, again, other):
        for key in _TIMING:
            report.pop(key)
    assert first == again
    assert first != other


def test_the_decks_and_random_picks_are_the_online_derivation_of_the_games_seed() -> None:
    rng, table = game_seeds(5, 2, 6)
    game = play_game(deal(6, table), HeuristicCardBot(), table, rng)
    seed = hashlib.sha256(b"bang-league-sim-cards:5:2").digest()
    assert table.seed == seed
    checked = Counter[str]()
    for at, event in enumerate(game.events):
        if isinstance(event, ev.DeckShuffled):
            # the cards shuffled: all 80 first, then the discard pile of the moment
            assert event.order == shuffles.shuffle(seed, at, event.order)
            checked["deck"] += 1
        if isinstance(event, ev.CardTaken) and event.random:
            hand = Game.replay(game.events[:at]).state.player(event.from_player).hand
            assert event.card == shuffles.pick(seed, at, hand)
            checked["pick"] += 1
    assert checked["deck"] >= 2, checked


def test_a_game_past_its_command_limit_is_an_error() -> None:
    rng, table = game_seeds(1, 1)
    with pytest.raises(GameDidNotEnd, match="still running after 10 commands"):
        play_game(deal(5, table), RandomCardBot(), table, rng, max_commands=10)


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(simulate_command)
    return app


def test_cli_prints_the_card_games_json_report() -> None:
    result = CliRunner().invoke(
        _app(), ["--game", "cards", "--players", "4", "--games", "6", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == report["finished"] == 6
    assert report["ruleset"] == "cards" and report["bot"] == "heuristic"
    assert set(report["wins"]) == {"law", "outlaws", "renegade"}
    assert {"avg_turns", "games_per_second"} <= set(report)
    table = CliRunner().invoke(_app(), ["--game", "cards", "--games", "3", "--bot", "random"])
    assert table.exit_code == 0 and "winning side" in table.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "3"], "4 to 7 players"),
        (["--bot", "genius"], "unknown card bot"),
        (["--modules", "OS1"], "no expansion modules"),
    ],
)
def test_cli_refuses_what_is_no_card_game(args: list[str], words: str) -> None:
    result = CliRunner().invoke(_app(), ["--game", "cards", "--games", "2", *args])
    assert result.exit_code != 0
    assert words in result.output


def test_cli_refuses_an_unknown_game_type() -> None:
    result = CliRunner().invoke(_app(), ["--game", "chess", "--games", "2"])
    assert result.exit_code != 0 and "unknown game type" in result.output
