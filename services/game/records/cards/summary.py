"""A card game's state as plain JSON data: what ``rules run --json`` prints and scenarios check.

The engine's public summary (``rules/cards/summary.py``: hands as counts, roles only where the
rules show them), with the players as a list like the dice game's, and each player's result.
"""

from __future__ import annotations

from typing import Any

from services.game.rules.cards import Game
from services.game.rules.cards.summary import summary


def summarize_cards(game: Game) -> dict[str, Any]:
    state = game.state
    view = summary(state)
    results = {r.player: r for r in state.result.results} if state.result is not None else {}
    players = []
    for p in state.players:
        row = {"id": p.id, **view["players"][p.id]}
        result = results.get(p.id)
        row["won"] = None if result is None else result.won
        # a player id, ``dynamite`` or ``self`` (as in the result); None for one out before a position
        cause = None if p.eliminated_cause is None else p.eliminated_cause.value
        row["eliminated_by"] = p.eliminated_by or cause
        row["eliminated_turn"] = p.eliminated_turn
        players.append(row)
    return {**view, "players": players, "events": len(game.events)}
