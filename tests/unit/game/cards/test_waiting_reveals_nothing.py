"""Waiting never reveals a hand (issue 14; RULINGS-cards, "Automatic pass"): at every point of
random games, what the engine does next (asks whom for what, or plays by itself: an automatic
pass, Suzy Lafayette's draw, an elimination) is the same when every hand's contents are
replaced by other cards of the same sizes.

``test_properties.test_who_is_awaited_for_what_never_depends_on_hidden_cards`` compares the
questions of positions at rest only; an automatic pass is played between two rests, so it is
compared here, where a pass the engine plays because of a card's absence would show."""

from __future__ import annotations

from typing import Any

from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.evolve import evolve
from services.game.rules.cards.flow import next_move
from services.game.rules.cards.game import Game
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import Decision

from .test_properties import random_game


def _with_other_hands(s: GameState, shift: int) -> GameState:
    other = s.clone()
    for p in other.players:
        p.hand = [((c - 1 + shift) % 80) + 1 for c in p.hand]  # type: ignore[misc]
    return other


def _shape(move: Any) -> Any:
    """What anybody sees of the next move: who is asked for what, or which automatic events
    follow for whom (a card a hand gives up is named in the event, not part of the shape)."""
    if move is None:
        return None
    if isinstance(move, Awaiting):
        shown = move.cards if move.decision is Decision.DRAW_RESULT else ()
        return ("ask", move.player, move.decision, move.from_player, move.count, shown)
    return tuple((type(e).__name__, getattr(e, "player", None), getattr(e, "automatic", None)) for e in move)


def test_what_the_engine_does_next_never_depends_on_the_contents_of_hands() -> None:
    automatic = compared = 0
    for seed in range(16):
        game, _ = random_game(900 + seed, 4 + seed % 4)
        state = Game.replay(game.events[:1]).state
        for event in game.events[1:]:
            evolve(state, event)
            if not state.dealt or state.is_over:
                continue
            move = next_move(state)
            if isinstance(move, Awaiting) and move.decision in (Decision.STORE_PICK, Decision.KIT_RETURN):
                continue
            if isinstance(move, list) and any(isinstance(e, ev.Passed) and e.automatic for e in move):
                automatic += 1
            for shift in (17, 41):
                assert _shape(next_move(_with_other_hands(state, shift))) == _shape(move), event
            compared += 1
    assert compared > 3000 and automatic > 50, (compared, automatic)
