"""What a new game may be: the choices a page offers before ``POST /games``.

Read from the rules themselves (the ruleset catalogue, each engine's role table and character
pool, what this server plays now), so a page offers exactly what the service takes, and never
keeps a copy of the rules that could drift from them. The service still decides: a choice it
refuses is its 422 in its words (``invalid-ruleset``, ``invalid-game``, ``invalid-position``).

- ``ruleset_choices()`` — each game type: its table sizes, its modules (with what each needs,
  from how many players, and whether this server plays it) or options, and its roles per table
  size.
- ``seat_choices(ruleset, players)`` — one ruleset at one table size, as a table game's seats
  take it: the seat ids (``p1`` … clockwise, the words of a position), the roles to deal, the
  character pool, OS3's special role cards; a ruleset the rules or this server refuse at that
  size is ``InvalidRuleset`` naming why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

import msgspec

from services.game.application.errors import InvalidRuleset
from services.game.application.lifecycle import seat_id
from services.game.application.service import check_new_ruleset, implemented
from services.game.rules.cards import setup as card_setup
from services.game.rules.cards.vocabulary import BULLETS
from services.game.rules.cards.vocabulary import CharacterId as CardCharacter
from services.game.rules.dice import setup as dice_setup
from services.game.rules.dice.characters import CHARACTERS
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.vocabulary import BASE_ROLE_OF, CharacterId
from services.game.rules.ruleset import (
    CARDS_MAX_PLAYERS,
    CARDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODULES,
    CardOption,
    GameType,
    Ruleset,
    RulesetError,
    ruleset_of,
)

GAME_NAMES = {GameType.DICE: "BANG! The Dice Game", GameType.CARDS: "BANG! (the card game)"}
OPTION_NAMES = {CardOption.EIGHT_PLAYERS: "8 players, with two Renegades"}


class ModuleChoice(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    """``OS1`` … ``OS5``, ``UA1`` … ``UA5``."""
    name: str
    expansion: str
    """``Old Saloon`` or ``Undead or Alive``."""
    min_players: int
    requires: list[str]
    """The modules it needs in the same game."""
    played: bool
    """Whether this server plays it now (a set with one it does not play is refused)."""


class OptionChoice(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    players: int
    """The one table size it is for."""


class GameTypeChoice(msgspec.Struct, frozen=True, kw_only=True):
    game_type: str
    name: str
    min_players: int
    max_players: int
    """With an option where one is needed (the card game's 8 players)."""
    modules: list[ModuleChoice]
    options: list[OptionChoice]
    roles: dict[str, list[str]]
    """Table size → the roles dealt, one a seat (the card game's 8: with ``eight_players``)."""


class RulesetChoices(msgspec.Struct, frozen=True, kw_only=True):
    game_types: list[GameTypeChoice]


class CharacterChoice(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    life: int
    """Printed on the card; the Sheriff adds 2 in the dice game (at 4 or more players), 1 in the
    card game."""


class SpecialRoleChoice(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    role: str
    """The base role the card is dealt to."""


class SeatChoices(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    """The compact form, as a game records it (``dice OS1 OS3``)."""
    players: int
    seat_ids: list[str]
    """Clockwise, as a position names the players."""
    roles: list[str]
    characters: list[CharacterChoice]
    """The pool, by name."""
    special_roles: list[SpecialRoleChoice]
    """OS3's cards, one a seat (empty without OS3)."""


def ruleset_choices() -> RulesetChoices:
    played = implemented(GameType.DICE)
    dice = GameTypeChoice(
        game_type=GameType.DICE.value,
        name=GAME_NAMES[GameType.DICE],
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        modules=[
            ModuleChoice(
                id=m.id.value,
                name=m.name,
                expansion=m.expansion,
                min_players=m.min_players,
                requires=sorted(r.value for r in m.requires),
                played=m.id in played,
            )
            for m in MODULES.values()
        ],
        options=[],
        roles=_by_size(dice_setup.ROLES_BY_PLAYER_COUNT),
    )
    card_roles = _by_size({**card_setup.ROLES_BY_PLAYER_COUNT, 8: card_setup.EIGHT_PLAYER_ROLES})
    cards = GameTypeChoice(
        game_type=GameType.CARDS.value,
        name=GAME_NAMES[GameType.CARDS],
        min_players=CARDS_MIN_PLAYERS,
        max_players=CARDS_MAX_PLAYERS + 1,
        modules=[],
        options=[OptionChoice(id=o.value, name=OPTION_NAMES[o], players=8) for o in CardOption],
        roles=card_roles,
    )
    return RulesetChoices(game_types=[dice, cards])


def seat_choices(text: str, players: int) -> SeatChoices:
    """The seats of ``text`` (a ruleset's compact form) at ``players``; raises ``InvalidRuleset``
    naming why the rules or this server refuse it."""
    words = text.split()
    try:
        ruleset = ruleset_of(words[1:], words[0]) if words else ruleset_of()
    except RulesetError as error:
        raise InvalidRuleset(str(error)) from None
    check_new_ruleset(ruleset, players)
    if ruleset.game_type is GameType.CARDS:
        roles = card_setup.roles_for(players, eight_players=ruleset.has_option(CardOption.EIGHT_PLAYERS))
        characters = [
            CharacterChoice(id=c.value, name=_name(c.value), life=BULLETS[c]) for c in sorted(CardCharacter)
        ]
        specials: list[SpecialRoleChoice] = []
    else:
        roles = dice_setup.roles_for(players)
        characters = _dice_pool(ruleset)
        specials = (
            [SpecialRoleChoice(id=card.value, role=role.value) for card, role in BASE_ROLE_OF.items()]
            if any(m.value == "OS3" for m in ruleset.modules)
            else []
        )
    return SeatChoices(
        ruleset=ruleset.text,
        players=players,
        seat_ids=[seat_id(i) for i in range(players)],
        roles=[r.value for r in roles],
        characters=characters,
        special_roles=specials,
    )


def _by_size(table: Mapping[int, Sequence[StrEnum]]) -> dict[str, list[str]]:
    return {str(n): [r.value for r in roles] for n, roles in sorted(table.items())}


def _dice_pool(ruleset: Ruleset) -> list[CharacterChoice]:
    pool = rules_of(ruleset).characters
    return sorted(
        (CharacterChoice(id=c.id.value, name=c.name, life=c.life) for c in pool.values()),
        key=lambda c: c.name,
    )


def _name(character: str) -> str:
    """A card character's name: the dice game's card of the same id names it."""
    known = CHARACTERS.get(CharacterId(character)) if character in CharacterId.__members__.values() else None
    return known.name if known is not None else character.replace("_", " ").title()
