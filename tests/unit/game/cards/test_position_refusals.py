"""Mid-turn positions and decks in unknown order (issue 21 item 6): a position the rules could
reach starts a game that goes on from there; one they could not is refused in words naming the
player, the card and the rule; a card named as the deck's next one that has been seen already is
refused naming it (and where it lies only when that is public)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.errors import IllegalCommand, InvalidSetup
from services.game.rules.cards.events import (
    CheckPosition,
    OwedPosition,
    PlayerPosition,
    Position,
    ResolutionPosition,
    Seat,
    TopCardNamed,
)
from services.game.rules.cards.game import Game
from services.game.rules.cards.visibility import redact
from services.game.rules.cards.vocabulary import (
    TABLE,
    CardId,
    Cause,
    CharacterId,
    CheckReason,
    Decision,
    DrawReason,
    Phase,
    PlayerId,
    Role,
)

P1, P2, P3, P4 = (PlayerId(f"p{i}") for i in range(1, 5))
SEATS = [
    Seat(player=P1, role=Role.SHERIFF, character=CharacterId.SID_KETCHUM),
    Seat(player=P2, role=Role.OUTLAW, character=CharacterId.KIT_CARLSON),
    Seat(player=P3, role=Role.RENEGADE, character=CharacterId.JESSE_JONES),
    Seat(player=P4, role=Role.OUTLAW, character=CharacterId.LUCKY_DUKE),
]
BANG, BANG2, MISSED, MISSED2, BEER, SALOON = (CardId(c) for c in (3, 4, 26, 27, 38, 44))
GATLING, DUEL, BARREL, JAIL, DYNAMITE, GENERAL_STORE = (CardId(c) for c in (58, 61, 64, 69, 72, 48))
VOLCANIC, VOLCANIC2 = CardId(73), CardId(74)
PLACED = {BANG, BANG2, MISSED, MISSED2, SALOON, DUEL}


def _base(**change: Any) -> Position:
    """Phase 2 of p2's turn 5: his BANG! at p3, who has to answer; the deck's order unknown (it
    holds every card the position places nowhere else)."""
    fields: dict[str, Any] = {
        "players": (
            PlayerPosition(player=P1, life=4, hand=(MISSED,)),
            PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2)),
            PlayerPosition(player=P3, life=2, hand=(MISSED2,)),
        ),
        "discard": (DUEL,),
        "active": P2,
        "turn": 5,
        "phase": Phase.PLAY,
        "bangs_played": 1,
        "resolving": ResolutionPosition(player=P2, card=BANG, target=P3, responders=(P3,)),
    }
    fields.update(change)
    if "pool" not in change:
        placed = {*fields.get("discard", ()), *fields.get("kit", ()), *fields.get("store", ())}
        for pp in fields["players"]:
            placed |= {*pp.hand, *pp.in_play}
        r = fields.get("resolving")
        if r is not None and r.card is not None and not r.resolved:
            placed.add(r.card)
        fields["pool"] = tuple(CardId(c) for c in range(1, 81) if c not in placed)
    return Position(**fields)


def test_a_mid_turn_position_with_the_deck_unknown_goes_on_and_names_each_card_drawn() -> None:
    game = Game.start(SEATS, position=_base())
    assert len(game.events) == 1  # at rest: p3 is asked to answer the BANG!
    q = game.awaiting
    assert q is not None and (q.player, q.decision) == (P3, Decision.RESPOND_SHOT)
    game.play(cmd.Respond(player=P3, card=MISSED2))
    game.play(cmd.EndPlay(player=P2))
    # p3's turn: Jesse Jones may take from a hand; from the deck, each card is named by the table
    game.play(cmd.ChooseDrawSource(player=P3))
    q = game.awaiting
    assert q is not None and (q.player, q.decision, q.from_player) == (TABLE, Decision.TOP_CARD, P3)
    seen = r"missed:2S \(card 26\) is not in the deck: it has been seen already"
    with pytest.raises(IllegalCommand, match=seen):
        game.play(cmd.NameTopCard(player=TABLE, card=MISSED))  # in p1's hand: hidden, not told
    public = r"duel:QD \(card 61\) is not in the deck: it lies on the discard pile"
    with pytest.raises(IllegalCommand, match=public):
        game.play(cmd.NameTopCard(player=TABLE, card=DUEL))
    game.play(cmd.NameTopCard(player=TABLE, card=BEER))
    assert BEER in game.state.player(P3).hand
    assert TopCardNamed(card=BEER, seen_by=P3) in game.events


def test_a_mid_turn_position_keeps_the_bangs_played_willy_aside() -> None:
    game = Game.start(SEATS, position=_base())
    game.play(cmd.Respond(player=P3, card=MISSED2))
    with pytest.raises(IllegalCommand, match="one BANG! per turn"):
        game.play(cmd.PlayCard(player=P2, card=BANG2, target=P3))


REFUSED: list[tuple[str, Position, str]] = [
    (
        "a card placed twice",
        _base(players=(PlayerPosition(player=P1, life=4, hand=(MISSED, BANG)),)),
        "bang:2D (card 3) is placed twice: in p1's hand and in resolving",
    ),
    (
        "a blue card resolving",
        _base(resolving=ResolutionPosition(player=P2, card=BARREL)),
        "does not resolve",
    ),
    (
        "a BANG! awaiting another than its target",
        _base(resolving=ResolutionPosition(player=P2, card=BANG, target=P3, responders=(P1,))),
        "bang:2D (card 3) could not be awaiting p1: it asks p3",
    ),
    (
        "a Gatling's answers out of clockwise order",
        _base(bangs_played=0, resolving=ResolutionPosition(player=P2, card=GATLING, responders=(P1, P3))),
        "gatling:10H (card 58) could not be awaiting p1, p3: it asks p3, p4, p1 (clockwise)",
    ),
    (
        "a Duel awaiting a third player",
        _base(resolving=ResolutionPosition(player=P2, card=CardId(62), target=P3, responders=(P1,))),
        "a Duel awaits one of its two players, p2 or p3",
    ),
    (
        "a card resolving in phase 1",
        _base(phase=Phase.DRAW, bangs_played=0),
        "resolves in phase 2 only",
    ),
    (
        "a card played by another than the active player",
        _base(resolving=ResolutionPosition(player=P1, card=BANG, target=P3, responders=(P3,))),
        "is played by p2, whose turn it is, not by p1",
    ),
    (
        "a BANG! at its own player",
        _base(resolving=ResolutionPosition(player=P2, card=BANG, target=P2, responders=(P2,))),
        "p2 cannot target himself",
    ),
    (
        "two BANG!s without Willy the Kid while both Volcanics are in front of others",
        _base(
            bangs_played=2,
            players=(
                PlayerPosition(player=P1, life=4, hand=(MISSED,), in_play=(VOLCANIC,)),
                PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2)),
                PlayerPosition(player=P3, life=2, hand=(MISSED2,), in_play=(VOLCANIC2,)),
            ),
        ),
        "p2 has played 2 BANG!s this turn: one per turn unless Volcanic or Willy the Kid",
    ),
    ("BANG!s before phase 2", _base(phase=Phase.DRAW, resolving=None), "p2 has not reached phase 2"),
    (
        "Kit Carlson's look for Jesse Jones",
        _base(
            active=P3,
            phase=Phase.DRAW,
            bangs_played=0,
            resolving=None,
            kit=(CardId(80), CardId(79), CardId(78)),
            players=(
                PlayerPosition(player=P1, life=4, hand=(MISSED,)),
                PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, BANG)),
                PlayerPosition(player=P3, life=2, hand=(MISSED2,)),
            ),
        ),
        "only Kit Carlson, at the beginning of his phase 1",
    ),
    (
        "a Jail in front of the active player in phase 1",
        _base(
            phase=Phase.DRAW,
            bangs_played=0,
            resolving=None,
            players=(PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, BANG), in_play=(JAIL,)),),
        ),
        "p2 is in phase 1 with a Jail in front of him",
    ),
    (
        "Jesse Jones' hand for Kit Carlson",
        _base(
            phase=Phase.DRAW,
            bangs_played=0,
            resolving=None,
            draw_step=1,
            draw_from=P1,
            players=(PlayerPosition(player=P1, life=4, hand=(MISSED, BANG)),),
        ),
        "only Jesse Jones, in his phase 1, takes his first card from a hand",
    ),
    (
        "phase 1's progress in phase 2",
        _base(drawn=(SALOON,)),
        "phase 1's progress (draw_step, draw_from, drawn) is given in phase 1 only, not in phase 2",
    ),
    (
        "a player at 0 life with nothing resolving",
        _base(resolving=None, players=(PlayerPosition(player=P1, life=0, alive=True, hand=(MISSED, BANG)),)),
        "p1 is living at 0 life: a player at 0 or less is dying",
    ),
    (
        "as many Missed! as the shot needs, still awaited",
        _base(resolving=ResolutionPosition(player=P2, card=BANG, target=P3, responders=(P3,), got=1)),
        "fewer than the 1 it needs",
    ),
    (
        "a Barrel's draw! by a player not answering",
        _base(
            players=(
                PlayerPosition(player=P1, life=4, hand=(MISSED,), in_play=(BARREL,)),
                PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2)),
                PlayerPosition(player=P3, life=2, hand=(MISSED2,)),
            ),
            check=CheckPosition(player=P1, reason=CheckReason.BARREL, barrel=BARREL),
        ),
        "p1 draws! against a shot only while he is the one to answer it",
    ),
    (
        "a dying window passed at positive life",
        _base(
            discard=(DUEL, BANG),
            resolving=ResolutionPosition(player=P2, card=BANG, target=P3, resolved=True, doomed=(P3,)),
        ),
        "p3 passed a dying window: only a player at 0 life or less",
    ),
    (
        "General Store cards with no General Store",
        _base(store=(GENERAL_STORE,)),
        "cards lie in the General Store only while a General Store resolves",
    ),
    (
        "the start's checks in phase 2",
        _base(dynamite_checked=True),
        "the start's draw! checks (dynamite_checked, jail_checked, skip_turn) are given at the start",
    ),
    (
        "Dynamite's explosion in phase 2",
        _base(resolving=ResolutionPosition(player=None, card=None, resolved=True)),
        "what resolves is Dynamite's explosion: at the start of the turn",
    ),
    (
        "a turn under way without its phase",
        _base(phase=None, resolving=None),
        "a position at the beginning of a turn has nothing under way: give the turn's phase to set "
        "bangs_played",
    ),
    (
        "a draw!'s flips not on top of the discard pile",
        _base(
            phase=Phase.START,
            bangs_played=0,
            resolving=None,
            players=(PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, BANG), in_play=(JAIL,)),),
            check=CheckPosition(player=P2, reason=CheckReason.JAIL, flips=(BEER,)),
            discard=(BEER, DUEL),
        ),
        "a draw!'s flipped cards lie on top of the discard pile",
    ),
    (
        "phase-1 cards owed to another than the active player",
        _base(
            phase=Phase.DRAW,
            bangs_played=0,
            resolving=None,
            draw_step=2,
            players=(PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, BANG)),),
            owed=(OwedPosition(player=P1, count=2, reason=DrawReason.PHASE),),
        ),
        "p1 owed phase-1 cards: only the active player, in phase 1",
    ),
    (
        "a skipped turn without the Jail's draw!",
        _base(
            phase=Phase.START,
            bangs_played=0,
            resolving=None,
            skip_turn=True,
            players=(PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, BANG)),),
        ),
        "p2 skips his turn only after a failed draw! for his Jail",
    ),
    (
        "an eliminated player who eliminated himself by another's card",
        _base(
            players=(
                PlayerPosition(player=P1, life=4, hand=(MISSED,)),
                PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2)),
                PlayerPosition(player=P3, life=2, hand=(MISSED2,)),
                PlayerPosition(player=P4, life=0, alive=False, eliminated_by=P4, eliminated_cause=Cause.CARD),
            )
        ),
        "p4 was eliminated by another seated player, not p4",
    ),
    (
        "the Sheriff out with nobody dying",
        _base(
            players=(
                PlayerPosition(player=P1, life=0, alive=False),
                PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, MISSED)),
                PlayerPosition(player=P3, life=2, hand=(MISSED2,)),
            )
        ),
        "a position with the Sheriff eliminated is a finished game",
    ),
]


@pytest.mark.parametrize(
    ("position", "words"), [(p, w) for _, p, w in REFUSED], ids=[i for i, _, _ in REFUSED]
)
def test_a_position_the_rules_could_not_reach_is_refused_in_words(position: Position, words: str) -> None:
    with pytest.raises(InvalidSetup) as refused:
        Game.start(SEATS, position=position)
    assert words in str(refused.value)


def test_a_position_s_fields_read_back_from_json() -> None:
    # what the engine stores in GameStarted: msgspec gives back the same position
    position = _base()
    assert msgspec.json.decode(msgspec.json.encode(position), type=Position) == position


def test_a_mid_turn_positions_hidden_cards_are_shown_to_nobody_else() -> None:
    # the unknown deck's content is every card placed nowhere else: listed, it would show the
    # hands; Kit Carlson's look and phase 1's draws are his alone
    kit = (CardId(80), CardId(79), CardId(78))
    position = _base(
        phase=Phase.DRAW,
        bangs_played=0,
        resolving=None,
        kit=kit,
        players=(
            PlayerPosition(player=P1, life=4, hand=(MISSED,)),
            PlayerPosition(player=P2, life=4, hand=(SALOON, BANG2, BANG)),
        ),
    )
    started = Game.start(SEATS, position=position).events[0]
    for viewer in (P1, P3, None):
        shown = redact(started, viewer)["position"]
        assert shown["pool"] == [None] * len(position.pool) and len(position.pool) > 60
        assert shown["kit"] == [None, None, None]
        assert all(c is None for pp in shown["players"] if pp["player"] != viewer for c in pp["hand"])
    assert list(redact(started, P2)["position"]["kit"]) == list(kit)
