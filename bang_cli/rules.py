"""`bang-league rules run FILE [--json] [--trace]`: replay a game record and show where it stands.
`bang-league rules position FILE --at N [--unknown-deck]`: the same game as a position record
from its resting point after N inputs (a dice or a card record; --unknown-deck: the card deck's
order forgotten there).

A referee's tool: hand it a rule case or a club's table game, of the dice game
(``bang-dice-record``) or the card game (``bang-cards-record``), and it prints the resulting
state (players, life, arrows or cards, whose turn, what is awaited, who won). An input the
rules refuse stops the replay with exit code 2 and the engine's reason on stderr, naming the
input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from services.game.records import RecordError, position_record, write_record
from services.game.records.cards import CardRecord, restate_card_record, write_card_record
from services.game.records.dispatch import (
    read_any_record,
    replay_any_record,
    summarize_any,
    trace_any_line,
)

ERROR_EXIT = 2
"""Exit code for a record that is malformed or holds an illegal input (as for a usage error)."""

app = typer.Typer(no_args_is_help=True, help="Rule cases and game records of BANG! (dice and cards).")


@app.callback()
def rules() -> None:
    """Rule cases and game records of BANG! The Dice Game and the card game."""
    # a callback keeps `run` a sub-command even while it is the only one


@app.command("run")
def run(
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, readable=True, help="A game record (JSON).")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the resulting state as one JSON object.")
    ] = False,
    trace: Annotated[
        bool,
        typer.Option(
            "--trace", help="Print each event as it happens (to stderr with --json: stdout stays JSON)."
        ),
    ] = False,
) -> None:
    """Replay a game record and print the resulting state."""

    def show(n: int, event: Any) -> None:
        typer.echo(f"[{n}] {trace_any_line(event)}", err=as_json)

    try:
        record = read_any_record(file)
        game = replay_any_record(record, on_event=show if trace else None)
    except RecordError as e:  # IllegalInput included: its message names the input
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(ERROR_EXIT) from None
    state = summarize_any(game)
    if as_json:
        typer.echo(json.dumps(state, indent=2))
    elif "arrow_pile" in state:
        Console(file=sys.stdout).print(_table(state))
    else:
        Console(file=sys.stdout).print(_card_table(state))


@app.command("position")
def position(
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, readable=True, help="A game record (JSON).")
    ],
    at: Annotated[int, typer.Option("--at", min=0, help="Inputs played before the position (0: none).")],
    unknown_deck: Annotated[
        bool,
        typer.Option(
            "--unknown-deck",
            help="The card game: forget the deck's order there; each card then taken is named (table top N).",
        ),
    ] = False,
) -> None:
    """Print the record as a position record from input N on: the game's state after its first
    N inputs as the position, the inputs after them as its inputs (docs/game-records.md)."""
    try:
        record = read_any_record(file)
        if isinstance(record, CardRecord):
            typer.echo(write_card_record(restate_card_record(record, at, unknown_deck=unknown_deck)))
            return
        if unknown_deck:
            typer.echo("error: --unknown-deck is for a card game record (dice have no deck)", err=True)
            raise typer.Exit(ERROR_EXIT)
        restated = position_record(record, at)
    except RecordError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(ERROR_EXIT) from None
    typer.echo(write_record(restated), nl=False)


def _table(state: dict[str, Any]) -> Table:
    if state["status"] == "ended":
        winners = " ".join(state["winners"]) or "nobody"
        side = state["winning_side"]
        verb = "win" if side in (None, "outlaws") else "wins"
        caption = f"ended on turn {state['turn']}: {side or 'no side'} {verb} ({winners})"
    else:
        q = state["awaiting"]
        dice = " ".join(f or "-" for f in state["dice"] or [])
        caption = f"turn {state['turn']}, {state['active_player']} to play; dice: {dice or '-'}; awaiting "
        caption += f"{q['player']} {q['decision']}" + (f" (dice {q['dice']})" if q["dice"] else "")
    table = Table(title=f"arrow pile: {state['arrow_pile']}", caption=caption)
    for column in ("player", "role", "character", "life", "arrows", "status"):
        table.add_column(column, justify="right" if column in ("life", "arrows") else "left")
    for p in state["players"]:
        if p["alive"]:
            status = "alive"
        elif not p["eliminated_turn"]:
            status = "out before the record"  # a position's player at 0 life: no turn, no cause known
        else:
            status = f"out (turn {p['eliminated_turn']}, {p['eliminated_by'] or p['eliminated_cause']})"
        if p["won"] is not None:
            status += ", won" if p["won"] else ", lost"
        table.add_row(
            p["id"], p["role"], p["character"], f"{p['life']}/{p['max_life']}", str(p["arrows"]), status
        )
    return table


def _card_table(state: dict[str, Any]) -> Table:
    if state["status"] == "ended":
        side = state["winning_side"]
        verb = "win" if side == "outlaws" else "wins"
        caption = f"ended on turn {state['turn']}: {side} {verb} ({' '.join(state['winners'])})"
    else:
        q = state["awaiting"]
        caption = f"turn {state['turn']}, {state['active_player']} in phase {state['phase']}; awaiting "
        caption += f"{q['player']} {q['decision']}" + (f" ({q['count']})" if q.get("count") else "")
    title = f"deck: {state['deck']}, discard pile: {state['discard']} (top {state['discard_top'] or '-'})"
    table = Table(title=title, caption=caption)
    for column in ("player", "role", "character", "life", "hand", "in play", "status"):
        table.add_column(column, justify="right" if column in ("life", "hand") else "left")
    for p in state["players"]:
        if p["alive"]:
            status = "alive"
        elif not p["eliminated_turn"]:
            status = "out before the record"
        else:
            status = f"out (turn {p['eliminated_turn']}, {p['eliminated_by']})"
        if p["won"] is not None:
            status += ", won" if p["won"] else ", lost"
        table.add_row(
            p["id"],
            p["role"] or "?",
            p["character"],
            f"{p['life']}/{p['max_life']}",
            str(p["hand"]),
            " ".join(p["in_play"]) or "-",
            status,
        )
    return table
