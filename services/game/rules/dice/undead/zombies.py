"""UA4, "Undead or Alive?": the Boneyard and the zombie outbreak (RULINGS-expansions §2 T1/T2/E6,
§4 UA4, §5, §6; rulings in docs/rulings.md).

- **The Boneyard** is data, versioned (``BONEYARD_DECKS``; ``boneyard-1``: 2 no-hands, 6
  one-hand, 3 two-hand cards, §11 Q2), a card an id (``b01``) and its hands. A reveal is a
  random draw like a Rage card's (``boneyard_draw``, ``Who.DICE``, answered by ``DrawCard``:
  ``p5 draw b04``; online by ``draws-1`` on the deck ``boneyard-1``, at a table the
  scorekeeper's entry), among the cards face down at that moment (``BoneyardRevealed``).
- **Who reveals.** Before an outbreak an eliminated player keeps his turn: he reveals one card
  at the start of each later turn (T2, before anything else of it: the Ghost's turn comes
  after), and once at the end of the turn in which he was eliminated (E6, between the turns,
  clockwise from the player whose turn it was, after the Rage draws). A game that ended reveals
  nothing (a game over asks nothing).
- **The check**, after each reveal: a no-hands card blocks any outbreak for the rest of that
  turn and goes back under the pile at its end (``BoneyardShuffled``); otherwise, hands showing
  greater than the players alive starts the outbreak: at once when the reveal was an eliminated
  player's own turn start (he plays that turn as a zombie), else it is coming
  (``OutbreakTriggered``) and begins at the start of the next seat's turn (T1).
- **The outbreak** (``OutbreakBegan``): the Boneyard is out of the game; the Ghost stops being
  the Ghost (his tokens back first); every eliminated player is a zombie again in play with life
  and max life the number alive then, no character ability (the card is returned), no role
  power; a living Renegade (two: the nearer clockwise from the active player) is the Zombie
  Master and keeps everything. Zombies roll three base dice (``kinds.ZOMBIE_HAND``), their
  arrows take nothing, they never gain life (``hold_gain``); the zombie win conditions replace
  the base ones (``outcome``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

import msgspec

from services.game.rules.dice import commands as cmd
from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.characters import Character
from services.game.rules.dice.decisions import BotHint, DecisionSpec, Who
from services.game.rules.dice.errors import IllegalCommand
from services.game.rules.dice.evolve import set_zombie_hand
from services.game.rules.dice.flow import clockwise_from
from services.game.rules.dice.modules import Handler, RulesModule
from services.game.rules.dice.old_saloon.ghost import GhostTokensReturned
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.state import GameState
from services.game.rules.dice.undead.draws import DRAWN, DRAWS, Draw
from services.game.rules.dice.vocabulary import PlayerId, Role
from services.game.rules.ruleset import ModuleId

Emit = Callable[[ev.Event], None]
Step = Callable[[GameState, Emit], None]

BONEYARD_TABLE = "boneyard"
"""The ruleset's data table naming the Boneyard version (``Ruleset.data``)."""
BONEYARD_1 = "boneyard-1"
BONEYARD_SIZE = 11


def _cards(*groups: tuple[int, int]) -> tuple[tuple[str, int], ...]:
    cards: list[tuple[str, int]] = []
    for count, hands in groups:
        for _ in range(count):
            cards.append((f"b{len(cards) + 1:02d}", hands))
    return tuple(cards)


BONEYARD_DECKS: Mapping[str, tuple[tuple[str, int], ...]] = MappingProxyType(
    {BONEYARD_1: _cards((2, 0), (6, 1), (3, 2))}
)
"""Deck version → its 11 cards in deck order, (id, hands shown): ``boneyard-1`` is b01–b02 no
hands, b03–b08 one hand, b09–b11 two hands (12 hands; §11 Q2). Never edit a version: a
corrected mix is a new one (a record names the version it was played with)."""


def check_deck(cards: Sequence[tuple[str, int]]) -> None:
    """Raise ``ValueError`` unless ``cards`` is a Boneyard: 11 cards, distinct ids, 0 to 2 hands."""
    if len(cards) != BONEYARD_SIZE:
        raise ValueError(f"a Boneyard has {BONEYARD_SIZE} cards, not {len(cards)}")
    if len({c for c, _ in cards}) != len(cards):
        raise ValueError("two Boneyard cards share an id")
    for card, hands in cards:
        if hands not in (0, 1, 2):
            raise ValueError(f"Boneyard card {card} shows 0, 1 or 2 hands, not {hands}")


for _deck in BONEYARD_DECKS.values():
    check_deck(_deck)


class ZombieDecision(StrEnum):
    BONEYARD_DRAW = "boneyard_draw"


BONEYARD_DRAW = ZombieDecision.BONEYARD_DRAW


# --- the state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class BoneyardState:
    deck: str
    hands: Mapping[str, int]
    """Card id → the hands it shows (the version's table)."""
    order: tuple[str, ...]
    pile: list[str]
    """Face down, in deck order (a reveal draws any of them at random)."""
    shown: list[str] = field(default_factory=list)
    """Face up, in the order revealed (a no-hands card only until the end of its turn)."""
    removed: list[str] = field(default_factory=list)
    """Out of the game since the outbreak (every card)."""
    revealed: set[tuple[int, PlayerId]] = field(default_factory=set)
    """(turn, player) of every reveal made: one per eliminated seat's turn (T2), one per player
    at the end of the turn he was eliminated in (E6)."""
    blocked_turn: int | None = None
    """The turn in which a no-hands card was revealed: no outbreak begins in it."""
    triggered_turn: int | None = None
    """The turn at whose end the outbreak was triggered (it begins with the next turn)."""
    outbreak_turn: int | None = None
    draws: int = 0
    """Reveals so far: the next draw's number for the draw derivation."""

    @classmethod
    def new(cls, deck: str) -> BoneyardState:
        cards = BONEYARD_DECKS[deck]
        return cls(deck, MappingProxyType(dict(cards)), tuple(c for c, _ in cards), [c for c, _ in cards])

    def clone(self) -> BoneyardState:
        return BoneyardState(
            self.deck,
            self.hands,
            self.order,
            list(self.pile),
            list(self.shown),
            list(self.removed),
            set(self.revealed),
            self.blocked_turn,
            self.triggered_turn,
            self.outbreak_turn,
            self.draws,
        )

    @property
    def hands_showing(self) -> int:
        return sum(self.hands[c] for c in self.shown)

    @property
    def in_play(self) -> bool:
        """Reveals still come: no outbreak has begun or been triggered."""
        return self.outbreak_turn is None and self.triggered_turn is None

    def drawable(self) -> tuple[str, ...]:
        return tuple(c for c in self.order if c in self.pile)


def boneyard_of(s: GameState) -> BoneyardState:
    assert s.boneyard is not None, "the game has no Boneyard (UA4)"
    return s.boneyard


# --- events ---------------------------------------------------------------------------------------


class BoneyardRevealed(ev.Event, frozen=True, kw_only=True):
    """The eliminated ``player`` revealed the Boneyard card ``card`` (face up, public), showing
    ``hands`` hands; in ``turn`` (his own turn's start, or the end of the turn he fell in)."""

    player: PlayerId
    card: str
    hands: int
    turn: int


class BoneyardShuffled(ev.Event, frozen=True, kw_only=True):
    """At the end of the turn, the no-hands cards revealed in it went back into the pile."""

    cards: tuple[str, ...]


class OutbreakTriggered(ev.Event, frozen=True, kw_only=True):
    """The hands showing outnumber the players alive at the end of ``turn``: the outbreak begins
    at the start of the next seat's turn."""

    turn: int
    hands: int
    alive: int


class OutbreakBegan(ev.Event, frozen=True, kw_only=True):
    """The zombie outbreak, in ``turn``: the Boneyard is out of the game; ``zombies`` (every
    eliminated player) are in play again with ``life`` life and max life; ``master`` (a living
    Renegade, if any) is the Zombie Master."""

    turn: int
    zombies: tuple[PlayerId, ...]
    life: int
    master: PlayerId | None = None


EVENTS: tuple[type[ev.Event], ...] = (BoneyardRevealed, BoneyardShuffled, OutbreakTriggered, OutbreakBegan)


def _revealed(s: GameState, e: BoneyardRevealed) -> None:
    b = boneyard_of(s)
    b.pile.remove(e.card)
    b.shown.append(e.card)
    b.revealed.add((e.turn, e.player))
    b.draws += 1
    if e.hands == 0:
        b.blocked_turn = e.turn


def _shuffled(s: GameState, e: BoneyardShuffled) -> None:
    b = boneyard_of(s)
    for card in e.cards:
        b.shown.remove(card)
        b.pile.append(card)
    b.pile.sort(key=b.order.index)


def _triggered(s: GameState, e: OutbreakTriggered) -> None:
    boneyard_of(s).triggered_turn = e.turn


def zombie_character(ch: Character) -> Character:
    """A plain zombie's card: the character returned, no ability, the base numbers (the id
    stays, for the result: the character he was dealt)."""
    return Character(id=ch.id, name=ch.name, life=ch.life)


def _outbreak_began(s: GameState, e: OutbreakBegan) -> None:
    b = boneyard_of(s)
    b.outbreak_turn = e.turn
    b.removed += b.shown + b.pile
    b.shown, b.pile = [], []
    for pid in e.zombies:
        p = s.by_id[pid]
        p.alive = True
        p.life = p.max_life = e.life
        p.zombie_since = e.turn
        p.ghost_since, p.ghost_gift = None, ()
        p.eliminated_by = p.eliminated_cause = p.eliminated_turn = None
        p.character = zombie_character(p.character)
    if e.master is not None:
        s.by_id[e.master].zombie_master = True
    # the characters changed: who answers a loss is known again (``GameState.__post_init__``)
    s.reactors = frozenset(p.id for p in s.players if p.character.ability.reacts_to_loss)
    s.damage_askers = frozenset(p.id for p in s.players if p.character.ability.on_damage)
    sr = s.special
    if sr is not None:  # OS3: a zombie's power is lost; his card was shown at his elimination
        for pid in e.zombies:
            sr.used.add(pid)
            sr.revealed[pid] = sr.cards[pid]
    t = s.turn
    if t is not None and t.player in e.zombies and t.rolls_used == 0:
        set_zombie_hand(t)  # he plays this very turn as a zombie


_HANDLERS: dict[type[ev.Event], Handler] = {
    BoneyardRevealed: _revealed,
    BoneyardShuffled: _shuffled,
    OutbreakTriggered: _triggered,
    OutbreakBegan: _outbreak_began,
}


# --- hooks ----------------------------------------------------------------------------------------


def _start(s: GameState, started: ev.GameStarted) -> None:
    s.boneyard = BoneyardState.new(BONEYARD_1)


def _end_of_turn_reveal(s: GameState, b: BoneyardState) -> PlayerId | None:
    """E6: the next player eliminated in the turn just over who has not revealed, clockwise
    from its active player."""
    last = s.last_turn_number
    if last < 1 or not b.pile:
        return None
    seat = s.last_active_seat
    first = s.players[seat] if 0 <= seat < len(s.players) else s.players[0]
    for p in clockwise_from(s, first):
        if not p.alive and p.eliminated_turn == last and (last, p.id) not in b.revealed:
            return p.id
    return None


def _interrupt(s: GameState) -> Awaiting | Step | None:
    b = s.boneyard
    if b is None or b.outbreak_turn is not None:
        return None
    t = s.turn
    if t is None:  # between turns: E6's reveals, then the no-hands cards go back
        if b.triggered_turn is None:
            player = _end_of_turn_reveal(s, b)
            if player is not None:
                return Awaiting(player=player, decision=BONEYARD_DRAW)
        if b.blocked_turn == s.last_turn_number:
            back = tuple(c for c in b.shown if b.hands[c] == 0)
            if back:
                event = BoneyardShuffled(cards=back)
                return lambda s, emit: emit(event)
        return None
    if b.triggered_turn is not None:  # T1: triggered at the end of the last turn, it begins now
        return _begin_outbreak
    active = s.by_id[t.player]
    if (
        not active.alive
        and (active.eliminated_turn or 0) < t.number
        and (t.number, active.id) not in b.revealed
        and b.pile
    ):
        return Awaiting(player=active.id, decision=BONEYARD_DRAW)  # T2
    return None


def owed_between_turns(s: GameState) -> bool:
    """Between two turns, whether the Boneyard still has business of the turn just over (E6's
    reveals, the no-hands cards back), which comes before another module's end of turn (OS3's
    extra turn, E7)."""
    return s.turn is None and _interrupt(s) is not None


def _begin_outbreak(s: GameState, emit: Emit) -> None:
    t = s.turn
    assert t is not None
    for p in s.players:  # OS5: the Ghost's tokens come back before he stops being the Ghost
        if p.ghost_gift:
            emit(GhostTokensReturned(player=p.id))
    living = s.living()
    renegades = [p for p in clockwise_from(s, s.by_id[t.player]) if p.alive and p.role is Role.RENEGADE]
    emit(
        OutbreakBegan(
            turn=t.number,
            zombies=tuple(p.id for p in s.players if not p.alive),
            life=len(living),
            master=renegades[0].id if renegades else None,
        )
    )


def _hold_gain(s: GameState, gained: ev.LifeGained, emit: Emit) -> bool:
    """A zombie never gains life: the heal is spent on him and wasted (recorded as a gain of 0)."""
    if gained.amount and s.by_id[gained.player].zombie_since is not None:
        emit(msgspec.structs.replace(gained, amount=0))
        return True
    return False


# --- the draw -------------------------------------------------------------------------------------


def _check_draw(s: GameState, q: Awaiting, c: cmd.Command) -> None:
    assert isinstance(c, cmd.DrawCard)
    b = boneyard_of(s)
    if c.card not in b.pile:
        if c.card not in b.hands:
            raise IllegalCommand(f"{c.card} is not a card of the Boneyard {b.deck} (b01 to {b.order[-1]})")
        raise IllegalCommand(f"Boneyard card {c.card} is face up, not in the pile to reveal from")


def _respond_draw(s: GameState, q: Awaiting, c: cmd.Command, emit: Emit) -> None:
    assert isinstance(c, cmd.DrawCard)
    b = boneyard_of(s)
    t = s.turn
    turn = t.number if t is not None else s.last_turn_number
    emit(BoneyardRevealed(player=q.player, card=c.card, hands=b.hands[c.card], turn=turn))
    alive = len(s.living())
    if b.blocked_turn == turn or b.hands_showing <= alive:
        return
    if t is not None:  # T2: the eliminated player's own turn start, he plays it as a zombie
        _begin_outbreak(s, emit)
    else:
        emit(OutbreakTriggered(turn=turn, hands=b.hands_showing, alive=alive))


def _generate_draw(s: GameState, q: Awaiting) -> Iterator[cmd.GameCommand]:
    for card in boneyard_of(s).drawable():
        yield cmd.DrawCard(player=q.player, card=card)


def _no_timeout(s: GameState, q: Awaiting) -> cmd.GameCommand | None:
    return None  # a reveal is random: the server's or the table's, never a default


BONEYARD_DRAW_SPEC = DecisionSpec(
    BONEYARD_DRAW,
    Who.DICE,
    TurnPoint.ELIMINATED_TURN,
    "reveal a Boneyard card",
    (cmd.DrawCard,),
    _check_draw,
    _respond_draw,
    _generate_draw,
    _no_timeout,
    BotHint.ROLL,
)


def _draw(s: GameState) -> Draw | None:
    """What a Boneyard reveal is among: the deck's version, the cards face down, its number."""
    b = s.boneyard
    return None if b is None else Draw(b.deck, b.drawable(), b.draws)


DRAWS[BONEYARD_DRAW] = _draw
DRAWN[BoneyardRevealed] = lambda e: e.card  # type: ignore[attr-defined]


UA4 = RulesModule(
    ModuleId.UA4,
    decisions=(BONEYARD_DRAW_SPEC,),
    hooks=Ability(interrupt=_interrupt, hold_gain=_hold_gain),
    events=MappingProxyType(_HANDLERS),
    on_start=_start,
)
"""UA4, the zombie outbreak (4 to 8 players)."""

__all__ = [
    "BONEYARD_1",
    "BONEYARD_DECKS",
    "BONEYARD_DRAW",
    "UA4",
    "BoneyardRevealed",
    "BoneyardShuffled",
    "BoneyardState",
    "OutbreakBegan",
    "OutbreakTriggered",
    "ZombieDecision",
    "check_deck",
    "zombie_character",
]
