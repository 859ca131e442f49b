"""Events: facts in the past tense. The game's state is the fold of these.

Every event is a msgspec Struct in one tagged union (tag field ``type`` = class name) and has a
schema ``VERSION``; the event store records it beside the payload so an old version can be
upcast on read. Dice faces and player decisions are inputs and are recorded here as data; life
lost, eliminations and the result are outputs that an audit recomputes and compares.
"""

from __future__ import annotations

from typing import ClassVar, get_args

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


class PlayerPosition(msgspec.Struct, frozen=True, kw_only=True):
    """A player's situation when a game starts mid-way (rule cases, resumed table games)."""

    player: PlayerId
    life: int
    arrows: int = 0


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """A mid-game starting point. Players not listed are at full life with no arrows;
    a player at 0 life is out of the game (eliminated before the record starts)."""

    players: tuple[PlayerPosition, ...] = ()
    active_player: PlayerId | None = None
    turn: int = 1
    dice: tuple[Face, ...] | None = None
    """The active player's dice after their last roll; arrows of that roll already taken."""
    rolls_used: int = 1
    chief_holder: PlayerId | None = None
    """OS2: who holds the Chief's Arrow, one of his listed arrows (None: it is in the pile)."""


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
