"""Layer 2: the turn. Phase 1 draws 2 (a reshuffle of the whole discard pile when the deck is
empty, asked of the table), phase 2 plays cards one command at a time, phase 3 discards down to
the hand limit = current life; then the next living player clockwise."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.errors import IllegalCommand, NotAwaited
from services.game.rules.cards.events import CardDrawn, DeckShuffled
from services.game.rules.cards.vocabulary import TABLE, Decision, DrawReason, Phase

from .rig import DEFAULT_SEATS, P, awaits, do, end_turn, hand, rigged


def test_the_sheriff_draws_the_two_top_cards_and_is_awaited_to_play() -> None:
    game, named = rigged(DEFAULT_SEATS, deck=["barrel", "jail"])
    assert game.state.active == P[0] and game.state.phase is Phase.PLAY
    assert hand(game, 0)[-2:] == [named["barrel"], named["jail"]]
    assert len(hand(game, 0)) == 7  # 5 dealt (Sheriff) + 2
    drawn = [e for e in game.events if isinstance(e, CardDrawn)]
    assert [e.reason for e in drawn] == [DrawReason.PHASE, DrawReason.PHASE]
    assert awaits(game, 0, Decision.PLAY)


def test_only_the_awaited_player_may_act() -> None:
    game, _ = rigged(DEFAULT_SEATS)
    with pytest.raises(NotAwaited):
        do(game, cmd.EndPlay(player=P[1]))
    with pytest.raises(NotAwaited):
        do(game, cmd.Pass(player=P[0]))


def test_discard_phase_down_to_current_life_exactly() -> None:
    game, _ = rigged(DEFAULT_SEATS)
    do(game, cmd.EndPlay(player=P[0]))
    q = game.awaiting
    assert q is not None and q.decision is Decision.DISCARD and q.count == 2  # 7 cards, 5 life
    with pytest.raises(IllegalCommand):
        do(game, cmd.Discard(player=P[0], cards=tuple(hand(game, 0)[:1])))
    with pytest.raises(IllegalCommand):
        do(game, cmd.Discard(player=P[0], cards=(hand(game, 0)[0], hand(game, 0)[0])))
    kept = hand(game, 0)[:5]
    do(game, cmd.Discard(player=P[0], cards=tuple(hand(game, 0)[5:])))
    assert hand(game, 0) == kept
    assert game.state.active == P[1] and game.state.turn == 2
    assert len(hand(game, 1)) == 6  # 4 dealt + 2 drawn


def test_no_discard_when_the_hand_fits() -> None:
    game, _ = rigged(DEFAULT_SEATS)
    end_turn(game, 0)
    # p2: 6 cards, life 4 -> discards 2; after him p3
    do(game, cmd.EndPlay(player=P[1]))
    assert awaits(game, 1, Decision.DISCARD)


def test_turns_go_clockwise_and_the_deck_is_reshuffled_from_the_whole_discard_pile() -> None:
    game, _ = rigged(DEFAULT_SEATS)
    turns = 0
    while not awaits(game, None, Decision.SHUFFLE):
        q = game.awaiting
        assert q is not None
        end_turn(game, P.index(q.player))
        turns += 1
        assert turns < 40
    s = game.state
    assert s.deck == [] and s.phase is Phase.DRAW
    pile = list(s.discard)
    q = game.awaiting
    assert q is not None and q.player == TABLE and sorted(q.cards) == sorted(pile)
    order = tuple(reversed(pile))
    events = do(game, cmd.ShuffleDeck(player=TABLE, order=order))
    assert isinstance(events[0], DeckShuffled)
    assert game.state.discard == [] or all(c not in game.state.deck for c in game.state.discard)
    assert len(game.state.deck) == len(pile) - sum(isinstance(e, CardDrawn) for e in events)
    # players took turns in seat order
    from services.game.rules.cards.events import TurnStarted

    starts = [e.player for e in game.events if isinstance(e, TurnStarted)]
    assert starts[:8] == [P[0], P[1], P[2], P[3], P[0], P[1], P[2], P[3]]
