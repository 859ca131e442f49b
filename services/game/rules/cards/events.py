"""Events: facts in the past tense. The card game's state is the fold of these (``evolve``).

Every event is a msgspec Struct in one tagged union (tag field ``type`` = class name). Random
inputs (a shuffle's order, the card taken at random from a hand) and every player's decision are
recorded here as data; what follows from them (life lost, eliminations, the result) is recorded
too, so an audit can recompute and compare.
"""

from __future__ import annotations

from typing import ClassVar, get_args

import msgspec

from services.game.rules.cards.vocabulary import (
    CardId,
    Cause,
    CharacterId,
    CheckReason,
    DrawReason,
    Phase,
    PlayerId,
    Role,
    Side,
)


class Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, kw_only=True):
    VERSION: ClassVar[int] = 1


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    role: Role
    character: CharacterId


# --- setup and the deck --------------------------------------------------------------------


class PlayerPosition(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    life: int
    hand: tuple[CardId, ...] = ()
    in_play: tuple[CardId, ...] = ()
    alive: bool = True
    eliminated_by: PlayerId | None = None
    """An eliminated player's eliminator (the card's player), with ``eliminated_cause``."""
    eliminated_cause: Cause | None = None
    """None for a player out before a position that does not say how (the results show no cause)."""
    eliminated_turn: int | None = None


class OwedPosition(msgspec.Struct, frozen=True, kw_only=True):
    """Cards ``player`` is still to take from the deck (``DrawsOwed`` not yet all drawn)."""

    player: PlayerId
    count: int
    reason: DrawReason


class CheckPosition(msgspec.Struct, frozen=True, kw_only=True):
    """A draw! under way: its cards flipped so far lie on top of the discard pile, in order."""

    player: PlayerId
    reason: CheckReason
    barrel: CardId | None = None
    flips: tuple[CardId, ...] = ()


class ResolutionPosition(msgspec.Struct, frozen=True, kw_only=True):
    """One card resolving (or Dynamite's explosion: ``card`` None): who still answers, what
    was answered, who lost life, who passed his dying window (``doomed``), whose deferred
    trigger is done. The card's name, window, the Duel's pair and the Missed! needed follow
    from the card and its player; ``store_size`` and ``revealed`` (General Store) default to
    what follows from the position (None)."""

    player: PlayerId | None
    card: CardId | None
    target: PlayerId | None = None
    target_card: CardId | None = None
    responders: tuple[PlayerId, ...] = ()
    got: int = 0
    barrels_used: tuple[CardId, ...] = ()
    jourdonnais_used: bool = False
    effect_done: bool = False
    store_size: int | None = None
    revealed: int | None = None
    resolved: bool = False
    lost: tuple[tuple[PlayerId, int], ...] = ()
    doomed: tuple[PlayerId, ...] = ()
    triggered: tuple[PlayerId, ...] = ()


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """A mid-game starting point (rule cases, resumed table games): where every one of the 80
    cards lies, each player's life, and whose turn it is. Players not listed are living at full
    life with no card.

    Without ``phase`` the active player's turn starts (at its beginning: Dynamite, Jail, phase
    1). With ``phase`` the turn is under way and the position says where it stands: the checks
    made at its start, phase 1's progress, the BANG!s played, the cards owed, a draw! and a
    card resolving, Kit Carlson's look and the General Store's cards (``setup.check_position``
    refuses what the rules could not reach)."""

    players: tuple[PlayerPosition, ...] = ()
    deck: tuple[CardId, ...] = ()
    """Top card first: the deck's cards in a known order; under them ``pool``."""
    discard: tuple[CardId, ...] = ()
    """Top card last."""
    active: PlayerId
    turn: int = 1
    pool: tuple[CardId, ...] = ()
    """The deck's cards in an order nobody knows (a table game), sorted, under ``deck``: the
    table names each as it is taken (``TopCardNamed``)."""
    phase: Phase | None = None
    """None: the turn starts; else the phase under way (``start``: Dynamite and Jail)."""
    dynamite_checked: bool = False
    jail_checked: bool = False
    skip_turn: bool = False
    """The Jail's draw! failed: the turn ends without phase 1."""
    draw_step: int = 0
    """Phase 1 (``GameState.draw_step``): 0 nothing drawn yet, 1 Jesse Jones' card from a hand
    due, 2 drawing done or under way, 3 Black Jack's card shown or Kit Carlson's put back."""
    draw_from: PlayerId | None = None
    """Jesse Jones' chosen hand (``draw_step`` 1)."""
    drawn: tuple[CardId, ...] = ()
    """The cards taken in phase 1 so far, in order."""
    bangs_played: int = 0
    """BANG!s played this turn (Calamity Janet's Missed! as a BANG! counts)."""
    kit: tuple[CardId, ...] = ()
    """The cards Kit Carlson is looking at."""
    store: tuple[CardId, ...] = ()
    """The General Store's face-up cards."""
    owed: tuple[OwedPosition, ...] = ()
    check: CheckPosition | None = None
    resolving: ResolutionPosition | None = None


class GameStarted(Event, frozen=True, kw_only=True):
    seats: tuple[Seat, ...]
    """Clockwise from the first seat."""
    eight_players: bool = False
    """The recorded option: 8 players with two Renegades (Dodge City's role set, base deck)."""
    position: Position | None = None


class DeckShuffled(Event, frozen=True, kw_only=True):
    """A new deck, top card first: all 80 cards at the start, else the whole discard pile.
    Empty: shuffled in an order nobody knows (a table game); each card is named as it is taken."""

    order: tuple[CardId, ...]


class TopCardNamed(Event, frozen=True, kw_only=True):
    """The next card of a deck in an unknown order, as the table saw it taken; ``seen_by``: who
    sees it (None: everybody, it is turned face up)."""

    card: CardId
    seen_by: PlayerId | None = None


class HandsDealt(Event, frozen=True, kw_only=True):
    """Each player's starting hand, dealt one at a time clockwise from the Sheriff."""

    hands: tuple[tuple[PlayerId, tuple[CardId, ...]], ...]


class CardDrawn(Event, frozen=True, kw_only=True):
    """The top card of the deck (or of the discard pile for Pedro Ramirez) into a hand."""

    player: PlayerId
    card: CardId
    reason: DrawReason
    from_discard: bool = False
    shown: bool = False
    """Black Jack's second card is shown to everyone."""


class DrawsOwed(Event, frozen=True, kw_only=True):
    """``player`` is to take ``count`` cards from the deck, one ``CardDrawn`` each."""

    player: PlayerId
    count: int
    reason: DrawReason


class DrawsForfeited(Event, frozen=True, kw_only=True):
    """Deck and discard pile are both empty: the cards still owed are not taken."""

    player: PlayerId


# --- the turn -----------------------------------------------------------------------------


class TurnStarted(Event, frozen=True, kw_only=True):
    player: PlayerId
    turn: int


class PhaseBegan(Event, frozen=True, kw_only=True):
    player: PlayerId
    phase: Phase


class DrawSourceChosen(Event, frozen=True, kw_only=True):
    """Jesse Jones (``from_player``) or Pedro Ramirez (``from_discard``); both unset: the deck."""

    player: PlayerId
    from_player: PlayerId | None = None
    from_discard: bool = False


class KitLooked(Event, frozen=True, kw_only=True):
    """Kit Carlson takes the top card of the deck to look at (seen by him alone)."""

    player: PlayerId
    card: CardId


class KitReturned(Event, frozen=True, kw_only=True):
    """The card Kit Carlson puts back on the deck, face down; he keeps the others. None: deck
    and discard pile held fewer than 3 cards, he keeps what he looked at."""

    player: PlayerId
    card: CardId | None


class CardShown(Event, frozen=True, kw_only=True):
    """Black Jack's second card, shown: a heart or a diamond gives him one more."""

    player: PlayerId
    card: CardId


# --- draw! checks ---------------------------------------------------------------------------


class CheckBegan(Event, frozen=True, kw_only=True):
    player: PlayerId
    reason: CheckReason
    barrel: CardId | None = None


class CardFlipped(Event, frozen=True, kw_only=True):
    """The top card of the deck, flipped face up for a draw! and put on the discard pile."""

    player: PlayerId
    card: CardId


class CheckResolved(Event, frozen=True, kw_only=True):
    """The draw!'s result (None: nothing could be flipped) and whether it succeeded (for
    Dynamite: whether it exploded). Lucky Duke's choice is ``card``."""

    player: PlayerId
    reason: CheckReason
    card: CardId | None
    success: bool


class DynamitePassed(Event, frozen=True, kw_only=True):
    player: PlayerId
    to: PlayerId


# --- playing cards ---------------------------------------------------------------------------


class CardPlayed(Event, frozen=True, kw_only=True):
    """A card leaves the hand: a brown card is set aside while it resolves, a blue one goes in
    play in front of its owner (a Jail in front of ``target``). ``as_bang``: Calamity Janet's
    Missed! played as a BANG!. ``target_card``: the card in play chosen by Panic!/Cat Balou
    (None with a target: a card at random from his hand)."""

    player: PlayerId
    card: CardId
    target: PlayerId | None = None
    target_card: CardId | None = None
    as_bang: bool = False


class Responded(Event, frozen=True, kw_only=True):
    """A response card from the hand to the discard pile: Missed! (or Calamity's BANG!) against a
    shot, BANG! (or Calamity's Missed!) against Indians! or in a Duel, Beer in a dying window."""

    player: PlayerId
    card: CardId


class Passed(Event, frozen=True, kw_only=True):
    """No (further) response in this window; ``automatic``: the engine proved there was none;
    ``timeout``: the player's time ran out online."""

    player: PlayerId
    automatic: bool = False
    timeout: bool = False


class SidKetchumHealed(Event, frozen=True, kw_only=True):
    player: PlayerId
    cards: tuple[CardId, CardId]


class CardDiscarded(Event, frozen=True, kw_only=True):
    """A card from a hand or from play to the discard pile (a replaced weapon, Cat Balou's
    victim, phase 3, an eliminated player's cards, the Sheriff's penalty)."""

    player: PlayerId
    card: CardId


class CardTaken(Event, frozen=True, kw_only=True):
    """A card moves from ``from_player``'s hand or play into ``player``'s hand: Panic!, Jesse
    Jones, El Gringo, Vulture Sam. ``random``: picked at random from the hand."""

    player: PlayerId
    from_player: PlayerId
    card: CardId
    random: bool = False
    hand_card: bool = False
    """The card came from a hand (hidden from others): a random take, or Vulture Sam's."""


class StoreCardRevealed(Event, frozen=True, kw_only=True):
    card: CardId


class StoreCardPicked(Event, frozen=True, kw_only=True):
    player: PlayerId
    card: CardId


class CardResolved(Event, frozen=True, kw_only=True):
    """The brown card set aside goes to the discard pile (None: Dynamite, no card)."""

    card: CardId | None


class LifeLost(Event, frozen=True, kw_only=True):
    player: PlayerId
    amount: int
    source: PlayerId | None


class LifeGained(Event, frozen=True, kw_only=True):
    player: PlayerId
    amount: int


class PlayEnded(Event, frozen=True, kw_only=True):
    player: PlayerId


class PlayerEliminated(Event, frozen=True, kw_only=True):
    player: PlayerId
    role: Role
    by: PlayerId | None
    cause: Cause


class ResolutionEnded(Event, frozen=True, kw_only=True):
    """Every step of a resolution is done; play goes on."""


class TurnEnded(Event, frozen=True, kw_only=True):
    player: PlayerId


class PlayerResult(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    role: Role
    character: CharacterId
    side: Side
    won: bool
    alive: bool
    eliminated_by: str | None = None
    """A player id, ``dynamite`` or ``self``."""
    eliminated_turn: int | None = None


class GameEnded(Event, frozen=True, kw_only=True):
    winner: Side
    turn: int
    results: tuple[PlayerResult, ...]


GameEvent = (
    GameStarted
    | DeckShuffled
    | TopCardNamed
    | HandsDealt
    | CardDrawn
    | DrawsOwed
    | DrawsForfeited
    | TurnStarted
    | PhaseBegan
    | DrawSourceChosen
    | KitLooked
    | KitReturned
    | CardShown
    | CheckBegan
    | CardFlipped
    | CheckResolved
    | DynamitePassed
    | CardPlayed
    | Responded
    | Passed
    | SidKetchumHealed
    | CardDiscarded
    | CardTaken
    | StoreCardRevealed
    | StoreCardPicked
    | CardResolved
    | LifeLost
    | LifeGained
    | PlayEnded
    | PlayerEliminated
    | ResolutionEnded
    | TurnEnded
    | GameEnded
)
EVENT_TYPES: tuple[type[Event], ...] = get_args(GameEvent)
