"""The simulation harness: fair deals, games that end, reproducible runs, the CLI's report."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
import typer
from typer.testing import CliRunner

from bang_cli.simulate import simulate as simulate_command
from services.game.bots import HeuristicBot, RandomBot
from services.game.engines import implemented_modules
from services.game.rules.dice import InvalidSetup, roles_for
from services.game.rules.dice import modules as dice_modules
from services.game.rules.dice.events import GameEnded
from services.game.rules.dice.vocabulary import PlayerId, Side
from services.game.rules.ruleset import MODULES, ModuleId, refusal, ruleset_of
from services.game.simulation import (
    GameDidNotEnd,
    SimulationReport,
    Unplayable,
    deal,
    game_seeds,
    outbreak_turn,
    play_game,
    simulate,
)


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


# --- module sets (Old Saloon) ---------------------------------------------------------------------


def _module_sets() -> list[tuple[str, ...]]:
    """Every set of one expansion's implemented modules, alone and with all of the other's (the
    whole cross product is a thousand sets): each module meets each other in some set."""
    implemented = sorted(implemented_modules())

    def subsets(prefix: str) -> list[tuple[str, ...]]:
        own = [m for m in implemented if m.startswith(prefix)]
        return [s for k in range(len(own) + 1) for s in itertools.combinations(own, k)]

    saloon, undead = subsets("OS"), subsets("UA")
    sets = {*saloon, *undead, *(s + saloon[-1] for s in undead), *(undead[-1] + s for s in saloon)}
    # a set the rules refuse at every size (UA1 without UA2) is no game to simulate
    return sorted(
        (tuple(sorted(s)) for s in sets if refusal(ruleset_of(s), 8) is None), key=lambda s: (len(s), s)
    )


@pytest.mark.parametrize("modules", _module_sets(), ids=lambda s: " ".join(s) or "base")
def test_every_module_set_finishes_its_games_at_every_allowed_table_size(modules: tuple[str, ...]) -> None:
    ruleset = ruleset_of(modules)
    sizes = [n for n in range(3, 9) if refusal(ruleset, n) is None]
    least = max([3, *(MODULES[ModuleId(m)].min_players for m in modules)])
    assert sizes == list(range(least, 9))
    for players in sizes:
        report = simulate(3, players, 11, HeuristicBot, ruleset=ruleset).to_json()
        assert report["finished"] == 3 and report["ruleset"] == ruleset.text
        wins = report["wins"]
        assert isinstance(wins, dict) and sum(wins.values()) == 3
        three = {"deputy", "outlaw", "renegade", "none"}
        base = three if players == 3 else {"law", "outlaws", "renegade"}
        # UA4: the sides that win after an outbreak too, and the outbreaks counted
        assert set(wins) == (base | {"zombies", "survivors"} if "UA4" in modules else base)
        assert ("outbreaks" in report) == ("UA4" in modules)


def test_a_module_run_deals_from_the_ruleset_pool_and_rolls_each_die_of_its_kind() -> None:
    ruleset = ruleset_of(["OS1"])
    kinds_rolled: set[str] = set()
    for index in range(10):
        rng, dice = game_seeds(4, index, ruleset)
        game = play_game(deal(5, rng, ruleset), HeuristicBot(), dice, rng, ruleset=ruleset)
        for event in game.events:
            if type(event).__name__ == "SaloonDieChosen" and event.die is not None:  # type: ignore[attr-defined]
                kinds_rolled.add(event.die)  # type: ignore[attr-defined]
        # every face rolled is one of its die's kind (the engine refuses any other roll)
        assert game.is_over
    assert kinds_rolled == {"loudmouth", "coward"}
    # the same seed replays the same games
    again = simulate(8, 5, 4, HeuristicBot, ruleset=ruleset).to_json()
    first = simulate(8, 5, 4, HeuristicBot, ruleset=ruleset).to_json()
    for report in (first, again):
        report.pop("seconds")
        report.pop("games_per_second")
    assert first == again


def test_cli_plays_a_module_set_and_reports_its_ruleset() -> None:
    app = typer.Typer()
    app.command()(simulate_command)
    result = CliRunner().invoke(app, ["-n", "4", "-p", "5", "--modules", "OS2, OS1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ruleset"] == "dice OS1 OS2" and report["finished"] == 4
    assert set(report["wins"]) == {"law", "outlaws", "renegade"}
    base = json.loads(CliRunner().invoke(app, ["-n", "2", "--json"]).output)
    assert base["ruleset"] == "dice"


def _words(output: str) -> str:
    """The CLI's message as one line of words (the error box's frame and wrapping left out)."""
    return " ".join(output.translate(str.maketrans("", "", "│╭╮╰╯─")).split())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-p", "4", "--modules", "OS5"], "the Ghost (OS5) needs 5 or more players"),
        (["--modules", "OS1,XX"], "unknown module 'XX'"),
        (["--modules", "OS1,OS1"], "module OS1 is named twice"),
        (["--modules", "UA1"], "module UA1 needs UA2"),
        (["-p", "3", "--modules", "UA1,UA2,UA4"], "the zombie outbreak (UA4) needs 4 or more players"),
        (["-p", "3", "--modules", "OS3"], "the special roles (OS3) need 4 or more players"),
        (["-p", "3", "--modules", "UA5"], "the legacy series (UA5) needs 4 or more players"),
        (["-p", "9", "--modules", "UA2"], "less than or equal to 8"),
        (["-p", "5", "--modules", "UA3 UA1"], "module UA1 needs UA2"),
    ],
)
def test_cli_refuses_a_module_set_that_is_not_a_game_in_its_words(args: list[str], words: str) -> None:
    app = typer.Typer()
    app.command()(simulate_command)
    result = CliRunner().invoke(app, ["-n", "1", *args])
    assert result.exit_code == 2
    assert words in _words(result.output), result.output


def test_a_module_not_implemented_yet_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # every module may be registered by now: this server then lacks one for the test's sake
    missing = next((m for m in ("UA2", "UA3", "UA5", "OS4") if m not in implemented_modules()), None)
    if missing is None:
        missing = "UA5"
        monkeypatch.delitem(dice_modules._REGISTERED, ModuleId.UA5)
    with pytest.raises(Unplayable, match=f"module {missing} .* is not implemented by this server yet"):
        simulate(1, 5, 0, HeuristicBot, ruleset=ruleset_of([missing]))


def test_cli_reads_modules_separated_by_commas_or_spaces_and_the_ruleset_s_text() -> None:
    app = typer.Typer()
    app.command()(simulate_command)
    for text in ("UA1,UA2,UA3", "UA3 UA2 UA1", "dice UA1 UA2 UA3", " UA1, UA2 ,UA3 "):
        result = CliRunner().invoke(app, ["-n", "2", "-p", "4", "--modules", text, "--json"])
        assert result.exit_code == 0, (text, result.output)
        assert json.loads(result.output)["ruleset"] == "dice UA1 UA2 UA3"


def test_every_allowed_module_set_is_accepted_and_every_refused_one_says_why() -> None:
    """Every set of the registered modules at every size: simulated when the rules allow it,
    refused in the rules' words when they do not (never an error of another kind)."""
    app = typer.Typer()
    app.command()(simulate_command)
    implemented = sorted(implemented_modules())
    every = [s for k in range(len(implemented) + 1) for s in itertools.combinations(implemented, k)]
    rng = random.Random(5)
    checked = refused = 0
    for modules in every:
        for players in (3, 4, 5):
            reason = refusal(ruleset_of(modules), players)
            if reason is None and rng.random() > 0.15:
                continue  # a sample of the allowed ones is played (all are, in the test above)
            args = ["-n", "1", "-p", str(players), "--modules", ",".join(modules), "--json"]
            result = CliRunner().invoke(app, args)
            if reason is None:
                assert result.exit_code == 0, (modules, players, result.output)
                assert json.loads(result.output)["finished"] == 1
                checked += 1
            else:
                assert result.exit_code == 2, (modules, players, result.output)
                assert reason in _words(result.output), result.output
                refused += 1
    assert checked > 5 and refused > 5


class _Finish:
    def __init__(self, side: str, turn: int) -> None:
        self.winners, self.turn = (side,), turn


class _Ended:
    def __init__(self, outbreak: int | None) -> None:
        extra = {} if outbreak is None else {"outbreak_turn": outbreak}
        self.events = [
            GameEnded(winning_side=Side.LAW, winners=(PlayerId("p1"),), results=(), turn=9, **extra)
        ]


def test_outbreaks_are_counted_from_the_games_end_and_reported_with_their_rate() -> None:
    report = SimulationReport(games=4, players=6, seed=0, bot="heuristic", ruleset="dice UA1 UA2 UA4")
    report.outbreaks = 0  # a UA4 run reports outbreaks even when none happened
    assert report.to_json()["outbreaks"] == 0
    for side, outbreak in (("zombies", 5), ("survivors", 7), ("law", None), ("outlaws", None)):
        assert outbreak_turn(_Ended(outbreak)) == outbreak  # type: ignore[arg-type]
        report.add(_Ended(outbreak), _Finish(side, 12))  # type: ignore[arg-type]
    out = report.to_json()
    assert out["outbreaks"] == 2 and out["outbreak_rate"] == 0.5
    assert out["wins"] == {"law": 1, "outlaws": 1, "survivors": 1, "zombies": 1}
    # a run without UA4 says nothing of outbreaks, unless a game had one
    plain = SimulationReport(games=1, players=5, seed=0, bot="heuristic")
    plain.add(_Ended(None), _Finish("law", 10))  # type: ignore[arg-type]
    assert "outbreaks" not in plain.to_json()


def test_a_zombie_run_reports_its_sides_and_outbreaks_once_ua4_is_played() -> None:
    ua4 = ruleset_of(["UA1", "UA2", "UA4"])
    if ModuleId.UA4 not in implemented_modules():
        with pytest.raises(Unplayable, match=r"module UA4 .* is not implemented by this server yet"):
            simulate(1, 5, 0, HeuristicBot, ruleset=ua4)
        return
    report = simulate(30, 6, 3, HeuristicBot, ruleset=ua4).to_json()
    assert report["finished"] == 30
    wins = report["wins"]
    assert isinstance(wins, dict) and {"law", "outlaws", "renegade", "zombies", "survivors"} == set(wins)
    outbreaks = report["outbreaks"]
    assert isinstance(outbreaks, int) and 0 <= outbreaks <= 30
    assert wins["zombies"] + wins["survivors"] <= outbreaks  # only a game after an outbreak ends so
