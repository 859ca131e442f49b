"""A refusal never tells where a hidden card lies. At rest positions of random games, every
player (the awaited one and the others) names, in each command that names a card, each card he
cannot see (another's hand, the deck, Kit Carlson's look when it is not his): the refusals'
words are one and the same for all those cards, so sending commands probes nothing."""

from __future__ import annotations

from collections.abc import Callable

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.decide import respond
from services.game.rules.cards.errors import RuleError
from services.game.rules.cards.evolve import evolve
from services.game.rules.cards.game import Game
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, CardId, PlayerId

from .test_properties import random_game

Naming = Callable[[PlayerId, CardId, CardId], cmd.Command]

NAMINGS: dict[str, Naming] = {
    "play": lambda p, c, own: cmd.PlayCard(player=p, card=c),
    "respond": lambda p, c, own: cmd.Respond(player=p, card=c),
    "barrel": lambda p, c, own: cmd.UseBarrel(player=p, card=c),
    "kit": lambda p, c, own: cmd.KitReturn(player=p, card=c),
    "discard": lambda p, c, own: cmd.Discard(player=p, cards=(c,)),
    "sid": lambda p, c, own: cmd.UseSidKetchum(player=p, cards=(own, c)),
    "order": lambda p, c, own: cmd.OrderDiscards(player=p, cards=(c,)),
}


def _hidden_from(state: GameState, me: PlayerId) -> list[CardId]:
    cards = [*state.deck, *state.pool, *(state.kit if state.active != me else [])]
    for p in state.players:
        if p.id != me:
            cards += p.hand
    return cards


def _refusal(state: GameState, command: cmd.Command) -> str:
    try:
        respond(state, command)
    except RuleError as error:
        return str(error).replace(str(command), "<the command sent>")  # his own words echoed
    return "accepted"


def test_the_words_of_a_refusal_are_the_same_for_every_card_one_cannot_see() -> None:
    compared = 0
    for seed in range(6):
        game, _ = random_game(300 + seed, 4 + seed % 4)
        state = Game.replay(game.events[:1]).state
        for n, event in enumerate(game.events[1:]):
            evolve(state, event)
            if n % 7:
                continue
            try:
                q = Game(state, []).awaiting
            except AssertionError:
                continue  # between automatic steps
            if q is None or q.player == TABLE:
                continue
            for p in state.living():
                hidden = _hidden_from(state, p.id)
                own = p.hand[0] if p.hand else CardId(0)
                for name, naming in NAMINGS.items():
                    words = {_refusal(state, naming(p.id, c, own)) for c in hidden}
                    assert len(words) <= 1, (name, p.id, q.describe(), words)
                    assert "accepted" not in words, (name, p.id)
                    compared += 1
    assert compared > 2000, compared
