"""A public summary of a game, JSON-ready: what ``rules run --json`` will print and what any
seat may see. Hands are counts, the deck a count, roles shown only where the rules show them
(the Sheriff's, an eliminated player's, everyone's once the game is over)."""

from __future__ import annotations

from typing import Any

from services.game.rules.cards.decide import awaiting
from services.game.rules.cards.deck import card
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import Role


def role_public(state: GameState, player: str) -> bool:
    p = next(p for p in state.players if p.id == player)
    return p.role is Role.SHERIFF or not p.alive or state.is_over


def summary(state: GameState) -> dict[str, Any]:
    q = awaiting(state)
    result = state.result
    return {
        "status": "ended" if state.is_over else "ongoing",
        "winning_side": result.winner.value if result is not None else None,
        "winners": [r.player for r in result.results if r.won] if result is not None else [],
        "turn": state.turn,
        "active_player": state.active or None,
        "phase": state.phase.value,
        "deck": len(state.deck) + len(state.pool),
        "discard_top": card(state.discard[-1]).text if state.discard else None,
        "discard": len(state.discard),
        "general_store": [card(c).text for c in state.store],
        "players": {
            p.id: {
                "character": p.character.value,
                "role": p.role.value if role_public(state, p.id) else None,
                "life": p.life,
                "max_life": p.max_life,
                "alive": p.alive,
                "hand": len(p.hand),
                "in_play": [card(c).text for c in p.in_play],
            }
            for p in state.players
        },
        "awaiting": None
        if q is None
        else {
            "player": q.player,
            "decision": q.decision.value,
            **({"from_player": q.from_player} if q.from_player else {}),
            **({"count": q.count} if q.count else {}),
        },
    }
