"""The game's state: a fold of its events (see ``evolve``), never edited any other way.

State objects are plain mutable dataclasses for speed: ``evolve`` updates them in place and
``GameState.clone`` gives an independent copy when a caller needs to keep the old one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from services.game.rules.dice.awaiting import Awaiting
from services.game.rules.dice.characters import Character
from services.game.rules.dice.events import GameEnded
from services.game.rules.dice.kinds import BASE_HAND, DieKind, count_symbols
from services.game.rules.dice.vocabulary import (
    ANY_BEER_FACES,
    ANY_SHOOT_FACES,
    BEER,
    DOUBLE_FACES,
    DYNAMITE,
    GATLING,
    SHOOT_FACES,
    Cause,
    DieIndex,
    Face,
    Phase,
    PlayerId,
    Role,
)

if TYPE_CHECKING:
    from services.game.rules.dice.modules import Rules
    from services.game.rules.dice.old_saloon.special_roles import SpecialRoles
    from services.game.rules.dice.undead.duels import DuelState
    from services.game.rules.dice.undead.rage import RageState
    from services.game.rules.dice.undead.zombies import BoneyardState

DICE_COUNT = 5
_OVER = Phase.OVER
"""As a constant: on Python 3.11 reading ``Phase.OVER`` costs ten times a module constant's read."""


@dataclass(slots=True)
class PlayerState:
    id: PlayerId
    seat: int
    role: Role
    character: Character
    life: int
    max_life: int
    arrows: int = 0
    alive: bool = True
    eliminated_by: PlayerId | None = None
    eliminated_cause: Cause | None = None
    eliminated_turn: int | None = None
    ghost_since: int | None = None
    """OS5: the turn in which this eliminated player became the Ghost (None: not the Ghost)."""
    ghost_gift: tuple[Face, ...] = ()
    """OS5: the faces of the Ghost tokens this player holds (two with the x2 token), until the
    end of his next turn or his elimination."""
    zombie_since: int | None = None
    """UA4: the turn of the outbreak that made this eliminated player a zombie (None: not one).
    A zombie is in play again: he takes turns, counts in distances and can be hit."""
    zombie_master: bool = False
    """UA4: the living Renegade who became the Zombie Master at the outbreak (keeps his life,
    character and ability; not a returning zombie)."""

    @property
    def ghost(self) -> bool:
        """OS5: the Ghost, a seat that is not alive but keeps its turn."""
        return self.ghost_since is not None

    @property
    def zombie(self) -> bool:
        """UA4: a plain zombie (eliminated before the outbreak, back in play). Never heals, takes
        no arrows, Rage cards or wound tokens."""
        return self.zombie_since is not None

    def clone(self) -> PlayerState:
        return PlayerState(
            self.id,
            self.seat,
            self.role,
            self.character,
            self.life,
            self.max_life,
            self.arrows,
            self.alive,
            self.eliminated_by,
            self.eliminated_cause,
            self.eliminated_turn,
            self.ghost_since,
            self.ghost_gift,
            self.zombie_since,
            self.zombie_master,
        )


class BatchKind:
    DYNAMITE = "dynamite"
    SHOTS = "shots"
    GATLING = "gatling"
    BULLET = "bullet"  # OS1: one bullet face, while rolling
    DUEL = "duel"  # UA1: the loser of one duel


@dataclass(slots=True)
class DamageBatch:
    """Life lost at once by one dice step; the reactions to it are tracked here."""

    kind: str
    source: PlayerId | None
    lost: dict[PlayerId, int] = field(default_factory=dict)
    discard_decided: set[PlayerId] = field(default_factory=set)
    hit_backs_given: int = 0

    def clone(self) -> DamageBatch:
        return DamageBatch(
            self.kind, self.source, dict(self.lost), set(self.discard_decided), self.hit_backs_given
        )


@dataclass(frozen=True, slots=True)
class FinalDice:
    """The dice once rolling is over, sorted by what they show. They cannot change again in
    the turn, and the resolving steps ask about them after every step (``flow.next_move``),
    so they are worked out once per turn (``TurnState.final_dice``)."""

    shoot: tuple[DieIndex, ...]
    """Shoot1 and shoot2 dice, in die order."""
    beer: tuple[DieIndex, ...]
    """Every beer die, in die order (one may later be spent on a doubled shot)."""
    dynamite: int
    gatling: int
    doubles: tuple[DieIndex, ...] = ()
    """Shoot and beer dice showing two symbols (OS1's doubles): each symbol is aimed on its own,
    so such a die is aimed twice. Empty in the base game."""

    @classmethod
    def of(cls, dice: list[Face | None], kinds: tuple[DieKind, ...] = BASE_HAND) -> FinalDice:
        if kinds is not BASE_HAND and not all(k.single_symbol for k in kinds):
            # every count is of symbols: a double face counts twice (RULINGS-expansions §0)
            shoot = tuple([i for i, f in enumerate(dice) if f in ANY_SHOOT_FACES])
            beer = tuple([i for i, f in enumerate(dice) if f in ANY_BEER_FACES])
            return cls(
                shoot=shoot,
                beer=beer,
                dynamite=count_symbols(kinds, dice, DYNAMITE),
                gatling=count_symbols(kinds, dice, GATLING),
                doubles=tuple([i for i in shoot + beer if dice[i] in DOUBLE_FACES]),
            )
        return cls(
            shoot=tuple([i for i, f in enumerate(dice) if f in SHOOT_FACES]),
            beer=tuple([i for i, f in enumerate(dice) if f is BEER]),
            dynamite=dice.count(DYNAMITE),
            gatling=dice.count(GATLING),
        )


@dataclass(slots=True)
class TurnState:
    player: PlayerId
    number: int
    phase: Phase = Phase.ROLLING
    dice: list[Face | None] = field(default_factory=lambda: [None] * DICE_COUNT)
    rolls_used: int = 0
    pending_roll: tuple[DieIndex, ...] | None = tuple(range(DICE_COUNT))
    roll_arrows_left: int = 0
    targets: dict[DieIndex, tuple[PlayerId, Face]] = field(default_factory=dict)
    """Die → (target, face it is used as)."""
    doubled: tuple[DieIndex, DieIndex] | None = None
    decided: set[str] = field(default_factory=set)
    """Once-per-turn decisions already answered (turn-start heal, double shot, arrow removal)."""
    arrows_instead: dict[str, int] = field(default_factory=dict)
    """"<batch kind>:<player>" → arrows taken instead of life (Bart Cassidy)."""
    batch: DamageBatch | None = None
    dynamite_done: bool = False
    shots_done: bool = False
    beers_done: bool = False
    gatling_done: bool = False
    final: FinalDice | None = field(default=None, repr=False, compare=False)
    """``final_dice()`` once asked: derived from ``dice``, not a fact of its own."""
    kinds: tuple[DieKind, ...] = BASE_HAND
    """The kind of each die (``dice[i]`` shows a face of ``kinds[i]``): five base dice unless a
    module's start-of-turn hook gives another hand (the Saloon die, the Duel dice)."""
    second_targets: dict[DieIndex, tuple[PlayerId, Face]] = field(default_factory=dict)
    """A double die's second symbol → (target, symbol it is used as); ``targets`` holds the
    first. Empty in the base game."""
    roll_broken_left: int = 0
    """``broken_arrow`` faces of the last roll still to act (OS1)."""
    roll_bullets_left: int = 0
    """``bullet`` faces of the last roll still to act (OS1)."""
    preset: tuple[DieIndex, ...] = ()
    """OS5: the dice a Ghost token set before the first roll: never rolled, never rerolled (by
    anyone: Black Jack, Le Joueur), acting as rolled with the first roll."""
    rolled: tuple[DieIndex, ...] = ()
    """The dice of the last roll (OS3's Le Doc sets a die before that roll's effects apply)."""
    cancelled: tuple[DieIndex, ...] = ()
    """Final dice whose symbol a Duel Wound token cancelled (UA1): they resolve nothing."""

    def clone(self) -> TurnState:
        return TurnState(
            self.player,
            self.number,
            self.phase,
            list(self.dice),
            self.rolls_used,
            self.pending_roll,
            self.roll_arrows_left,
            dict(self.targets),
            self.doubled,
            set(self.decided),
            dict(self.arrows_instead),
            None if self.batch is None else self.batch.clone(),
            self.dynamite_done,
            self.shots_done,
            self.beers_done,
            self.gatling_done,
            self.final,  # immutable: shared
            self.kinds,
            dict(self.second_targets),
            self.roll_broken_left,
            self.roll_bullets_left,
            self.preset,
            self.rolled,
            self.cancelled,
        )

    def faces(self) -> list[Face]:
        return [f for f in self.dice if f is not None]

    def count(self, face: Face) -> int:
        return self.dice.count(face)  # dice hold Face members or None; list.count runs in C

    def dice_showing(self, faces: frozenset[Face] | set[Face]) -> list[DieIndex]:
        return [i for i, f in enumerate(self.dice) if f in faces]

    def shoot_dice(self) -> list[DieIndex]:
        return self.dice_showing(SHOOT_FACES)

    def final_dice(self) -> FinalDice:
        """The final dice by face; only once rolling is over (phase ``RESOLVING``)."""
        final = self.final
        if final is None:
            assert self.phase is Phase.RESOLVING, "the dice are not final yet"
            dice = self.dice
            if self.cancelled:  # UA1's wound tokens: a cancelled die shows nothing to resolve
                dice = [None if i in self.cancelled else f for i, f in enumerate(dice)]
            final = self.final = FinalDice.of(dice, self.kinds)
        return final

    def beer_dice(self) -> tuple[DieIndex, ...]:
        """Beer dice that still heal (not spent on a doubled shot), once the dice are final."""
        beers = self.final_dice().beer
        if self.doubled is None:
            return beers
        spent = self.doubled[1]
        # half of a double beer spent leaves its other half to heal
        return tuple(i for i in beers if i != spent or self.dice[i] is Face.BEERX2)


@dataclass(slots=True)
class HeldLosses:
    """One step's losses, held back before they apply while a player is asked about them (OS4's
    Molly Stark may lose another's life in his place): folded from that module's events."""

    kind: str
    """The step: a batch kind (``shots``, ``gatling``, ``dynamite``, ``bullet``) or
    ``indian_attack``."""
    source: PlayerId | None
    hits: list[tuple[PlayerId, int, Cause, DieIndex | None]]
    answers: dict[PlayerId, bool] = field(default_factory=dict)
    """Target → whether his loss was taken over, answered in turn."""

    def clone(self) -> HeldLosses:
        return HeldLosses(self.kind, self.source, list(self.hits), dict(self.answers))


@dataclass(slots=True)
class GameState:
    players: list[PlayerState]
    arrow_pile: int
    arrow_total: int
    three_player: bool
    rules: Rules = field(repr=False, compare=False)
    """The game's rules table (``modules.rules_for``): the base game and its modules. Shared by
    every state of the game, never changed."""
    turn: TurnState | None = None
    last_active_seat: int = -1
    last_turn_number: int = 0
    phase: Phase = Phase.ROLLING
    result: GameEnded | None = None
    version: int = 0
    """How many events have been folded into this state."""
    by_id: dict[PlayerId, PlayerState] = field(default_factory=dict, repr=False)
    resting: tuple[int, Awaiting | None] | None = field(default=None, repr=False, compare=False)
    """(version, open question) noted by ``flow.advance`` so that asking again at the same
    version costs nothing; ignored once ``version`` moves on (every event bumps it)."""
    chief_holder: PlayerId | None = None
    """Who holds the Chief's Arrow (OS2); None while it is in the pile or out of the game. It is
    one of its holder's ``arrows`` tokens (worth two in an Indian attack)."""
    chief_in_pile: bool = False
    """The Chief's Arrow is one of the ``arrow_pile`` tokens (OS2)."""
    reactors: frozenset[PlayerId] = field(default=frozenset(), repr=False, compare=False)
    """Players whose ability answers a loss of life once it applies (``Ability.reacts_to_loss``)."""
    damage_askers: frozenset[PlayerId] = field(default=frozenset(), repr=False, compare=False)
    """Players whose ability answers a loss before it applies (``Ability.on_damage``)."""
    special: SpecialRoles | None = None
    """OS3: the special role cards, who revealed and used his, the windows open and passed."""
    held: HeldLosses | None = None
    """A step's losses waiting for answers before they apply (OS4); None otherwise."""
    rage: RageState | None = None
    """UA2: the Rage deck, its discards and the face-down cards each player holds."""
    duels: DuelState | None = None
    """UA1: the wound tokens (pile and held) and the turn's whiskeys and duels."""
    boneyard: BoneyardState | None = None
    """UA4: the Boneyard deck (face down, face up), the reveals made, the outbreak's turn."""

    def __post_init__(self) -> None:
        self.by_id = {p.id: p for p in self.players}
        # characters never change during a game: who answers a loss is known once, so the steps
        # asked after every loss test a set instead of walking the table
        self.reactors = frozenset(p.id for p in self.players if p.character.ability.reacts_to_loss)
        self.damage_askers = frozenset(p.id for p in self.players if p.character.ability.on_damage)

    def clone(self) -> GameState:
        return GameState(
            [p.clone() for p in self.players],
            self.arrow_pile,
            self.arrow_total,
            self.three_player,
            self.rules,
            None if self.turn is None else self.turn.clone(),
            self.last_active_seat,
            self.last_turn_number,
            self.phase,
            self.result,
            self.version,
            chief_holder=self.chief_holder,
            chief_in_pile=self.chief_in_pile,
            special=None if self.special is None else self.special.clone(),
            held=None if self.held is None else self.held.clone(),
            rage=None if self.rage is None else self.rage.clone(),
            duels=None if self.duels is None else self.duels.clone(),
            boneyard=None if self.boneyard is None else self.boneyard.clone(),
        )

    def player(self, id: PlayerId) -> PlayerState:
        return self.by_id[id]

    def regular_arrows(self, p: PlayerState) -> int:
        """The regular arrow tokens ``p`` holds (not the Chief's Arrow)."""
        return p.arrows - 1 if self.chief_holder == p.id else p.arrows

    @property
    def outbreak(self) -> bool:
        """UA4: the zombie outbreak has begun (zombies in play, the zombie win conditions)."""
        b = self.boneyard
        return b is not None and b.outbreak_turn is not None

    def living(self) -> list[PlayerState]:
        return [p for p in self.players if p.alive]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER  # a constant: asked after every command of a bot game

    @property
    def active(self) -> PlayerState | None:
        return None if self.turn is None else self.by_id[self.turn.player]
