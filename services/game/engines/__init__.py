"""The engines behind one game-type-neutral interface (``interface.GameEngine``).

Everything around an engine (the application service, records, audit, visibility, deadlines)
reaches it through ``engine_for(ruleset)``; only this package imports an engine's rules.
"""

from services.game.engines.interface import GameEngine, PlayedGame, Question, RandomNeed, SeatSpec
from services.game.engines.registry import (
    ENDING_TYPES,
    ENGINE_EVENT_TYPES,
    OPENING_TYPES,
    RULE_ERRORS,
    UnplayableRuleset,
    engine_for,
    implemented_modules,
    stored_type,
    unplayable,
)

__all__ = [
    "ENDING_TYPES",
    "ENGINE_EVENT_TYPES",
    "OPENING_TYPES",
    "RULE_ERRORS",
    "GameEngine",
    "PlayedGame",
    "Question",
    "RandomNeed",
    "SeatSpec",
    "UnplayableRuleset",
    "engine_for",
    "implemented_modules",
    "stored_type",
    "unplayable",
]
