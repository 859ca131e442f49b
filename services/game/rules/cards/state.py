"""The card game's state: a fold of its events (``evolve``), never edited any other way.

Plain mutable dataclasses for speed; ``GameState.clone`` gives an independent copy. Lists of
cards are ordered: ``deck`` top card first, ``discard`` top card last, ``in_play`` in the order
the cards were put there.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from services.game.rules.cards.deck import name_of
from services.game.rules.cards.events import GameEnded
from services.game.rules.cards.vocabulary import (
    CardId,
    CardName,
    Cause,
    CharacterId,
    CheckReason,
    DrawReason,
    Phase,
    PlayerId,
    Role,
    Window,
)

_NOBODY = PlayerId("")


@dataclass(slots=True)
class PlayerState:
    id: PlayerId
    seat: int
    role: Role
    character: CharacterId
    life: int
    max_life: int
    hand: list[CardId] = field(default_factory=list)
    in_play: list[CardId] = field(default_factory=list)
    alive: bool = True
    eliminated_by: PlayerId | None = None
    eliminated_cause: Cause | None = None
    eliminated_turn: int | None = None

    def has_in_play(self, name: CardName) -> CardId | None:
        for c in self.in_play:
            if name_of(c) is name:
                return c
        return None

    @property
    def card_count(self) -> int:
        return len(self.hand) + len(self.in_play)


@dataclass(slots=True)
class Check:
    """A draw! under way."""

    player: PlayerId
    reason: CheckReason
    barrel: CardId | None = None
    flips: list[CardId] = field(default_factory=list)


@dataclass(slots=True)
class Resolution:
    """One card (or Dynamite's explosion) resolving: responses, then the brown card to the
    discard pile, dying windows, eliminations, the end-of-game check and deferred triggers."""

    source: PlayerId | None
    card: CardId | None
    """The brown card set aside while it resolves; None for Dynamite."""
    name: CardName | None
    target: PlayerId | None = None
    target_card: CardId | None = None
    window: Window | None = None
    responders: list[PlayerId] = field(default_factory=list)
    """Who still has to answer, the awaited one first (a Duel: the one whose turn it is)."""
    need: int = 1
    """Missed! effects needed against the current shot (2 against Slab's BANG! card)."""
    got: int = 0
    barrels_used: list[CardId] = field(default_factory=list)
    jourdonnais_used: bool = False
    duel: tuple[PlayerId, PlayerId] | None = None
    effect_done: bool = False
    store_size: int = 0
    revealed: int = 0
    resolved: bool = False
    """The brown card has gone to the discard pile: responses and effects are over."""
    lost: dict[PlayerId, int] = field(default_factory=dict)
    doomed: list[PlayerId] = field(default_factory=list)
    """Passed their dying window, in resolution order; eliminated next."""
    triggered: list[PlayerId] = field(default_factory=list)
    """Bart Cassidy / El Gringo whose deferred trigger is done."""


@dataclass(slots=True)
class GameState:
    players: list[PlayerState]
    eight_players: bool = False
    phase: Phase = Phase.SETUP
    turn: int = 0
    active: PlayerId = _NOBODY
    deck: list[CardId] = field(default_factory=list)
    """The deck's cards whose order is known, top first; under them ``pool``."""
    pool: list[CardId] = field(default_factory=list)
    """Deck cards in an order nobody knows (a table game's shuffle), kept sorted: the table
    names each as it is taken (``TopCardNamed``)."""
    discard: list[CardId] = field(default_factory=list)
    store: list[CardId] = field(default_factory=list)
    """The General Store's face-up cards."""
    kit: list[CardId] = field(default_factory=list)
    """The cards Kit Carlson is looking at."""
    shuffled: bool = False
    dealt: bool = False
    owed: list[tuple[PlayerId, int, DrawReason]] = field(default_factory=list)
    check: Check | None = None
    res: Resolution | None = None
    dynamite_checked: bool = False
    jail_checked: bool = False
    skip_turn: bool = False
    turn_over: bool = False
    draw_step: int = 0
    """Phase 1: 0 nothing drawn yet, 1 Jesse Jones' card from a hand due, 2 drawing from the deck
    done or under way, 3 Black Jack's card shown."""
    draw_from: PlayerId | None = None
    phase_drawn: list[CardId] = field(default_factory=list)
    bangs_played: int = 0
    opener: PlayerId | None = None
    """Who plays the first turn (the Sheriff, or a position's active player)."""
    result: GameEnded | None = None
    version: int = 0

    def player(self, pid: PlayerId) -> PlayerState:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def living(self) -> list[PlayerState]:
        return [p for p in self.players if p.alive]

    def clockwise_from(self, pid: PlayerId, *, include: bool = True) -> list[PlayerState]:
        """Living players clockwise starting with ``pid`` (or the player after him)."""
        start = self.player(pid).seat
        n = len(self.players)
        order = [self.players[(start + i) % n] for i in range(n)]
        if not include:
            order = order[1:]
        return [p for p in order if p.alive]

    def next_living(self, pid: PlayerId) -> PlayerState:
        return self.clockwise_from(pid, include=False)[0]

    def reshuffled(self) -> list[CardId]:
        """The discard pile's cards a reshuffle takes: all of them, except a draw!'s cards
        already flipped, which lie face up until the draw! resolves (Lucky Duke's first flip
        cannot come back as his second)."""
        flips = self.check.flips if self.check is not None else []
        return [c for c in self.discard if c not in flips]

    def clone(self) -> GameState:
        return copy.deepcopy(self)
