"""Which engine plays a ruleset: ``engine_for(ruleset)``.

One engine per game type; each is built once per ruleset (cached) with that ruleset's rules,
so every caller gets the same object for the same ruleset. A ruleset no engine of this server
plays is refused naming why: an unknown game type, or a module not implemented yet.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from types import MappingProxyType
from typing import cast

from services.game.engines.cards import CARD_EVENT_TYPES, STORED_PREFIX, CardEngine
from services.game.engines.dice import DiceEngine
from services.game.engines.interface import Event, GameEngine
from services.game.rules.cards import GameEnded as CardGameEnded
from services.game.rules.cards import GameStarted as CardGameStarted
from services.game.rules.cards import RuleError as CardRuleError
from services.game.rules.dice import EVENT_TYPES as DICE_EVENT_TYPES
from services.game.rules.dice import GameEnded, GameStarted, RuleError
from services.game.rules.dice import modules as dice_modules
from services.game.rules.ruleset import GameType, ModuleId, Ruleset, unimplemented


class UnplayableRuleset(ValueError):
    """A ruleset this server has no engine for; the message says why."""


ENGINE_EVENT_TYPES: Mapping[str, type[Event]] = MappingProxyType(ChainMap(DICE_EVENT_TYPES, CARD_EVENT_TYPES))  # type: ignore[arg-type]
"""Every engine's events by stored type name (the game codec registers them all). A live view:
a dice module adds its events to the engine's table when it is registered. The dice game's
names are its class names (as stored since the first game); the card game's carry its game type
(``cards.GameStarted``), since its class names are the dice game's too."""

_STORED_NAMES: dict[type, str] = {cls: name for name, cls in CARD_EVENT_TYPES.items()}

OPENING_TYPES: frozenset[str] = frozenset({GameStarted.__name__, STORED_PREFIX + CardGameStarted.__name__})
"""The stored type names of every engine's opening event (a game has started)."""
ENDING_TYPES: frozenset[str] = frozenset({GameEnded.__name__, STORED_PREFIX + CardGameEnded.__name__})
"""The stored type names of every engine's end of a game."""

RULE_ERRORS: tuple[type[Exception], ...] = (RuleError, CardRuleError)
"""The roots of every engine's refusals."""


def stored_type(event: object) -> str:
    """The type name ``event`` is stored under (the codec's): a card event's carries ``cards.``."""
    return _STORED_NAMES.get(type(event)) or type(event).__name__


def implemented_modules(game_type: GameType = GameType.DICE) -> frozenset[ModuleId]:
    """The modules the engine of ``game_type`` plays, read now: they grow as the engine does."""
    if game_type is GameType.DICE:
        return frozenset(dice_modules.ENGINE_MODULES)
    return frozenset()


def unplayable(ruleset: Ruleset) -> str | None:
    """Why this server cannot play ``ruleset``, or None."""
    if ruleset.game_type is GameType.CARDS:
        return "the card game has no modules" if ruleset.modules else None
    if ruleset.game_type is not GameType.DICE:
        return f"this server has no engine for {ruleset.game_type.value} games yet"
    return unimplemented(ruleset, implemented_modules(ruleset.game_type))


def engine_for(ruleset: Ruleset) -> GameEngine:
    """The engine that plays ``ruleset``, with its rules. Raises ``UnplayableRuleset``."""
    reason = unplayable(ruleset)
    if reason is not None:
        raise UnplayableRuleset(reason)
    key = (ruleset.game_type, ruleset.modules, tuple(sorted(ruleset.data.items())), ruleset.option_ids)
    engine = _ENGINES.get(key)
    if engine is None:
        # keyed by the ruleset's parts: a Ruleset holds a dict, so it is not hashable itself
        # each engine takes its own game and events where the protocol says any engine's
        made = CardEngine(ruleset) if ruleset.game_type is GameType.CARDS else DiceEngine(ruleset)
        engine = _ENGINES[key] = cast(GameEngine, made)
    return engine


_ENGINES: dict[tuple[object, ...], GameEngine] = {}
