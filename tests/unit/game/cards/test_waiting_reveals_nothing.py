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
from services.game.rules.cards.legal import legal_commands
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, Decision

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


def test_the_options_listed_to_the_awaited_player_never_depend_on_the_other_hands() -> None:
    """The legal commands a seat is shown (``_legal_for`` lists them to him) are a function of
    his own hand and public information: the same when every other hand holds other cards."""
    compared = 0
    for seed in range(8):
        game, _ = random_game(700 + seed, 4 + seed % 4)
        state = Game.replay(game.events[:1]).state
        for n, event in enumerate(game.events[1:]):
            evolve(state, event)
            move = next_move(state) if state.dealt and not state.is_over else None
            if not isinstance(move, Awaiting) or move.player == TABLE or move.decision is Decision.DISCARD:
                continue
            if n % 3:
                continue
            listed = list(legal_commands(state))
            for shift in (17, 41):
                other = state.clone()
                for p in other.players:
                    if p.id != move.player:
                        p.hand = [((c - 1 + shift) % 80) + 1 for c in p.hand]  # type: ignore[misc]
                assert list(legal_commands(other)) == listed, move.describe()
            compared += 1
    assert compared > 300, compared
