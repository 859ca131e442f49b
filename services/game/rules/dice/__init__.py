"""The rules engine for BANG! The Dice Game (base game): pure, deterministic, event-sourced.

No I/O, no clock, no randomness: dice faces arrive as data in ``RollDice`` commands.
"""

from services.game.rules.dice.awaiting import Awaiting, Decision
from services.game.rules.dice.characters import CHARACTERS, Character, CharacterId
from services.game.rules.dice.commands import (
    ChooseTarget,
    Command,
    Decline,
    DiscardArrows,
    DoubleShot,
    GameCommand,
    RemoveArrows,
    Reroll,
    RollDice,
    StopRolling,
    TakeArrowsInstead,
    parse_command,
)
from services.game.rules.dice.decide import awaiting, check, decide, execute
from services.game.rules.dice.decisions import DECISIONS, BotHint, DecisionSpec, Who, timeout_command
from services.game.rules.dice.errors import (
    GameOver,
    IllegalCommand,
    InvalidSetup,
    MalformedCommand,
    NotAwaited,
    RuleError,
)
from services.game.rules.dice.events import (
    EVENT_TYPES,
    Event,
    GameEnded,
    GameEvent,
    GameStarted,
    PlayerPosition,
    PlayerResult,
    Position,
    Seat,
)
from services.game.rules.dice.evolve import evolve, fold, initial_state
from services.game.rules.dice.game import Game
from services.game.rules.dice.kinds import BASE, DieKind, Symbol
from services.game.rules.dice.legal import LegalCommands, legal_commands
from services.game.rules.dice.points import TurnPoint
from services.game.rules.dice.setup import ROLES_BY_PLAYER_COUNT, new_game, roles_for
from services.game.rules.dice.state import GameState, PlayerState
from services.game.rules.dice.vocabulary import Cause, Face, PlayerId, Role, Side

__all__ = [
    "BASE",
    "CHARACTERS",
    "DECISIONS",
    "EVENT_TYPES",
    "ROLES_BY_PLAYER_COUNT",
    "Awaiting",
    "BotHint",
    "Cause",
    "Character",
    "CharacterId",
    "ChooseTarget",
    "Command",
    "Decision",
    "DecisionSpec",
    "Decline",
    "DieKind",
    "DiscardArrows",
    "DoubleShot",
    "Event",
    "Face",
    "Game",
    "GameCommand",
    "GameEnded",
    "GameEvent",
    "GameOver",
    "GameStarted",
    "GameState",
    "IllegalCommand",
    "InvalidSetup",
    "LegalCommands",
    "MalformedCommand",
    "NotAwaited",
    "PlayerId",
    "PlayerPosition",
    "PlayerResult",
    "PlayerState",
    "Position",
    "RemoveArrows",
    "Reroll",
    "Role",
    "RollDice",
    "RuleError",
    "Seat",
    "Side",
    "StopRolling",
    "Symbol",
    "TakeArrowsInstead",
    "TurnPoint",
    "Who",
    "awaiting",
    "check",
    "decide",
    "evolve",
    "execute",
    "fold",
    "initial_state",
    "legal_commands",
    "new_game",
    "parse_command",
    "roles_for",
    "timeout_command",
]

# The expansion modules register themselves with the engine once its parts are all defined.
from services.game.rules.dice import old_saloon as old_saloon
from services.game.rules.dice import undead as undead
