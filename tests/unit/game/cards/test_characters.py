"""Layer 4: the 16 characters, each in play."""

from __future__ import annotations

import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.errors import IllegalCommand
from services.game.rules.cards.events import CardShown, CheckResolved, DrawReason, KitLooked
from services.game.rules.cards.vocabulary import TABLE, CardName, CharacterId, CheckReason, Decision, Role

from .rig import P, awaits, do, end_turn, hand, life, names, pass_, play, respond, rigged

SH, OU, RE = Role.SHERIFF, Role.OUTLAW, Role.RENEGADE
C = CharacterId


def seats(p1: CharacterId = C.SID_KETCHUM, p2: CharacterId = C.VULTURE_SAM) -> list[tuple[Role, CharacterId]]:
    others = [
        c for c in (C.WILLY_THE_KID, C.SLAB_THE_KILLER, C.ROSE_DOOLAN, C.PAUL_REGRET) if c not in (p1, p2)
    ]
    return [(SH, p1), (OU, p2), (RE, others[0]), (OU, others[1])]


def test_bart_cassidy_draws_one_card_per_life_lost() -> None:
    game, n = rigged(seats(p2=C.BART_CASSIDY), {0: ["bang"]}, deck=["bang", "bang", "barrel"])
    play(game, 0, n["bang"], 1)
    before = len(hand(game, 1))
    pass_(game, 1)
    assert life(game, 1) == 3 and hand(game, 1)[before:] == [n["barrel"]]


@pytest.mark.parametrize(("second", "extra"), [("beer:6H", True), ("bang:9D", True), ("missed:2S", False)])
def test_black_jack_shows_his_second_card_and_on_red_draws_one_more(second: str, extra: bool) -> None:
    game, n = rigged(seats(p1=C.BLACK_JACK), deck=["bang", second, "barrel"])
    assert CardShown(player=P[0], card=n[second]) in game.events
    assert (n["barrel"] in hand(game, 0)) is extra
    assert len(hand(game, 0)) == 5 + 2 + extra


def test_calamity_janet_plays_missed_as_bang_and_bang_as_missed() -> None:
    game, n = rigged(seats(p1=C.CALAMITY_JANET), {0: ["missed", "bang", "indians"], 1: ["bang:2C"]})
    play(game, 0, n["missed"], 1)
    pass_(game, 1)
    assert life(game, 1) == 3
    with pytest.raises(IllegalCommand, match="one BANG!"):
        play(game, 0, n["bang"], 1)  # her Missed! as BANG! was the turn's BANG!
    end_turn(game, 0)
    do(game, cmd.PlayCard(player=P[1], card=n["bang:2C"], target=P[0]))
    respond(game, 0, n["bang"])  # a BANG! as a Missed!
    assert life(game, 0) == 5


def test_el_gringo_takes_a_random_card_from_the_shooters_hand() -> None:
    game, n = rigged(seats(p2=C.EL_GRINGO), {0: ["bang", "beer"]})
    play(game, 0, n["bang"], 1)
    pass_(game, 1)
    q = game.awaiting
    assert (
        q is not None and q.player == TABLE and q.decision is Decision.RANDOM_CARD and q.from_player == P[0]
    )
    do(game, cmd.PickRandomCard(player=TABLE, card=n["beer"]))
    assert n["beer"] in hand(game, 1) and n["beer"] not in hand(game, 0)
    assert awaits(game, 0, Decision.PLAY)


def test_jesse_jones_may_take_his_first_card_from_a_hand() -> None:
    game, n = rigged(seats(p2=C.JESSE_JONES), {0: ["beer"]}, deck=["bang", "bang", "barrel", "scope"])
    end_turn(game, 0)
    assert awaits(game, 1, Decision.DRAW_SOURCE)
    with pytest.raises(IllegalCommand):
        do(game, cmd.ChooseDrawSource(player=P[1], from_discard=True))
    do(game, cmd.ChooseDrawSource(player=P[1], from_player=P[0]))
    do(game, cmd.PickRandomCard(player=TABLE, card=n["beer"]))
    assert hand(game, 1)[-2:] == [n["beer"], n["barrel"]]  # then one from the deck


def test_jesse_jones_may_choose_the_deck() -> None:
    game, n = rigged(seats(p2=C.JESSE_JONES), deck=["bang", "bang", "barrel", "scope"])
    end_turn(game, 0)
    do(game, cmd.ChooseDrawSource(player=P[1]))
    assert hand(game, 1)[-2:] == [n["barrel"], n["scope"]]


@pytest.mark.parametrize(("flip", "hit"), [("beer:6H", False), ("bang:9D", True)])
def test_jourdonnais_draws_as_with_a_barrel_once_per_shot(flip: str, hit: bool) -> None:
    game, n = rigged(seats(p2=C.JOURDONNAIS), {0: ["bang"]}, deck=["bang", "bang", flip])
    play(game, 0, n["bang"], 1)
    do(game, cmd.UseBarrel(player=P[1]))
    if hit:
        with pytest.raises(IllegalCommand):
            do(game, cmd.UseBarrel(player=P[1]))
        pass_(game, 1)
    assert life(game, 1) == (3 if hit else 4)


def test_kit_carlson_looks_at_three_keeps_two_and_puts_one_back_on_top() -> None:
    game, n = rigged(seats(p1=C.KIT_CARLSON), deck=["barrel", "scope", "jail", "beer"])
    assert [e.card for e in game.events if isinstance(e, KitLooked)] == [n["barrel"], n["scope"], n["jail"]]
    assert awaits(game, 0, Decision.KIT_RETURN)
    with pytest.raises(IllegalCommand):
        do(game, cmd.KitReturn(player=P[0], card=n["beer"]))
    do(game, cmd.KitReturn(player=P[0], card=n["jail"]))
    assert hand(game, 0)[-2:] == [n["barrel"], n["scope"]]
    assert game.state.deck[:2] == [n["jail"], n["beer"]]


def test_lucky_duke_flips_two_and_chooses() -> None:
    game, n = rigged(seats(p2=C.LUCKY_DUKE), {0: ["jail"]}, deck=["bang", "bang", "bang:9D", "beer:6H"])
    play(game, 0, n["jail"], 1)
    end_turn(game, 0)
    q = game.awaiting
    assert q is not None and q.player == P[1] and q.decision is Decision.DRAW_RESULT
    assert q.cards == (n["bang:9D"], n["beer:6H"])
    do(game, cmd.ChooseDrawResult(player=P[1], card=n["beer:6H"]))
    assert CheckResolved(player=P[1], reason=CheckReason.JAIL, card=n["beer:6H"], success=True) in game.events
    assert awaits(game, 1, Decision.PLAY)
    assert game.state.discard[-3:] == [n["bang:9D"], n["beer:6H"], n["jail"]]


def test_paul_regret_is_seen_one_further() -> None:
    game, n = rigged(seats(p2=C.PAUL_REGRET), {0: ["bang"]})
    with pytest.raises(IllegalCommand, match="out of range"):
        play(game, 0, n["bang"], 1)


def test_pedro_ramirez_may_take_his_first_card_from_the_discard_pile() -> None:
    game, n = rigged(seats(p2=C.PEDRO_RAMIREZ), {0: ["beer"]}, deck=["bang", "bang", "barrel", "scope"])
    play(game, 0, n["beer"])
    end_turn(game, 0)
    assert awaits(game, 1, Decision.DRAW_SOURCE)
    top = game.state.discard[-1]
    do(game, cmd.ChooseDrawSource(player=P[1], from_discard=True))
    assert hand(game, 1)[-2:] == [top, n["barrel"]]


def test_rose_doolan_sees_everyone_one_closer() -> None:
    game, n = rigged(seats(p1=C.ROSE_DOOLAN), {0: ["bang"]})
    play(game, 0, n["bang"], 2)
    assert awaits(game, 2, Decision.RESPOND_SHOT)


def test_sid_ketchum_discards_two_cards_for_one_life_even_when_dying() -> None:
    game, n = rigged(
        seats(p2=C.SID_KETCHUM, p1=C.WILLY_THE_KID), {0: ["bang"] * 4, 1: ["beer", "missed", "duel", "duel"]}
    )
    with pytest.raises(Exception, match=r"full life|cannot act"):
        do(game, cmd.UseSidKetchum(player=P[1], cards=(n["beer"], n["missed"])))
    for k in range(4):
        play(game, 0, n["bang" if k == 0 else f"bang#{k + 1}"], 1)
        pass_(game, 1)
    assert life(game, 1) == 0 and awaits(game, 1, Decision.DYING)
    do(game, cmd.UseSidKetchum(player=P[1], cards=(n["beer"], n["missed"])))
    assert life(game, 1) == 1 and awaits(game, 0, Decision.PLAY)


def test_slab_the_killers_bang_needs_two_missed() -> None:
    game, n = rigged(seats(p1=C.SLAB_THE_KILLER), {0: ["bang", "gatling"], 1: ["missed", "missed", "missed"]})
    play(game, 0, n["bang"], 1)
    q = game.awaiting
    assert q is not None and q.count == 2
    respond(game, 1, n["missed"])
    assert awaits(game, 1, Decision.RESPOND_SHOT)
    respond(game, 1, n["missed#2"])
    assert life(game, 1) == 4
    play(game, 0, n["gatling"])
    respond(game, 1, n["missed#3"])  # one Missed! is enough against his Gatling
    assert life(game, 1) == 4 and not awaits(game, 1, Decision.RESPOND_SHOT)


def test_suzy_lafayette_draws_as_soon_as_her_hand_is_empty() -> None:
    game, n = rigged(seats(p2=C.SUZY_LAFAYETTE), {0: ["panic"] * 4}, deck=["bang", "bang", "barrel"])
    for k in range(4):
        play(game, 0, n["panic" if k == 0 else f"panic#{k + 1}"], 1)
        do(game, cmd.PickRandomCard(player=TABLE, card=hand(game, 1)[0]))
    assert hand(game, 1) == [n["barrel"]]
    assert any(getattr(e, "reason", None) is DrawReason.SUZY_LAFAYETTE for e in game.events)


def test_vulture_sam_does_not_take_when_he_is_dying_too() -> None:
    from services.game.rules.cards.flow import eliminate
    from services.game.rules.cards.state import Resolution

    game, _ = rigged(seats(p2=C.VULTURE_SAM))
    state = game.state.clone()
    state.player(P[1]).life = 0
    state.player(P[2]).life = 0
    out = eliminate(state, Resolution(source=P[0], card=None, name=CardName.GATLING), state.player(P[2]))
    assert all(type(e).__name__ == "CardDiscarded" or type(e).__name__ == "PlayerEliminated" for e in out)


def test_willy_the_kid_plays_any_number_of_bangs() -> None:
    game, n = rigged(seats(p1=C.WILLY_THE_KID), {0: ["bang", "bang", "bang"]})
    for k in range(3):
        play(game, 0, n["bang" if k == 0 else f"bang#{k + 1}"], 1 if k != 1 else 3)
        pass_(game, 1 if k != 1 else 3)
    assert (life(game, 1), life(game, 3)) == (2, 3)
    assert names(game.state.discard[-1:]) == [CardName.BANG]


def test_sid_ketchum_at_full_life_cannot_heal() -> None:
    game, n = rigged(seats(p1=C.SID_KETCHUM), {0: ["beer", "missed"]})
    with pytest.raises(IllegalCommand, match="full life"):
        do(game, cmd.UseSidKetchum(player=P[0], cards=(n["beer"], n["missed"])))


def test_suzy_lafayette_last_card_a_panic_on_a_hand_draws_after_the_pick() -> None:
    """RULINGS-cards, Suzy Lafayette: the stable point is "after the engine finishes processing a
    command"; the table's random pick of the stolen card is part of the Panic!'s command, so she
    is not asked to draw while it is awaited, and ends with the stolen card alone, as with the
    same Panic! on a card in play."""
    from services.game.records.cards import read_card_record as read_record
    from services.game.records.cards import replay_card_record as replay_record

    def record(target: list[str], p2: dict[str, object]) -> dict[str, object]:
        return {
            "format": "bang-cards-record",
            "version": 1,
            "game_type": "cards",
            "ruleset": {"modules": []},
            "seats": [
                {"player": "p1", "role": "sheriff", "character": "suzy_lafayette"},
                {"player": "p2", "role": "outlaw", "character": "black_jack"},
                {"player": "p3", "role": "renegade", "character": "willy_the_kid"},
                {"player": "p4", "role": "outlaw", "character": "lucky_duke"},
            ],
            "position": {
                "players": [{"player": "p1", "life": 5, "hand": [50]}, {"player": "p2", "life": 4, **p2}],
                "deck": [38, 39, 40, 41, 42],
            },
            "inputs": ["p1 play 38", "p1 play 39", f"p1 play 50 {' '.join(target)}"],
        }

    def suzy_drew(game: object) -> bool:
        return any(getattr(e, "reason", None) is DrawReason.SUZY_LAFAYETTE for e in game.events)  # type: ignore[attr-defined]

    on_hand = replay_record(read_record(record(["p2"], {"hand": [26]})))
    question = on_hand.awaiting
    assert question is not None and question.decision is Decision.RANDOM_CARD
    assert hand(on_hand, 0) == [] and not suzy_drew(on_hand)  # the command is not finished
    do(on_hand, cmd.PickRandomCard(player=TABLE, card=26))
    assert hand(on_hand, 0) == [26] and not suzy_drew(on_hand)

    in_play = replay_record(read_record(record(["p2", "64"], {"in_play": [64]})))
    assert hand(in_play, 0) == [64] and not suzy_drew(in_play)
