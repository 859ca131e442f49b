"""Rigged games for the card engine's tests: a real game whose first shuffle is chosen so that
the deal and the deck's top cards are the ones a test names. No state is edited by hand: every
position is reached by commands, so replaying the events always gives the same state."""

from __future__ import annotations

from collections.abc import Sequence

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.deck import DECK, name_of
from services.game.rules.cards.events import Seat
from services.game.rules.cards.game import Game
from services.game.rules.cards.setup import starting_life
from services.game.rules.cards.vocabulary import (
    TABLE,
    CardId,
    CardName,
    CharacterId,
    Decision,
    PlayerId,
    Role,
)

FILLER_ORDER: tuple[CardName, ...] = (
    CardName.BANG,
    CardName.MISSED,
    CardName.BEER,
    CardName.SCHOFIELD,
    CardName.REMINGTON,
    CardName.STAGECOACH,
    CardName.CAT_BALOU,
    CardName.PANIC,
    CardName.DUEL,
    CardName.GENERAL_STORE,
    CardName.INDIANS,
    CardName.WELLS_FARGO,
    CardName.SALOON,
    CardName.GATLING,
)
"""Cards a rig deals where a test names none: the hand's contents rarely matter then, and the
blue cards a test may look for (Barrel, Jail, Dynamite...) stay in the deck's tail."""


class Pool:
    """The 80 cards, handed out by name or text (``bang``, ``bang:AS``), each copy once."""

    def __init__(self) -> None:
        self.left: list[CardId] = [c.id for c in DECK]
        self.reserved: set[CardId] = set()
        """Cards named exactly somewhere in the rig: never handed out by name alone."""

    def take(self, spec: str) -> CardId:
        for cid in self.left:
            c = DECK[cid - 1]
            if spec == c.text or (spec == c.name and cid not in self.reserved):
                self.left.remove(cid)
                return cid
        raise KeyError(f"no {spec} left")

    def filler(self) -> CardId:
        for name in FILLER_ORDER:
            for cid in self.left:
                if name_of(cid) is name and cid not in self.reserved:
                    self.left.remove(cid)
                    return cid
        return self.left.pop()


P = [PlayerId(f"p{i}") for i in range(1, 9)]


def rigged(
    seats: Sequence[tuple[Role, CharacterId]],
    hands: dict[int, Sequence[str]] | None = None,
    deck: Sequence[str] = (),
    *,
    eight_players: bool = False,
) -> tuple[Game, dict[str, CardId]]:
    """Players p1, p2, ... in seat order; ``hands`` by seat index (0-based): the first cards
    each is dealt (the rest are fillers); ``deck``: the top of the deck after the deal. Returns
    the game (awaiting the Sheriff's first decision) and ``name → id`` of every named card (the
    n-th copy of a name as ``name#n``, the first also as ``name``)."""
    hands = hands or {}
    pool = Pool()
    named: dict[str, CardId] = {}

    def take(spec: str) -> CardId:
        cid = pool.take(spec)
        key, n = spec, 1
        while key in named:
            n += 1
            key = f"{spec}#{n}"
        named[key] = cid
        return cid

    game_seats = [Seat(player=P[i], role=r, character=c) for i, (r, c) in enumerate(seats)]
    lives = [starting_life(r, c) for r, c in seats]
    # exact cards (``bang:2D``) are reserved before any card taken by name alone
    specs = [*(s for i in sorted(hands) for s in hands[i]), *deck]
    pool.reserved = {c.id for c in DECK if c.text in specs}
    for i, named_cards in hands.items():
        assert len(named_cards) <= lives[i], f"p{i + 1} is dealt only {lives[i]} cards"
    wanted = {i: [take(s) for s in hands.get(i, ())] for i in range(len(seats))}
    top = [take(s) for s in deck]
    sheriff = next(i for i, (r, _) in enumerate(seats) if r is Role.SHERIFF)
    order = [(sheriff + k) % len(seats) for k in range(len(seats))]
    dealt: list[CardId] = []
    for round_ in range(max(lives)):
        for i in order:
            if round_ < lives[i]:
                dealt.append(wanted[i][round_] if round_ < len(wanted[i]) else pool.filler())
    rest = list(pool.left)
    game = Game.start(game_seats, eight_players=eight_players)
    game.play(cmd.ShuffleDeck(player=TABLE, order=(*dealt, *top, *rest)))
    return game, named


def shuffle_if_asked(game: Game, first: Sequence[CardId] = ()) -> None:
    """Answer a pending reshuffle: ``first`` on top, then the rest of the pile as it lies."""
    q = game.awaiting
    assert q is not None and q.decision is Decision.SHUFFLE
    rest = [c for c in q.cards if c not in first]
    game.play(cmd.ShuffleDeck(player=TABLE, order=(*first, *rest)))


def hand(game: Game, i: int) -> list[CardId]:
    return list(game.state.player(P[i]).hand)


def names(cards: Sequence[CardId]) -> list[CardName]:
    return [name_of(c) for c in cards]


DEFAULT_SEATS: tuple[tuple[Role, CharacterId], ...] = (
    (Role.SHERIFF, CharacterId.SID_KETCHUM),
    (Role.OUTLAW, CharacterId.VULTURE_SAM),
    (Role.RENEGADE, CharacterId.WILLY_THE_KID),
    (Role.OUTLAW, CharacterId.SLAB_THE_KILLER),
)
"""Four players whose abilities stay out of the way of most card tests: p1 the Sheriff (Sid
Ketchum, at full life he cannot use his ability), p2 and p4 Outlaws, p3 the Renegade."""


def do(game: Game, command: cmd.Command) -> list[object]:
    return list(game.play(command))


def play(
    game: Game, i: int, card: CardId, target: int | None = None, target_card: CardId | None = None
) -> list[object]:
    return do(
        game,
        cmd.PlayCard(
            player=P[i], card=card, target=None if target is None else P[target], target_card=target_card
        ),
    )


def respond(game: Game, i: int, card: CardId) -> list[object]:
    return do(game, cmd.Respond(player=P[i], card=card))


def pass_(game: Game, i: int) -> list[object]:
    return do(game, cmd.Pass(player=P[i]))


def end_turn(game: Game, i: int) -> None:
    """End play, then discard down to the limit: the most recently taken cards first."""
    do(game, cmd.EndPlay(player=P[i]))
    q = game.awaiting
    if q is not None and q.decision is Decision.DISCARD and q.player == P[i]:
        do(game, cmd.Discard(player=P[i], cards=tuple(game.state.player(P[i]).hand[-q.count :])))


def awaits(game: Game, i: int | None, decision: Decision) -> bool:
    q = game.awaiting
    return q is not None and q.decision is decision and q.player == (TABLE if i is None else P[i])


def life(game: Game, i: int) -> int:
    return game.state.player(P[i]).life
