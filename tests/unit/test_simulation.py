"""The simulation harness: fair deals, games that end, reproducible runs, the CLI's report."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import typer
from typer.testing import CliRunner

from bang_cli.simulate import simulate as simulate_command
from services.game.bots import HeuristicBot, RandomBot
from services.game.rules.dice import InvalidSetup, roles_for
from services.game.simulation import GameDidNotEnd, deal, game_seeds, play_game, simulate


@pytest.mark.parametrize("players", range(3, 9))
def test_deal_gives_the_role_table_and_distinct_characters(players: int) -> None:
    seats = deal(players, random.Random(players))
    assert [s.player for s in seats] == [f"p{i}" for i in range(1, players + 1)]
    assert Counter(s.role for s in seats) == Counter(roles_for(players))
    assert len({s.character for s in seats}) == players


def test_deal_refuses_impossible_player_counts() -> None:
    with pytest.raises(InvalidSetup):
        deal(9, random.Random(0))


def test_a_game_past_its_command_limit_is_an_error() -> None:
    rng, dice = game_seeds(1, 1)
    with pytest.raises(GameDidNotEnd, match="still running after 10 commands"):
        play_game(deal(5, rng), RandomBot(), dice, rng, max_commands=10)


def test_a_run_is_reproduced_by_its_seed() -> None:
    first = simulate(40, 5, 7, HeuristicBot).to_json()
    again = simulate(40, 5, 7, HeuristicBot).to_json()
    other = simulate(40, 5, 8, HeuristicBot).to_json()
    for report in (first, again, other):
        report.pop("seconds")
        report.pop("games_per_second")
    assert first == again
    assert first != other


def test_report_counts_every_game_under_a_side() -> None:
    report = simulate(60, 3, 0, RandomBot)
    assert report.finished == 60
    assert set(report.wins) == {"deputy", "outlaw", "renegade", "none"}
    assert sum(report.wins.values()) == 60
    assert report.avg_turns > 1 and report.games_per_second > 0
    progress: list[int] = []
    simulate(5, 8, 0, RandomBot, progress=progress.append)
    assert progress == [1, 2, 3, 4, 5]


def test_cli_prints_the_json_report() -> None:
    app = typer.Typer()
    app.command()(simulate_command)
    result = CliRunner().invoke(app, ["--games", "12", "--players", "4", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == report["finished"] == 12
    assert set(report["wins"]) == {"law", "outlaws", "renegade"}
    assert {"avg_turns", "games_per_second"} <= set(report)
    table = CliRunner().invoke(app, ["--games", "5", "--bot", "random"])
    assert table.exit_code == 0 and "winning side" in table.output
    bad = CliRunner().invoke(app, ["--bot", "genius"])
    assert bad.exit_code != 0
