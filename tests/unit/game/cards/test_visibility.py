"""Hidden hands: what each viewer is shown of the events, and non-interference: two games that
differ only in one player's hidden cards look identical to everyone else."""

from __future__ import annotations

from typing import Any

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.game import Game
from services.game.rules.cards.visibility import redact
from services.game.rules.cards.vocabulary import TABLE, CharacterId, PlayerId, Role

from .rig import DEFAULT_SEATS, P, do, end_turn, pass_, play, rigged

VIEWERS: list[PlayerId | None] = [*P[:4], None]


def _seen(game: Game, viewer: PlayerId | None) -> list[dict[str, Any]]:
    return [redact(e, viewer) for e in game.events]


def _play_the_same(hidden: str) -> Game:
    seats = [
        (Role.SHERIFF, CharacterId.SID_KETCHUM),
        (Role.OUTLAW, CharacterId.EL_GRINGO),
        (Role.RENEGADE, CharacterId.WILLY_THE_KID),
        (Role.OUTLAW, CharacterId.SLAB_THE_KILLER),
    ]
    game, n = rigged(seats, {0: ["bang", "panic"], 1: [hidden, "bang:2C", "bang:3C"]})
    play(game, 0, n["bang"], 1)
    pass_(game, 1)
    do(game, cmd.PickRandomCard(player=TABLE, card=game.state.player(P[0]).hand[-1]))  # El Gringo's take
    play(game, 0, n["panic"], 1)
    do(game, cmd.PickRandomCard(player=TABLE, card=n["bang:2C"]))
    end_turn(game, 0)
    do(game, cmd.PlayCard(player=P[1], card=n["bang:3C"], target=P[0]))
    pass_(game, 0)
    return game


def test_two_games_differing_in_one_hidden_card_look_the_same_to_everyone_else() -> None:
    a, b = _play_the_same("beer:6H"), _play_the_same("missed:2S")
    assert a.events != b.events
    for viewer in (P[0], P[2], P[3], None):
        assert _seen(a, viewer) == _seen(b, viewer), viewer
    assert _seen(a, P[1]) != _seen(b, P[1])  # p2 sees his own hand


def test_a_random_take_is_seen_by_taker_and_victim_only() -> None:
    game = _play_the_same("beer:6H")
    taken = next(e for e in game.events if isinstance(e, ev.CardTaken) and e.player == P[0])
    assert redact(taken, P[0])["card"] == taken.card and redact(taken, P[1])["card"] == taken.card
    assert redact(taken, P[2])["card"] is None and redact(taken, None)["card"] is None


def test_draws_are_private_shown_cards_and_flips_public_shuffles_nobodys() -> None:
    game, _ = rigged(DEFAULT_SEATS)
    drawn = next(e for e in game.events if isinstance(e, ev.CardDrawn))
    assert redact(drawn, P[0])["card"] == drawn.card and redact(drawn, P[1])["card"] is None
    shuffled = next(e for e in game.events if isinstance(e, ev.DeckShuffled))
    assert redact(shuffled, P[0])["order"] == [None] * 80
    dealt = next(e for e in game.events if isinstance(e, ev.HandsDealt))
    view = dict(redact(dealt, P[1])["hands"])
    assert list(view[P[1]]) == list(dict(dealt.hands)[P[1]]) and list(view[P[0]]) == [None] * 5
    started = redact(game.events[0], P[2])
    assert [s["role"] for s in started["seats"]] == ["sheriff", None, "renegade", None]
    assert redact(ev.CardFlipped(player=P[0], card=1), P[3])["card"] == 1  # type: ignore[arg-type]
    shown = ev.CardDrawn(player=P[0], card=2, reason="black_jack", shown=True)  # type: ignore[arg-type]
    assert redact(shown, P[3])["card"] == 2


def test_kit_carlsons_look_is_his_alone() -> None:
    looked = ev.KitLooked(player=P[0], card=5)  # type: ignore[arg-type]
    assert redact(looked, P[0])["card"] == 5 and redact(looked, P[1])["card"] is None
