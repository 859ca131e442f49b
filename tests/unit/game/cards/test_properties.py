"""Random legal games at 4–7 players (and 8 with the option). The random inputs (the shuffles)
and every choice come from a seeded generator here, outside the engine. Checked after every
command: the 80 cards are all somewhere (deck, discard pile, hands, in play, the General Store,
Kit Carlson's look, the card being resolved); life stays within bounds; the engine awaits one
player, who has a legal option. At the end: replaying the events equals the live state, and the
game ended within a bound."""

from __future__ import annotations

import math
import random

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.events import DeckShuffled, GameStarted, Seat, TopCardNamed
from services.game.rules.cards.evolve import fold
from services.game.rules.cards.game import Game
from services.game.rules.cards.setup import EIGHT_PLAYER_ROLES, ROLES_BY_PLAYER_COUNT
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, CharacterId, Decision, Side

from .rig import P

MAX_COMMANDS = 3000


def all_cards(s: GameState) -> list[int]:
    cards = [*s.deck, *s.pool, *s.discard, *s.store, *s.kit]
    for p in s.players:
        cards += p.hand + p.in_play
    if s.res is not None and s.res.card is not None and not s.res.resolved:
        cards.append(s.res.card)
    return sorted(cards)


def random_game(
    seed: int, n: int, log: list[cmd.Command] | None = None, *, unknown_order: bool = False
) -> tuple[Game, int]:
    """A random legal game; ``unknown_order``: shuffled as at a table, every card named as it
    is taken."""
    rng = random.Random(seed)
    roles = list(EIGHT_PLAYER_ROLES if n == 8 else ROLES_BY_PLAYER_COUNT[n])
    rng.shuffle(roles)
    chars = rng.sample(list(CharacterId), n)
    game = Game.start(
        [Seat(player=P[i], role=roles[i], character=chars[i]) for i in range(n)], eight_players=n == 8
    )
    commands = 0
    while not game.is_over:
        q = game.awaiting
        assert q is not None
        if q.decision is Decision.SHUFFLE:
            order = [] if unknown_order else list(q.cards)
            rng.shuffle(order)
            command: cmd.Command = cmd.ShuffleDeck(player=TABLE, order=tuple(order))
        elif q.decision is Decision.TOP_CARD:
            command = cmd.NameTopCard(player=TABLE, card=rng.choice(game.state.pool))
        elif q.decision is Decision.DISCARD and (
            rng.random() < 0.9 or math.comb(len(game.state.player(q.player).hand), q.count) > 200
        ):
            # listing every way to discard k of n cards explodes with a big hand (C(30, 15) choices
            # took a run to 18 GB): pick k directly
            hand = game.state.player(q.player).hand
            command = cmd.Discard(player=q.player, cards=tuple(rng.sample(hand, q.count)))
        else:
            options = list(game.legal_commands())
            assert options, f"nothing legal for {q.describe()}"
            if q.decision is Decision.PLAY and len(options) > 1 and rng.random() < 0.8:
                options = [o for o in options if not isinstance(o, cmd.EndPlay)]
            command = rng.choice(options)
        assert command.player == q.player
        if q.player != TABLE:
            awaited = game.state.player(q.player)
            # the dead never act: only a player at 0 or less, dying or ordering his discards
            assert awaited.alive and (
                awaited.life > 0 or q.decision in (Decision.DYING, Decision.DISCARD_ORDER)
            )
        if isinstance(command, cmd.PlayCard) and command.target is not None:
            assert game.state.player(command.target).alive
        game.play(command)
        if log is not None:
            log.append(command)
        commands += 1
        s = game.state
        assert all_cards(s) == list(range(1, 81)), f"cards lost or doubled after {command}"
        for p in s.players:
            assert -2 <= p.life <= p.max_life, f"{p.id} at {p.life}/{p.max_life}"
        assert commands < MAX_COMMANDS, "the game did not end"
    return game, commands


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_random_legal_games_keep_the_invariants_and_end(n: int) -> None:
    winners: set[Side] = set()
    for seed in range(30):
        game, _ = random_game(1000 * n + seed, n)
        assert game.result is not None
        winners.add(game.result.winner)
        assert fold(game.events) == game.state
        assert Game.replay(game.events).state == game.state
        results = {r.player: r for r in game.result.results}
        sheriff = next(r for r in game.result.results if r.role == "sheriff")
        if game.result.winner is Side.LAW:
            assert sheriff.alive and all(
                not r.alive for r in results.values() if r.role in ("outlaw", "renegade")
            )
        else:
            assert not sheriff.alive
        if game.result.winner is Side.RENEGADE:
            assert [r.player for r in results.values() if r.alive] == [
                r.player for r in results.values() if r.won
            ]
    assert Side.OUTLAWS in winners and Side.LAW in winners


@pytest.mark.parametrize("n", [4, 7])
def test_random_table_games_with_decks_in_unknown_order(n: int) -> None:
    for seed in range(15):
        game, _ = random_game(77 * n + seed, n, unknown_order=True)
        assert game.result is not None
        assert fold(game.events) == game.state
        assert not any(e.order for e in game.events if isinstance(e, DeckShuffled))
        assert sum(isinstance(e, TopCardNamed) for e in game.events) >= 17 + 4


def test_the_decide_function_does_not_touch_the_state() -> None:
    game, _ = random_game(7, 5)
    # replay the commands one by one through decide() on a copy: same events
    from services.game.rules.cards.decide import decide

    rng = random.Random(3)
    started = game.events[0]
    assert isinstance(started, GameStarted)
    g2 = Game.start(list(started.seats))
    for _ in range(200):
        q = g2.awaiting
        if q is None:
            break
        if q.decision is Decision.SHUFFLE:
            order = list(q.cards)
            rng.shuffle(order)
            command: cmd.Command = cmd.ShuffleDeck(player=TABLE, order=tuple(order))
        else:
            command = rng.choice(list(g2.legal_commands()))
        before = g2.state.clone()
        events = decide(g2.state, command)
        assert g2.state == before
        assert g2.play(command) == events


def _with_other_hands(s: GameState, shift: int) -> GameState:
    """The same position with every hand's contents replaced (same sizes): what nobody but the
    holder can see is changed, everything public is kept."""
    other = s.clone()
    for p in other.players:
        p.hand = [((c - 1 + shift) % 80) + 1 for c in p.hand]  # type: ignore[misc]
    return other


def test_who_is_awaited_for_what_never_depends_on_hidden_cards() -> None:
    # waiting must never reveal a hand: the question is a function of public information
    from services.game.rules.cards.decide import awaiting

    checked = 0
    for seed in range(12):
        game, _ = random_game(500 + seed, 4 + seed % 4)
        replay = Game.replay(game.events[:1])
        state = replay.state
        from services.game.rules.cards.evolve import evolve

        for event in game.events[1:]:
            evolve(state, event)
            try:
                q = awaiting(state)
            except AssertionError:
                continue  # between automatic steps: not a resting position
            if q is None or q.player == TABLE or q.decision in (Decision.STORE_PICK, Decision.KIT_RETURN):
                continue
            for shift in (17, 41):
                other = awaiting(_with_other_hands(state, shift))
                assert other is not None and (other.player, other.decision, other.count) == (
                    q.player,
                    q.decision,
                    q.count,
                )
            checked += 1
    assert checked > 500
