"""The rules engine for BANG! (the card game, base set): pure, deterministic, event-sourced.

No I/O, no clock, no randomness: shuffles and the cards taken at random from a hand arrive as
commands from ``TABLE`` (the server's seeded generator, or the scorekeeper); a draw! flips the
top card of the deck, whose order a recorded shuffle fixed. See docs/card-engine.md.
"""

from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.commands import Command, GameCommand, parse_command
from services.game.rules.cards.decide import awaiting, decide, execute
from services.game.rules.cards.deck import CARDS, DECK, Card
from services.game.rules.cards.errors import (
    GameOver,
    IllegalCommand,
    InvalidSetup,
    MalformedCommand,
    NotAwaited,
    RuleError,
)
from services.game.rules.cards.events import EVENT_TYPES, Event, GameEnded, GameStarted, Seat
from services.game.rules.cards.evolve import evolve, fold, initial_state
from services.game.rules.cards.game import Game
from services.game.rules.cards.legal import LegalCommands, legal_commands
from services.game.rules.cards.setup import EIGHT_PLAYER_ROLES, ROLES_BY_PLAYER_COUNT, new_game, roles_for
from services.game.rules.cards.state import GameState, PlayerState
from services.game.rules.cards.timeouts import OPTIONAL, timeout_command
from services.game.rules.cards.vocabulary import (
    TABLE,
    CardId,
    CardName,
    CharacterId,
    Decision,
    Phase,
    PlayerId,
    Role,
    Side,
    Suit,
)

__all__ = [
    "CARDS",
    "DECK",
    "EIGHT_PLAYER_ROLES",
    "EVENT_TYPES",
    "OPTIONAL",
    "ROLES_BY_PLAYER_COUNT",
    "TABLE",
    "Awaiting",
    "Card",
    "CardId",
    "CardName",
    "CharacterId",
    "Command",
    "Decision",
    "Event",
    "Game",
    "GameCommand",
    "GameEnded",
    "GameOver",
    "GameStarted",
    "GameState",
    "IllegalCommand",
    "InvalidSetup",
    "LegalCommands",
    "MalformedCommand",
    "NotAwaited",
    "Phase",
    "PlayerId",
    "PlayerState",
    "Role",
    "RuleError",
    "Seat",
    "Side",
    "Suit",
    "awaiting",
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
