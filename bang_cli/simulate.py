"""`bang-league simulate`: play bot games and report who wins and how fast.

Mounted in `bang_cli/main.py` as a plain command; all the work is in `services.game.simulation`.
"""

from __future__ import annotations

import json
import re
import sys

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from services.game import simulation_cards
from services.game.bots import BOTS
from services.game.bots.cards import CARD_BOTS
from services.game.rules.ruleset import Ruleset, RulesetError, ruleset_of
from services.game.simulation import SimulationReport, Unplayable, check_playable
from services.game.simulation import simulate as run_simulation

_PROGRESS_FROM = 200
"""Runs this long or longer get a progress bar (on a terminal, without --json)."""


def simulate(
    games: int = typer.Option(100, "--games", "-n", min=1, help="How many games to play."),
    players: int = typer.Option(
        5,
        "--players",
        "-p",
        min=3,
        max=8,
        help="Players per game (dice 3 to 8; cards 4 to 7, 8 with two Renegades).",
    ),
    seed: int = typer.Option(
        0, "--seed", "-s", help="Seed of the whole run; the same seed plays the same games."
    ),
    bot: str = typer.Option("heuristic", "--bot", help=f"Bot for every seat: {', '.join(BOTS)}."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
    game: str = typer.Option("dice", "--game", "-g", help="Game type: dice, or cards (BANG! the card game)."),
    modules: str = typer.Option(
        "",
        "--modules",
        "-m",
        help="Expansion modules to play, comma- or space-separated (e.g. OS1,OS2 or 'UA1 UA2'); "
        "none: the base game. A set the rules refuse (UA1 without UA2, the Ghost at 4 players) "
        "is refused, saying why.",
    ),
) -> None:
    """Play N bot games of K players and report the wins by side, game length and speed."""
    if game == "cards":
        simulate_cards(games, players, seed, bot, as_json=as_json, modules=modules)
        return
    if game != "dice":
        raise typer.BadParameter(f"unknown game type {game!r}; choose dice or cards", param_hint="--game")
    if bot not in BOTS:
        raise typer.BadParameter(f"unknown bot {bot!r}; choose one of {', '.join(BOTS)}", param_hint="--bot")
    factory = BOTS[bot]
    ruleset = parse_modules(modules, players)
    console = Console()
    if not as_json and games >= _PROGRESS_FROM and sys.stdout.isatty():
        with Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
        ) as bar:
            task = bar.add_task("games", total=games)
            report = run_simulation(
                games,
                players,
                seed,
                factory,
                bot_name=bot,
                ruleset=ruleset,
                progress=lambda done: bar.update(task, completed=done),
            )
    else:
        report = run_simulation(games, players, seed, factory, bot_name=bot, ruleset=ruleset)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        console.print(render(report))


def simulate_cards(games: int, players: int, seed: int, bot: str, *, as_json: bool, modules: str) -> None:
    """``--game cards``: the card game's bots, 4 to 7 players (8 with two Renegades)."""
    if bot not in CARD_BOTS:
        raise typer.BadParameter(
            f"unknown card bot {bot!r}; choose one of {', '.join(CARD_BOTS)}", param_hint="--bot"
        )
    if modules.strip():
        raise typer.BadParameter("the card game has no expansion modules here", param_hint="--modules")
    if players not in simulation_cards.CARD_PLAYER_COUNTS:
        raise typer.BadParameter(
            f"the card game is for 4 to 7 players (8 with two Renegades), not {players}",
            param_hint="--players",
        )
    factory = CARD_BOTS[bot]
    console = Console()
    if not as_json and games >= _PROGRESS_FROM and sys.stdout.isatty():
        with Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
        ) as bar:
            task = bar.add_task("games", total=games)
            report = simulation_cards.simulate(
                games,
                players,
                seed,
                factory,
                bot_name=bot,
                progress=lambda done: bar.update(task, completed=done),
            )
    else:
        report = simulation_cards.simulate(games, players, seed, factory, bot_name=bot)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        console.print(render(report))


def parse_modules(text: str, players: int) -> Ruleset:
    """The ruleset of ``--modules`` (``OS1,OS2``; empty: the base game), refused in the
    ruleset's own words when it is not a game of ``players`` players this server plays."""
    names = [name for name in re.split(r"[\s,]+", text) if name]
    if names and names[0].lower() == "dice":
        names = names[1:]  # the ruleset's text form: "dice UA1 UA2"
    try:
        ruleset = ruleset_of(names)
        check_playable(ruleset, players)
    except (RulesetError, Unplayable) as error:
        raise typer.BadParameter(str(error), param_hint="--modules") from None
    return ruleset


def render(report: SimulationReport) -> Table:
    table = Table(
        title=f"{report.finished} games of {report.players} players, {report.ruleset} "
        f"({report.bot} bots, seed {report.seed})"
    )
    table.add_column("winning side")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for side, count in sorted(report.wins.items(), key=lambda kv: -kv[1]):
        share = count / report.finished if report.finished else 0.0
        table.add_row(side, str(count), f"{share:.1%}")
    outbreaks = ""
    if report.outbreaks is not None:
        outbreaks = f"outbreaks in {report.outbreaks} games ({report.outbreak_rate or 0.0:.1%}) · "
    table.caption = (
        f"{outbreaks}average {report.avg_turns:.1f} turns per game · {report.games_per_second:,.0f} games/s "
        f"({report.seconds:.2f} s)"
    )
    return table
