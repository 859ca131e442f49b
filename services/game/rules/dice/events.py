"""Events: facts in the past tense. The game's state is the fold of these.

Every event is a msgspec Struct in one tagged union (tag field ``type`` = class name) and has a
schema ``VERSION``; the event store records it beside the payload so an old version can be
upcast on read. Dice faces and player decisions are inputs and are recorded here as data; life
lost, eliminations and the result are outputs that an audit recomputes and compares.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, get_args

import msgspec

from services.game.rules.dice.vocabulary import (
    ArrowReason,
    Cause,
    CharacterId,
    DieIndex,
    Face,
    GainCause,
    PlayerId,
    Role,
    RollingEnd,
    Side,
    SpecialRole,
)


class Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, kw_only=True):
    VERSION: ClassVar[int] = 1


# --- setup --------------------------------------------------------------------------------


class Seat(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    player: PlayerId
    role: Role
    character: CharacterId
    special: SpecialRole | None = None
    """OS3: the special role card (its base role is ``role``); omitted without OS3, so a base
    game's seats encode as they always did."""
    legacy_bonus: int = 0
    """UA5: extra starting and max life of a Sheriff designated by the surviving Sheriff of the
    series' previous game (1), on top of the Sheriff's +2; omitted when 0."""


Small = Annotated[int, msgspec.Meta(ge=0, le=100_000)]
"""A count, a turn or a die of a position: never negative, bounded like a record's turns."""
Word = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Key = Annotated[str, msgspec.Meta(min_length=1, max_length=160)]
"""A decision answered, by the engine's key: a name, then what it was for (a step, a player id
of up to 64 characters: ``molly_take-left:shots:p1``)."""
"""A step, window, decision, die kind or card name of a position: the checks say which exist."""


class PositionPart(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """A part of a position's expansion fields: defaults never written, unknown fields refused."""


class Eliminated(PositionPart, frozen=True, kw_only=True):
    """How a player listed at 0 life left the game, as his result will say (turn 0 and nobody:
    before the record started)."""

    turn: Small = 0
    by: PlayerId | None = None
    cause: Cause | None = None


class ZombiePosition(PositionPart, frozen=True, kw_only=True):
    """UA4: a plain zombie, back in play since the outbreak of turn ``since`` with ``max_life``
    (the number of players alive then); no ability, no role power."""

    since: Small
    max_life: Small


class SpecialPosition(PositionPart, frozen=True, kw_only=True):
    """OS3: what the table knows of a seat's special role card (the card is the seat's)."""

    revealed: bool = False
    """Face up (L'Ours always is; a used card is too)."""
    used: bool = False
    """Its once-per-game power is spent."""


class PlayerPosition(msgspec.Struct, frozen=True, kw_only=True):
    """A player's situation when a game starts mid-way (rule cases, resumed table games).

    The fields after ``arrows`` are the expansions' and are never written when unset (UNSET),
    so a base-game position encodes as it always did."""

    player: PlayerId
    life: int
    arrows: int = 0
    eliminated: Eliminated | msgspec.UnsetType = msgspec.UNSET
    """With ``life`` 0: when, by whom and how he was eliminated (unset: before the record)."""
    ghost_since: Small | msgspec.UnsetType = msgspec.UNSET
    """OS5: the eliminated player is the Ghost since this turn."""
    ghost_tokens: tuple[Face, ...] | msgspec.UnsetType = msgspec.UNSET
    """OS5: the Ghost token faces this player holds (the face twice with the x2 token)."""
    zombie: ZombiePosition | msgspec.UnsetType = msgspec.UNSET
    zombie_master: bool | msgspec.UnsetType = msgspec.UNSET
    """UA4: the living Renegade who became the Zombie Master at the outbreak."""
    wounds: tuple[Face, ...] | msgspec.UnsetType = msgspec.UNSET
    """UA1: the wound tokens he holds face up, by symbol (one of each at most)."""
    rage: tuple[Word, ...] | msgspec.UnsetType = msgspec.UNSET
    """UA2: the Rage cards he holds face down, in the order drawn."""
    special: SpecialPosition | msgspec.UnsetType = msgspec.UNSET
    """OS3: his special role card revealed or used."""


class Aim(PositionPart, frozen=True, kw_only=True):
    """A die (0-based, as in the inputs) already aimed at a player, used as ``face``."""

    die: Small
    target: PlayerId
    face: Face


class DoubledShot(PositionPart, frozen=True, kw_only=True):
    shot_die: Small
    beer_die: Small


class ArrowsInstead(PositionPart, frozen=True, kw_only=True):
    """Bart Cassidy's answer for one step: ``count`` arrows taken instead of life."""

    step: Word
    player: PlayerId
    count: Small


class LossBatch(PositionPart, frozen=True, kw_only=True):
    """The step whose losses are being answered (Pedro Ramirez's discards, hit-backs)."""

    step: Word
    """``dynamite``, ``shots``, ``gatling``, ``bullet`` (OS1) or ``duel`` (UA1)."""
    source: PlayerId | None = None
    lost: dict[PlayerId, Small] = {}
    """Life each player lost in it so far."""
    discards_answered: tuple[PlayerId, ...] = ()
    hit_backs: Small = 0


class TurnPosition(PositionPart, frozen=True, kw_only=True):
    """The active player's turn, already started, at a point in its middle: what it has done so
    far. ``{}`` is a turn started and nothing done yet; with ``dice``, ``rolls_used`` may be 0."""

    hand: tuple[Word, ...] = ()
    """The kind of each die (``base``, ``loudmouth``, ``coward``, ``duel``, ``wound``, ``rage``)
    when not five base dice (a zombie's three base dice need not be said)."""
    to_roll: tuple[Small, ...] | None = None
    """The dice about to be rolled (the next input is their roll)."""
    dice_final: bool = False
    """Rolling is over: the dice resolve (``dice`` top-level shows them)."""
    arrows_to_take: Small = 0
    """Arrow faces of the last roll still to take their token."""
    broken_arrows_to_act: Small = 0
    bullets_to_act: Small = 0
    rolled: tuple[Small, ...] = ()
    """The dice of the last roll."""
    preset: tuple[Small, ...] = ()
    """Dice set before the first roll (a Ghost token, a revealed Rage card, the wound dynamite)."""
    cancelled: tuple[Small, ...] = ()
    """UA1: final dice a wound token cancelled."""
    targets: tuple[Aim, ...] = ()
    second_targets: tuple[Aim, ...] = ()
    """The second symbol of a double face (OS1)."""
    doubled: DoubledShot | None = None
    answered: tuple[Key, ...] = ()
    """The once-per-turn (or per-roll) decisions already answered, by decision name."""
    arrows_instead: tuple[ArrowsInstead, ...] = ()
    steps_done: tuple[Word, ...] = ()
    """Of ``dynamite``, ``shots``, ``beers``, ``gatling``: the resolving steps already done."""
    batch: LossBatch | None = None


class Hit(PositionPart, frozen=True, kw_only=True):
    player: PlayerId
    amount: Small
    cause: Cause
    die: Small | None = None


class HeldLossesPosition(PositionPart, frozen=True, kw_only=True):
    """OS4: a step's losses held back while players are asked about them (Molly Stark)."""

    step: Word
    source: PlayerId | None = None
    hits: tuple[Hit, ...] = ()
    answers: dict[PlayerId, bool] = {}


class PowerUse(PositionPart, frozen=True, kw_only=True):
    """OS3: a power revealed and not yet applied (Le Juge may still cancel it)."""

    player: PlayerId
    role: SpecialRole
    window: Word
    target: PlayerId | None = None
    other: PlayerId | None = None
    die: Small | None = None
    face: Face | None = None


class HeldGain(PositionPart, frozen=True, kw_only=True):
    player: PlayerId
    amount: Small
    cause: GainCause
    source: PlayerId | None = None


class HeldEliminations(PositionPart, frozen=True, kw_only=True):
    source: PlayerId | None = None
    players: tuple[PlayerId, ...] = ()
    causes: tuple[Cause, ...] = ()


class SpecialRolesPosition(PositionPart, frozen=True, kw_only=True):
    """OS3's table-wide business at this point (each seat's card is in its ``Seat``)."""

    windows_closed: tuple[Word, ...] = ()
    """Windows of this turn already closed: ``S:<turn>`` (start), ``R:<turn>:<roll>`` (after a
    roll), ``L:<turn>`` (after the last roll), ``E:<turn>`` (end of turn)."""
    pending: PowerUse | None = None
    judge_passed: bool = False
    held_gains: tuple[HeldGain, ...] = ()
    gains_closed: bool = False
    gains_cancelled_of: PlayerId | None = None
    held_eliminations: HeldEliminations | None = None
    eliminations_closed: bool = False
    extra_turn: PlayerId | None = None
    """Main Droite's extra turn, still to be played by this player."""


class WoundsPosition(PositionPart, frozen=True, kw_only=True):
    """UA1: the duels' business. The pile face down is every token not held (``wounds``)."""

    owed: tuple[PlayerId, ...] = ()
    """Duel losers still to draw a wound token, in order."""
    draws: Small = 0
    """Wound tokens drawn so far in the game (the next draw's number)."""
    throws: Small = 0
    """Duel throws so far in the game."""
    whiskeys: Small = 0
    """This turn's: whiskeys drunk, …"""
    discard_due: bool = False
    applied: bool = False
    duels_used: Small = 0
    challenged: tuple[PlayerId, ...] = ()
    thrower: PlayerId | None = None
    dynamite_set: bool = False
    loser: PlayerId | None = None
    winner: PlayerId | None = None
    throw_held: bool = False
    rerolled: bool = False


class RagePosition(PositionPart, frozen=True, kw_only=True):
    """UA2: the Rage deck. Face down in the pile: every card neither held nor discarded (a draw
    names the card drawn, so the pile's order is never needed)."""

    discard: tuple[Word, ...] = ()
    lost: dict[PlayerId, Small] = {}
    """Life each player lost in this turn (or the turn just over), for the end-of-turn draws."""
    drawn: tuple[PlayerId, ...] = ()
    """Who drew for that turn already."""
    revealed: bool = False
    """The active player revealed his cards this turn."""
    arrows_to_take: Small = 0
    """Arrow symbols of the cards just revealed still to take a token."""
    draws: Small = 0
    """Cards drawn so far in the game (the next draw's number)."""
    owed_now: tuple[PlayerId, ...] = ()
    """Draws owed at once (a whiskey with no wound token to discard)."""
    pair: tuple[Word, ...] = ()
    """Pixie Pete's cards of the draw on now (the last ones of his ``rage``)."""


class Reveal(PositionPart, frozen=True, kw_only=True):
    turn: Small
    player: PlayerId


class BoneyardPosition(PositionPart, frozen=True, kw_only=True):
    """UA4: the Boneyard before the outbreak (face down: every card not face up), or the
    outbreak's turn (the Boneyard is then out of the game)."""

    shown: tuple[Word, ...] = ()
    """Cards face up, in the order revealed."""
    reveals: tuple[Reveal, ...] = ()
    """(turn, player) of the reveals of this turn (or of the turn just over)."""
    blocked_turn: Small | None = None
    triggered_turn: Small | None = None
    outbreak_turn: Small | None = None
    draws: Small = 0
    """Reveals so far in the game (the next draw's number)."""


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """A mid-game starting point. Players not listed are at full life with no arrows;
    a player at 0 life is out of the game (eliminated before the record starts).

    The fields after ``chief_holder`` state what only the expansions or the middle of a turn
    hold; they are never written when unset (UNSET), so the positions written before them
    encode as they always did (``positions.position_of`` writes any state as one)."""

    players: tuple[PlayerPosition, ...] = ()
    active_player: PlayerId | None = None
    turn: int = 1
    dice: tuple[Face | None, ...] | None = None
    """The active player's dice after their last roll; arrows of that roll already taken. With
    ``in_turn``, a die not rolled yet is null."""
    rolls_used: int = 1
    chief_holder: PlayerId | None = None
    """OS2: who holds the Chief's Arrow, one of his listed arrows (None: it is in the pile)."""
    turn_ended: bool | msgspec.UnsetType = msgspec.UNSET
    """The active player's turn ``turn`` is over: the business between two turns is on (Rage
    draws, Boneyard reveals, the end-of-turn window), then the next seat's turn starts."""
    in_turn: TurnPosition | msgspec.UnsetType = msgspec.UNSET
    """The active player's turn has started: what it did so far (else it starts from its
    beginning, or from ``dice``)."""
    held_losses: HeldLossesPosition | msgspec.UnsetType = msgspec.UNSET
    sheriff: PlayerId | msgspec.UnsetType = msgspec.UNSET
    """OS3: Le Bien who became the Sheriff (the former Sheriff is a Deputy since)."""
    special_roles: SpecialRolesPosition | msgspec.UnsetType = msgspec.UNSET
    wound_tokens: WoundsPosition | msgspec.UnsetType = msgspec.UNSET
    rage_deck: RagePosition | msgspec.UnsetType = msgspec.UNSET
    boneyard: BoneyardPosition | msgspec.UnsetType = msgspec.UNSET


class GameStarted(Event, frozen=True, kw_only=True):
    seats: tuple[Seat, ...]
    """Clockwise from the first seat."""
    arrow_pile: int = 9
    position: Position | None = None


# --- a turn ---------------------------------------------------------------------------------


class TurnStarted(Event, frozen=True, kw_only=True):
    player: PlayerId
    turn: int


class TargetChosen(Event, frozen=True, kw_only=True):
    """A die (or an ability, ``die`` None) was aimed at a player."""

    player: PlayerId
    target: PlayerId
    die: DieIndex | None = None
    as_face: Face | None = None


class RerollChosen(Event, frozen=True, kw_only=True):
    player: PlayerId
    dice: tuple[DieIndex, ...]


class DiceRolled(Event, frozen=True, kw_only=True):
    player: PlayerId
    roll: int
    """1 for the first roll of the turn, 2 for the first reroll, …"""
    dice: tuple[DieIndex, ...]
    faces: tuple[Face, ...]


class DiceFinalized(Event, frozen=True, kw_only=True):
    player: PlayerId
    faces: tuple[Face, ...]
    reason: RollingEnd


class ArrowTaken(Event, frozen=True, kw_only=True):
    player: PlayerId
    reason: ArrowReason


class ChiefArrowTaken(Event, frozen=True, kw_only=True):
    """OS2: ``player`` took the Chief's Arrow from the pile (worth two in an Indian attack)."""

    player: PlayerId
    reason: ArrowReason


class ArrowsReturned(Event, frozen=True, kw_only=True):
    player: PlayerId
    count: int
    reason: ArrowReason


class IndiansAttacked(Event, frozen=True, kw_only=True):
    """The last arrow was taken. Losses follow as LifeLost events."""


class AllArrowsReturned(Event, frozen=True, kw_only=True):
    """After an Indian attack every arrow goes back to the pile."""


class DynamiteExploded(Event, frozen=True, kw_only=True):
    player: PlayerId


class ShotDoubled(Event, frozen=True, kw_only=True):
    player: PlayerId
    shot_die: DieIndex
    beer_die: DieIndex


class AbilityDeclined(Event, frozen=True, kw_only=True):
    """An optional decision was answered "no"."""

    player: PlayerId
    decision: str


class ArrowsInsteadChosen(Event, frozen=True, kw_only=True):
    """Bart Cassidy takes ``count`` arrows instead of losing that much life (may be 0)."""

    player: PlayerId
    count: int
    step: str
    """The dice step whose losses this answers: ``shots`` or ``gatling``."""


class ChiefArrowsInsteadChosen(Event, frozen=True, kw_only=True):
    """OS2: Bart Cassidy takes ``count`` arrows instead of losing that much life, the first of
    them the Chief's Arrow (``ArrowsInsteadChosen`` otherwise)."""

    player: PlayerId
    count: int
    step: str


class ShotsFired(Event, frozen=True, kw_only=True):
    """All shot targets are fixed; the losses follow simultaneously."""

    player: PlayerId


class GatlingFired(Event, frozen=True, kw_only=True):
    player: PlayerId


class LifeLost(Event, frozen=True, kw_only=True):
    player: PlayerId
    amount: int
    source: PlayerId | None
    cause: Cause
    die: DieIndex | None = None


class LifeGained(Event, frozen=True, kw_only=True):
    player: PlayerId
    amount: int
    cause: GainCause
    source: PlayerId | None = None


class ArrowsRemoved(Event, frozen=True, kw_only=True):
    """Kit Carlson made these players return one arrow each (a player may appear twice)."""

    player: PlayerId
    from_players: tuple[PlayerId, ...]


class PlayerEliminated(Event, frozen=True, kw_only=True):
    player: PlayerId
    role: Role
    source: PlayerId | None
    cause: Cause
    turn: int


class TurnEnded(Event, frozen=True, kw_only=True):
    player: PlayerId


# --- the end ----------------------------------------------------------------------------


class PlayerResult(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerId
    role: Role
    character: CharacterId
    side: Side
    won: bool
    alive: bool
    eliminated_by: PlayerId | None = None
    eliminated_cause: Cause | None = None
    eliminated_turn: int | None = None
    ghost: bool | msgspec.UnsetType = msgspec.UNSET
    """OS5: True for the Ghost. UNSET (never encoded) for everyone else, so the results of a
    game without a Ghost encode as they always did (this struct does not omit defaults)."""
    special: SpecialRole | msgspec.UnsetType = msgspec.UNSET
    """OS3: the player's special role card (public once the game is over); UNSET otherwise."""
    zombie: bool | msgspec.UnsetType = msgspec.UNSET
    """UA4 after an outbreak: True for a plain zombie, False for everyone else (the Zombie
    Master's ``side`` is ``zombie_master``); UNSET when no outbreak happened."""


class GameEnded(Event, frozen=True, kw_only=True):
    winning_side: Side | None
    """None only when every player of a three-player game died at once."""
    winners: tuple[PlayerId, ...]
    results: tuple[PlayerResult, ...]
    turn: int
    outbreak_turn: int | msgspec.UnsetType = msgspec.UNSET
    """UA4: the turn in which the outbreak began; UNSET when none did (winning_side is then a
    base side; after one it is ``zombies`` or ``survivors``)."""


GameEvent = (
    GameStarted
    | TurnStarted
    | TargetChosen
    | RerollChosen
    | DiceRolled
    | DiceFinalized
    | ArrowTaken
    | ChiefArrowTaken
    | ArrowsReturned
    | IndiansAttacked
    | AllArrowsReturned
    | DynamiteExploded
    | ShotDoubled
    | AbilityDeclined
    | ArrowsInsteadChosen
    | ChiefArrowsInsteadChosen
    | ShotsFired
    | GatlingFired
    | LifeLost
    | LifeGained
    | ArrowsRemoved
    | PlayerEliminated
    | TurnEnded
    | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in get_args(GameEvent)}
