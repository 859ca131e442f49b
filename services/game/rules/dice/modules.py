"""The module seam: what the dice engine plays, assembled from the modules a game enables.

A ``RulesModule`` is what one expansion module brings to the engine: characters, die kinds,
decisions (``DecisionSpec``), hooks at the points of the turn (an ``Ability`` whose owner is the
active player, e.g. the Saloon die choice at ``start_of_turn``), the hand of dice a turn rolls,
and the handlers of its own events. ``rules_for(modules)`` assembles the base game and the
enabled modules into one ``Rules`` table, once per module set (cached), and every game state
carries it (``GameState.rules``): ``decide``, ``legal``, ``flow``, ``evolve``, the timeouts and
the bots read the game's table, never a module's globals.

The base game is the empty module set. Each expansion module is a file of its expansion's
package (``old_saloon``) that ``register``s its ``RulesModule`` when the engine is imported;
``ENGINE_MODULES`` shows what is registered and ``rules_for`` refuses any other module by name.

A module's rules follow the versions of its data tables (``Ruleset.data``): when a table's
version changes a rule, the module keeps the older version's rules as ``RulesModule.versions``
(UA3: ``characters-ua3 ua3-1``, Greg Digger's two heals to one target), and ``rules_of`` plays a
recorded game with the versions it recorded, so a stored game replays exactly as it was played.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import msgspec

from services.game.rules.dice import events as ev
from services.game.rules.dice.abilities import Ability, Emit, Step
from services.game.rules.dice.awaiting import describe_with
from services.game.rules.dice.characters import CHARACTERS, Character
from services.game.rules.dice.decisions import BASE_DECISIONS, DecisionSpec
from services.game.rules.dice.errors import InvalidSetup
from services.game.rules.dice.kinds import BASE, BASE_HAND, DieKind
from services.game.rules.dice.vocabulary import Cause, CharacterId, DieIndex, PlayerId
from services.game.rules.ruleset import CHARACTER_NEEDS, MODULES, GameType, ModuleId, Ruleset, ruleset_of

ARROW_TOKENS = 9
"""The base game's arrow pile."""

if TYPE_CHECKING:
    from services.game.rules.dice.awaiting import Awaiting
    from services.game.rules.dice.state import GameState, PlayerState

Hand = Callable[["GameState", "PlayerState"], tuple[DieKind, ...]]
"""The kinds of the dice a player rolls this turn (base: five base dice)."""
Handler = Callable[["GameState", Any], None]
"""Folds one event class into the state (``evolve``)."""
ArrowChoice = Callable[["GameState", PlayerId], "Awaiting | None"]
"""Before a player takes an arrow from the pile: the question of which token (OS2), or None."""
SeatCheck = Callable[[Sequence[ev.Seat]], None]
"""Raises ``InvalidSetup`` for seats the module cannot play."""
Start = Callable[["GameState", ev.GameStarted], None]
Loss = tuple[PlayerId, int, Cause, DieIndex | None]
"""One hit of a step: (target, life to lose, cause, die), as ``flow.apply_losses`` takes them."""


@dataclass(frozen=True, slots=True)
class LossRule:
    """A module's say in every loss of life (OS4: Vera Custer's reduction, Molly Stark's offer to
    lose another's life in his place)."""

    hold: Callable[[GameState, list[Loss], PlayerId | None, Emit], list[Loss] | None]
    """``TurnPoint.ON_DAMAGE``, before a step's losses apply (``flow.apply_losses``): the losses
    to apply now, or None when the module holds them back for questions (``GameState.held``)."""
    held: Callable[[GameState], Awaiting | Step]
    """While a step's losses are held: the next question about them."""
    first: Callable[[GameState, str, PlayerState, int, Mapping[PlayerId, int]], Awaiting | None]
    """``TurnPoint.ON_DAMAGE``, before a target's own option about a step's planned losses (Bart
    Cassidy's arrows, asked before the step): a question that must come before it."""


@dataclass(frozen=True, slots=True)
class RulesModule:
    """What one module adds to the base game. Everything is optional: a module brings only
    what its rules need."""

    id: ModuleId
    characters: tuple[Character, ...] = ()
    die_kinds: tuple[DieKind, ...] = ()
    decisions: tuple[DecisionSpec, ...] = ()
    hooks: Ability = field(default_factory=Ability)
    """Rule hooks at the points of the turn, for the active player (not a character's)."""
    hand: Hand | None = None
    """Set when the module changes the dice a turn rolls (OS1's Saloon die, UA1's Duel dice)."""
    arrow_choice: ArrowChoice | None = None
    """Set when a taker may choose which arrow token to take (OS2's Chief's Arrow)."""
    extra_arrows: int = 0
    """Tokens the module adds to the arrow pile (OS2: the Chief's Arrow)."""
    events: Mapping[type[ev.Event], Handler] = field(default_factory=lambda: MappingProxyType({}))
    check_seats: SeatCheck | None = None
    """Refuses seats this module cannot play (OS3: every seat needs a special role)."""
    on_start: Start | None = None
    """Completes the state a ``GameStarted`` sets up (OS3: L'Ours' life, the role cards)."""
    losses: LossRule | None = None
    """Set when the module has a say in losses of life (OS4)."""
    versions: Mapping[tuple[str, str], RulesModule] = field(default_factory=lambda: MappingProxyType({}))
    """(data table, older version) → this module as that version plays it, for games recorded
    with it (UA3: ``("characters-ua3", "ua3-1")``). The module itself plays the current one."""


_REGISTERED: dict[ModuleId, RulesModule] = {}
ENGINE_MODULES: Mapping[ModuleId, RulesModule] = MappingProxyType(_REGISTERED)
"""The modules this engine plays (a live view of what ``register`` was given)."""


def register(module: RulesModule) -> RulesModule:
    """Make ``module`` playable: ``rules_for`` assembles it, its events decode with the base
    game's (``events.EVENT_TYPES``) and its questions describe themselves."""
    if module.id in _REGISTERED:
        raise InvalidSetup(f"module {module.id} is registered twice")
    _REGISTERED[module.id] = module
    for variant in (module, *module.versions.values()):
        for event_type in variant.events:
            ev.EVENT_TYPES[event_type.__name__] = event_type
        describe_with({spec.decision: spec for spec in variant.decisions})
    return module


@dataclass(frozen=True, slots=True, eq=False)
class Rules:
    """One game's rules table: the base game plus its modules, assembled once per module set."""

    modules: tuple[ModuleId, ...]
    characters: Mapping[CharacterId, Character]
    die_kinds: Mapping[str, DieKind]
    decisions: Mapping[str, DecisionSpec]
    hooks: tuple[Ability, ...]
    """The modules' rule hooks, in module order; empty for the base game (nothing to call)."""
    hand: Hand | None
    arrow_choice: ArrowChoice | None
    arrow_tokens: int
    """The arrow pile at the start: 9, plus the tokens modules add."""
    handlers: Mapping[type[ev.Event], Handler]
    """Extra event handlers of the modules (the base game's are ``evolve``'s own)."""
    seat_checks: tuple[SeatCheck, ...] = ()
    starts: tuple[Start, ...] = ()
    losses: LossRule | None = None
    left_out: Mapping[CharacterId, ModuleId] = field(default_factory=lambda: MappingProxyType({}))
    """Characters a module brings but leaves out of the pool, each with the module it needs and
    this game lacks (§OS4: José Delgado and Tequila Joe need OS1, Apache Kid OS2)."""
    pinned: tuple[tuple[str, str], ...] = ()
    """The older data versions played instead of the current ones ((table, version), sorted;
    ``RulesModule.versions``); empty for a game of the current versions."""

    def __repr__(self) -> str:
        pinned = [f"{table}={version}" for table, version in self.pinned]
        return f"<Rules {' '.join(['dice', *self.modules, *pinned])}>"

    @property
    def is_base(self) -> bool:
        return not self.modules

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset this table plays: its modules, at the data versions it was assembled
        with (the current ones, or those ``pinned``)."""
        played = ruleset_of(self.modules)
        if self.pinned:
            played = msgspec.structs.replace(played, data={**played.data, **dict(self.pinned)})
        return played

    def dice_for(self, state: GameState, player: PlayerState) -> tuple[DieKind, ...]:
        return BASE_HAND if self.hand is None else self.hand(state, player)


def rules_for(modules: Iterable[ModuleId] = (), pinned: Iterable[tuple[str, str]] = ()) -> Rules:
    """The rules table of the base game plus ``modules`` (sorted, as ``Ruleset.modules``), each
    module as the older data versions ``pinned`` play it ((table, version) pairs; none: the
    current versions). Cached: every game of one module set and versions shares one table.
    Raises ``InvalidSetup`` for a module this engine does not play, naming it."""
    return _rules_for(tuple(modules), tuple(sorted(pinned)))


@functools.cache
def _rules_for(modules: tuple[ModuleId, ...], pinned: tuple[tuple[str, str], ...] = ()) -> Rules:
    enabled: list[RulesModule] = []
    for module_id in modules:
        module = ENGINE_MODULES.get(module_id)
        if module is None:
            name = MODULES[module_id].name
            raise InvalidSetup(f"module {module_id} ({name}) is not played by this engine yet")
        for pair in pinned:
            module = module.versions.get(pair, module)
        enabled.append(module)
    rules = assemble(enabled)
    if pinned:
        rules = dataclasses.replace(rules, pinned=pinned)
    return rules


def assemble(modules: Iterable[RulesModule]) -> Rules:
    """The base game plus ``modules``, in the order given (``rules_for`` caches it per module
    set). Raises ``InvalidSetup`` when two modules declare the same thing."""
    enabled = list(modules)
    characters: dict[CharacterId, Character] = dict(CHARACTERS)
    kinds: dict[str, DieKind] = {BASE.name: BASE}
    decisions: dict[str, DecisionSpec] = {spec.decision: spec for spec in BASE_DECISIONS}
    hooks: list[Ability] = []
    hands: list[Hand] = []
    choices: list[ArrowChoice] = []
    extra_arrows = 0
    handlers: dict[type[ev.Event], Handler] = {}
    losses: list[LossRule] = []
    for module in enabled:
        module_id = module.id
        _add(characters, ((c.id, c) for c in module.characters), "character", module_id)
        _add(kinds, ((k.name, k) for k in module.die_kinds), "die kind", module_id)
        _add(decisions, ((d.decision, d) for d in module.decisions), "decision", module_id)
        _add(handlers, module.events.items(), "event", module_id)
        if module.hooks != Ability():
            hooks.append(module.hooks)
        if module.hand is not None:
            hands.append(module.hand)
        if module.arrow_choice is not None:
            choices.append(module.arrow_choice)
        extra_arrows += module.extra_arrows
        if module.losses is not None:
            losses.append(module.losses)
    enabled_ids = {m.id for m in enabled}
    left_out: dict[CharacterId, ModuleId] = {}
    for character_id in list(characters):
        needs = CHARACTER_NEEDS.get(character_id.value)
        if needs is not None and needs[1] not in enabled_ids:
            left_out[character_id] = needs[1]
            del characters[character_id]
    if len(losses) > 1:
        raise InvalidSetup("two modules each have a say in losses of life")
    if len(hands) > 1:
        ids = ", ".join(m.id for m in enabled if m.hand is not None)
        raise InvalidSetup(f"modules {ids} each set the dice a turn rolls")
    return Rules(
        modules=tuple(m.id for m in enabled),
        characters=MappingProxyType(characters),
        die_kinds=MappingProxyType(kinds),
        decisions=MappingProxyType(decisions),
        hooks=tuple(hooks),
        hand=hands[0] if hands else None,
        arrow_choice=choices[0] if choices else None,
        arrow_tokens=ARROW_TOKENS + extra_arrows,
        handlers=MappingProxyType(handlers),
        seat_checks=tuple(m.check_seats for m in enabled if m.check_seats is not None),
        starts=tuple(m.on_start for m in enabled if m.on_start is not None),
        losses=losses[0] if losses else None,
        left_out=MappingProxyType(left_out),
    )


def _add(table: dict[Any, Any], items: Iterable[tuple[Any, Any]], what: str, module: ModuleId) -> None:
    for key, value in items:
        if key in table:
            raise InvalidSetup(f"module {module} declares the {what} {key} a second time")
        table[key] = value


BASE_GAME_RULES = rules_for()
"""The base game: the empty module set."""


def rules_of(ruleset: Ruleset) -> Rules:
    """The dice engine's rules table for a recorded ruleset, with the data versions it recorded:
    a table at an older version whose rules a module kept (``RulesModule.versions``) plays by
    them; at the current versions this is ``rules_for(ruleset.modules)`` itself."""
    if ruleset.game_type is not GameType.DICE:
        raise InvalidSetup(f"the dice engine does not play {ruleset.game_type} games")
    older: set[tuple[str, str]] = set()
    for module_id in ruleset.modules:
        module = ENGINE_MODULES.get(module_id)
        if module is not None:
            older.update(module.versions)
    pinned = [pair for pair in ruleset.data.items() if pair in older]
    return rules_for(ruleset.modules, pinned)
