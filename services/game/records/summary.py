"""The state of a game as plain JSON data: what ``rules run --json`` prints and scenarios check."""

from __future__ import annotations

from typing import Any

from services.game.rules.dice import Awaiting, Game


def summarize(game: Game) -> dict[str, Any]:
    state = game.state
    result = state.result
    turn = state.turn
    won = {r.player: r.won for r in result.results} if result is not None else {}
    return {
        "status": "ended" if game.is_over else "ongoing",
        "winning_side": None if result is None or result.winning_side is None else result.winning_side.value,
        "winners": [] if result is None else list(result.winners),
        "turn": turn.number if turn is not None else state.last_turn_number,
        "active_player": None if turn is None or game.is_over else turn.player,
        "dice": None if turn is None else list(turn.dice),
        "rolls_used": 0 if turn is None else turn.rolls_used,
        "arrow_pile": state.arrow_pile,
        "awaiting": awaiting_to_object(game.awaiting),
        "players": [
            {
                "id": p.id,
                "role": p.role.value,
                "character": p.character.id.value,
                "life": p.life,
                "max_life": p.max_life,
                "arrows": p.arrows,
                "alive": p.alive,
                "eliminated_by": p.eliminated_by,
                "eliminated_cause": None if p.eliminated_cause is None else p.eliminated_cause.value,
                "eliminated_turn": p.eliminated_turn,
                "won": won.get(p.id),
            }
            for p in state.players
        ],
        "events": len(game.events),
    }


def awaiting_to_object(question: Awaiting | None) -> dict[str, Any] | None:
    """The open question as plain JSON data (the same shape in summaries and game views)."""
    if question is None:
        return None
    return {
        "player": question.player,
        "decision": question.decision.value,
        "dice": list(question.dice),
        "max_count": question.max_count,
        "rolls_left": question.rolls_left,
    }
