"""UA2, Rage cards ("Two Bullets Are Enough", RULINGS-expansions §UA2, §2 S4/E4, §6).

The Rage deck is data, versioned (``RAGE_DECKS``; the default ``rage-1`` is the rulings' list
until the printed one is confirmed, §11 Q1). A card has an id (``r01``) and its symbols.

- **Draw** (E4): once a turn is over, every living player who lost 2 or more life during it
  (gross, any cause, anyone's turn: ``RageState.lost``) draws one card, clockwise from the
  player whose turn it was. A draw is a random input: the decision ``rage_draw`` is answered
  by ``DrawCard`` (the server's draw online, by the game's draw derivation; the scorekeeper's
  entry at a table), checked against the cards there to be drawn (the draw pile, or the
  discards once the pile is empty: the reshuffle). The card is face down (``RageDrawn``): only
  its holder sees it (``hidden_card``; the edge's visibility layer redacts it).
- **Reveal** (S4): at the start of his next turn, after the start-of-turn abilities and before
  the dice are chosen, the holder reveals all his cards (``RageRevealed``). Their ``arrow``
  symbols take tokens at once, one at a time; every other symbol joins his results for the turn
  as a die of the ``rage`` kind that is never rolled, rerolled or changed
  (``TurnState.preset``): its ``dynamite`` counts in D from the start (three stop the rolling),
  its shots, beers and gatling resolve at P with the dice. The revealed cards go to the
  discards (ruling: discarded once used; an empty pile is reshuffled from them).
- **Elimination**: an eliminated player's face-down cards go to the discards, unseen
  (``RageReturned``).
- **Pixie Pete** (UA3): each time he must draw a card (E4 or a whiskey's), he draws two, one
  random draw after the other (``rage_draw`` twice), then keeps one (``pixie_keep``, answered
  ``p2 keep 1``: the card by its place among the two); the other is shuffled back into the pile
  (``RageKept``). Both cards and his choice are his alone (``hidden_card``, ``HIDDEN_FIELDS``).
  With one card left to draw he draws it and keeps it, unasked.
- **Zombies** (UA4) never draw: a plain zombie owes no draw at E4 and none for a whiskey.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.errors import IllegalCommand
from services.game.rules.dice.flow import arrow_move, clockwise_from, take_arrow
from services.game.rules.dice.kinds import DieKind, Symbols, die_kind
from services.game.rules.dice.modules import Handler, RulesModule
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import GameState, PlayerState, TurnState
from services.game.rules.dice.undead.draws import DRAWN, DRAWS, Draw
from services.game.rules.dice.vocabulary import (
    ARROW,
    BEER,
    DYNAMITE,
    GATLING,
    SHOOT1,
    SHOOT2,
    ArrowReason,
    CharacterId,
    PlayerId,
)
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]

RAGE_DECK_TABLE = "rage-deck"
"""The ruleset's data table naming the deck version (``Ruleset.data``)."""
RAGE_1 = "rage-1"
RAGE_DECK_SIZE = 18


def _cards(*groups: tuple[int, Symbols]) -> tuple[tuple[str, Symbols], ...]:
    cards: list[tuple[str, Symbols]] = []
    for count, symbols in groups:
        for _ in range(count):
            cards.append((f"r{len(cards) + 1:02d}", symbols))
    return tuple(cards)


RAGE_DECKS: Mapping[str, tuple[tuple[str, Symbols], ...]] = MappingProxyType(
    {
        RAGE_1: _cards(
            (4, (SHOOT1,)),
            (4, (SHOOT2,)),
            (2, (BEER,)),
            (2, (GATLING,)),
            (2, (ARROW,)),
            (2, (SHOOT1, BEER, DYNAMITE)),
            (2, (SHOOT2, GATLING)),
        ),
    }
)
"""Deck version → its 18 cards in deck order, (id, symbols): ``rage-1`` is the rulings' default
(§UA2): r01–r04 ``shoot1``, r05–r08 ``shoot2``, r09–r10 ``beer``, r11–r12 ``gatling``, r13–r14
``arrow``, r15–r16 ``shoot1 beer dynamite``, r17–r18 ``shoot2 gatling``. Never edit a version:
a corrected list is a new one (a record names the version it was played with)."""

RAGE_SYMBOLS = frozenset({ARROW, DYNAMITE, SHOOT1, SHOOT2, BEER, GATLING})
"""A Rage card shows base symbols only."""


def check_deck(cards: Sequence[tuple[str, Symbols]]) -> None:
    """Raise ``ValueError`` unless ``cards`` is a Rage deck: 18 cards, distinct ids, each with
    one or more base symbols (what a club's own deck version must satisfy)."""
    if len(cards) != RAGE_DECK_SIZE:
        raise ValueError(f"a Rage deck has {RAGE_DECK_SIZE} cards, not {len(cards)}")
    ids = [c for c, _ in cards]
    if len(set(ids)) != len(ids):
        raise ValueError("two Rage cards share an id")
    for card, symbols in cards:
        if not symbols or not set(symbols) <= RAGE_SYMBOLS:
            raise ValueError(f"Rage card {card} must show one or more base symbols, not {symbols}")


for _deck in RAGE_DECKS.values():
    check_deck(_deck)

RAGE = die_kind("rage", (SHOOT1, SHOOT2, BEER, GATLING, DYNAMITE))
"""The symbols of revealed Rage cards, as dice of their own kind: never rolled (``preset``)."""


class RageDecision(StrEnum):
    RAGE_DRAW = "rage_draw"
    PIXIE_KEEP = "pixie_keep"


RAGE_DRAW = RageDecision.RAGE_DRAW
PIXIE_KEEP = RageDecision.PIXIE_KEEP
PIXIE_PETE = CharacterId.PIXIE_PETE


# --- the state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class RageState:
    deck: str
    symbols: Mapping[str, Symbols]
    """Card id → its symbols (the deck version's table)."""
    order: tuple[str, ...]
    """Every card id in deck order: the order a draw's candidates are listed in."""
    pile: list[str]
    """The face-down draw pile, in deck order (a draw takes any of them at random)."""
    discard: list[str] = field(default_factory=list)
    hands: dict[PlayerId, list[str]] = field(default_factory=dict)
    """Each player's face-down cards, in the order drawn."""
    lost: dict[PlayerId, int] = field(default_factory=dict)
    """Gross life lost in turn ``lost_turn`` (heals ignored)."""
    lost_turn: int = 0
    drawn: set[PlayerId] = field(default_factory=set)
    """Who drew at the end of turn ``lost_turn`` already."""
    arrows_left: int = 0
    """Arrow symbols of the cards just revealed still to take a token (S4)."""
    revealed_turn: int = 0
    """The turn whose active player's cards were revealed last."""
    draws: int = 0
    """Cards drawn so far in the game: the next draw's number for the draw derivation."""
    owed_now: list[PlayerId] = field(default_factory=list)
    """Draws owed at once, in the middle of a turn (UA1's ``whiskey`` with no wound token)."""
    pair: list[str] = field(default_factory=list)
    """Pixie Pete's cards of the draw on now (one, then two), until he keeps one (UA3)."""

    @classmethod
    def new(cls, deck: str) -> RageState:
        cards = RAGE_DECKS[deck]
        return cls(deck, MappingProxyType(dict(cards)), tuple(c for c, _ in cards), [c for c, _ in cards])

    def clone(self) -> RageState:
        return RageState(
            self.deck,
            self.symbols,
            self.order,
            list(self.pile),
            list(self.discard),
            {p: list(h) for p, h in self.hands.items()},
            dict(self.lost),
            self.lost_turn,
            set(self.drawn),
            self.arrows_left,
            self.revealed_turn,
            self.draws,
            list(self.owed_now),
            list(self.pair),
        )

    def note_loss(self, player: PlayerId, amount: int, turn: int) -> None:
        if turn != self.lost_turn:
            self.lost, self.drawn, self.lost_turn = {}, set(), turn
        self.lost[player] = self.lost.get(player, 0) + amount

    def drawable(self) -> tuple[str, ...]:
        """The cards the next draw is among: the pile, or every discard once it is empty (the
        reshuffle), in deck order."""
        cards = self.pile or self.discard
        return tuple(c for c in self.order if c in cards)

    def held(self, player: PlayerId) -> int:
        return len(self.hands.get(player, ()))


def rage_of(s: GameState) -> RageState:
    assert s.rage is not None, "the game has no Rage cards (UA2)"
    return s.rage


HIDDEN_FIELDS = ("card", "returned", "slot")
"""The fields of a ``hidden_card`` event that name a face-down card or Pixie Pete's choice: null
to everyone else."""


def hidden_card(event: ev.Event) -> PlayerId | None:
    """The holder of the face-down cards an event names, when it does (``RageDrawn``, Pixie
    Pete's ``RageKept``): everyone else must not see which cards (``HIDDEN_FIELDS``)."""
    kind = type(event)
    return event.player if kind is RageDrawn or kind is RageKept else None  # type: ignore[attr-defined]


def draws_two(s: GameState, player: PlayerId) -> bool:
    """Pixie Pete (UA3) draws two Rage cards and keeps one (a zombie has no ability)."""
    p = s.by_id[player]
    return p.character.id is PIXIE_PETE and not p.zombie


def pixie_pair(s: GameState, player: PlayerId) -> tuple[str, ...]:
    """The two cards ``player`` (Pixie Pete) drew and must choose between now; () otherwise."""
    r = s.rage
    if r is None or len(r.pair) < 2 or not r.hands.get(player) or r.hands[player][-2:] != r.pair:
        return ()
    return tuple(r.pair)


# --- events ---------------------------------------------------------------------------------------


class RageDrawn(ev.Event, frozen=True, kw_only=True):
    """``player`` drew the Rage card ``card`` face down (hidden from everyone else until
    revealed). ``reshuffled``: the pile was empty, the discards were shuffled into it first."""

    player: PlayerId
    card: str
    reshuffled: bool = False


class RageRevealed(ev.Event, frozen=True, kw_only=True):
    """At the start of his turn ``player`` revealed these cards; their symbols join his results."""

    player: PlayerId
    cards: tuple[str, ...]


class RageKept(ev.Event, frozen=True, kw_only=True):
    """Pixie Pete kept ``card`` of the two he drew (``slot``: 0 the first drawn, 1 the second);
    ``returned`` was shuffled back into the pile. All three are his alone (``HIDDEN_FIELDS``)."""

    player: PlayerId
    card: str
    returned: str
    slot: int


class RageReturned(ev.Event, frozen=True, kw_only=True):
    """The eliminated ``player``'s face-down cards went to the discards, unrevealed."""

    player: PlayerId
    count: int


EVENTS: tuple[type[ev.Event], ...] = (RageDrawn, RageRevealed, RageReturned, RageKept)


def _drawn(s: GameState, e: RageDrawn) -> None:
    r = rage_of(s)
    if e.reshuffled:
        r.pile, r.discard = r.discard, []
    r.pile.remove(e.card)
    r.hands.setdefault(e.player, []).append(e.card)
    r.draws += 1
    if draws_two(s, e.player):
        r.pair.append(e.card)
        if len(r.pair) == 2 or r.drawable():
            return  # Pixie Pete: his second card, then his choice
        r.pair.clear()  # nothing left to draw a second card from: he keeps this one (ruling)
    _drawing_done(s, r, e.player)


def _drawing_done(s: GameState, r: RageState, player: PlayerId) -> None:
    if r.owed_now and r.owed_now[0] == player:
        r.owed_now.pop(0)  # a whiskey's draw (UA1), not the end of the turn's
    elif r.lost_turn == s.last_turn_number:
        r.drawn.add(player)


def _kept(s: GameState, e: RageKept) -> None:
    r = rage_of(s)
    r.hands[e.player].remove(e.returned)
    r.pile.append(e.returned)  # shuffled back: a draw is among every card of the pile anyway
    r.pair.clear()
    _drawing_done(s, r, e.player)


def _revealed(s: GameState, e: RageRevealed) -> None:
    r = rage_of(s)
    t = s.turn
    assert t is not None
    held = r.hands.pop(e.player, [])
    r.discard += held
    symbols = [sym for card in e.cards for sym in r.symbols[card]]
    r.arrows_left = symbols.count(ARROW)
    r.revealed_turn = t.number
    joined = [sym for sym in symbols if sym is not ARROW]
    if joined:
        first = len(t.dice)
        t.kinds = (*t.kinds, *([RAGE] * len(joined)))
        t.dice = [*t.dice, *joined]
        t.preset = (*t.preset, *range(first, first + len(joined)))


def _returned(s: GameState, e: RageReturned) -> None:
    r = rage_of(s)
    r.discard += r.hands.pop(e.player, [])


_HANDLERS: dict[type[ev.Event], Handler] = {
    RageDrawn: _drawn,
    RageRevealed: _revealed,
    RageReturned: _returned,
    RageKept: _kept,
}


# --- hooks ----------------------------------------------------------------------------------------


def _start(s: GameState, started: ev.GameStarted) -> None:
    s.rage = RageState.new(RAGE_1)


def owed_draw(s: GameState) -> PlayerId | None:
    """E4: the next player who must draw a Rage card for the turn just over, clockwise from its
    active player; None when nobody (left) must, or no card is there to draw."""
    r = s.rage
    if r is None or s.turn is not None or r.lost_turn != s.last_turn_number or not r.lost:
        return None
    if not r.pile and not r.discard:
        return None  # every card is in someone's hand: nothing to draw (ruling)
    seat = s.last_active_seat
    first = s.players[seat] if 0 <= seat < len(s.players) else s.players[0]
    for p in clockwise_from(s, first):
        if p.alive and not p.zombie and r.lost.get(p.id, 0) >= 2 and p.id not in r.drawn:
            return p.id
    return None


def _interrupt(s: GameState) -> Awaiting | None:
    """A draw owed at once (a whiskey's), else, between turns, the Rage draws the turn just
    over owes (E4), one at a time."""
    r = s.rage
    if r is not None and r.pair:  # Pixie Pete's second card, then his choice
        chooser = next(p for p, hand in r.hands.items() if r.pair[0] in hand)
        return Awaiting(player=chooser, decision=RAGE_DRAW if len(r.pair) == 1 else PIXIE_KEEP)
    if r is not None and r.owed_now:
        return Awaiting(player=r.owed_now[0], decision=RAGE_DRAW)
    if s.turn is not None:
        return None
    player = owed_draw(s)
    return None if player is None else Awaiting(player=player, decision=RAGE_DRAW)


def _take_rage_arrow(s: GameState, emit: Emit) -> None:
    assert s.turn is not None
    take_arrow(s, s.turn.player, ArrowReason.RAGE, emit)


def _reveal(s: GameState, t: TurnState, active: PlayerState) -> Awaiting | Step | None:
    """S4: the active player's face-down cards are revealed, then their arrows take tokens."""
    r = s.rage
    if r is None:
        return None
    if r.revealed_turn != t.number:
        cards = tuple(r.hands.get(active.id, ()))
        if not cards:
            return None
        event = RageRevealed(player=active.id, cards=cards)
        return lambda s, emit: emit(event)
    if r.arrows_left > 0:
        return arrow_move(s, active.id, _take_rage_arrow)
    return None


def _on_elimination(s: GameState, active: PlayerState, eliminated: Sequence[PlayerState], emit: Emit) -> None:
    r = s.rage
    if r is None:
        return
    for p in eliminated:
        held = r.held(p.id)
        if held:
            emit(RageReturned(player=p.id, count=held))
    if not active.alive:
        r.arrows_left = 0  # the revealed arrows still to take die with the active player


# --- the draw -------------------------------------------------------------------------------------


def _check_draw(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.DrawCard)
    r = rage_of(s)
    drawable = r.drawable()
    if c.card not in drawable:
        if c.card not in r.symbols:
            last = r.order[-1]
            raise IllegalCommand(f"{c.card} is not a card of the Rage deck {r.deck} (r01 to {last})")
        where = "the discards" if c.card in r.discard else "someone's hand"
        raise IllegalCommand(f"Rage card {c.card} is in {where}, not in the pile to draw from")


def _respond_draw(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DrawCard)
    r = rage_of(s)
    emit(RageDrawn(player=q.player, card=c.card, reshuffled=not r.pile))


def _generate_draw(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for card in rage_of(s).drawable():
        yield cmd.DrawCard(player=q.player, card=card)


def _no_timeout(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return None  # a draw is random: the server's or the table's, never a default


RAGE_DRAW_SPEC = DecisionSpec(
    RAGE_DRAW,
    Who.DICE,
    TurnPoint.END_OF_TURN,
    "draw a Rage card",
    (cmd.DrawCard,),
    _check_draw,
    _respond_draw,
    _generate_draw,
    _no_timeout,
    BotHint.ROLL,
)


def _check_keep(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.KeepCard)
    if c.slot not in (0, 1):
        raise IllegalCommand(f"'{c}': Pixie Pete keeps card 0 (the first he drew) or 1 (the second)")


def _respond_keep(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.KeepCard)
    pair = rage_of(s).pair
    emit(RageKept(player=q.player, card=pair[c.slot], returned=pair[1 - c.slot], slot=c.slot))


def _generate_keep(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for slot in (0, 1):
        yield cmd.KeepCard(player=q.player, slot=slot)


def _timeout_keep(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return cmd.KeepCard(player=q.player, slot=0)  # the first drawn (a place, never a card's id)


PIXIE_KEEP_SPEC = DecisionSpec(
    PIXIE_KEEP,
    Who.OWNER,
    TurnPoint.END_OF_TURN,
    "choose which of the two Rage cards drawn to keep",
    (cmd.KeepCard,),
    _check_keep,
    _respond_keep,
    _generate_keep,
    _timeout_keep,
    BotHint.KEEP,
)


def _draw(s: GameState) -> Draw | None:
    """What a Rage draw is among: the deck's version, the cards there, the draw's number."""
    r = s.rage
    return None if r is None else Draw(r.deck, r.drawable(), r.draws)


DRAWS[RAGE_DRAW] = _draw
DRAWN[RageDrawn] = lambda e: e.card  # type: ignore[attr-defined]


UA2 = RulesModule(
    ModuleId.UA2,
    die_kinds=(RAGE,),
    decisions=(RAGE_DRAW_SPEC, PIXIE_KEEP_SPEC),
    hooks=Ability(interrupt=_interrupt, reveal=_reveal, on_elimination=_on_elimination),
    events=MappingProxyType(_HANDLERS),
    on_start=_start,
)
"""UA2, the Rage cards (3 to 8 players)."""

__all__ = [
    "HIDDEN_FIELDS",
    "PIXIE_KEEP",
    "RAGE",
    "RAGE_1",
    "RAGE_DECKS",
    "RAGE_DRAW",
    "UA2",
    "DieKind",
    "RageDecision",
    "RageDrawn",
    "RageKept",
    "RageReturned",
    "RageRevealed",
    "RageState",
    "check_deck",
    "draws_two",
    "hidden_card",
    "owed_draw",
    "pixie_pair",
]
