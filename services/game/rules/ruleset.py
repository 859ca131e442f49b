"""A game's ruleset, as a fact: the game type, its modules and the version of every data table.

Neutral ground between the engines and everything around them: nothing here imports an engine,
a store or the clock. A ruleset is recorded in ``GameCreated`` and in game records (format 2),
so a game replays and audits with the rules it was played with, whatever the server knows by
then.

- ``GameType`` — ``dice`` (BANG! The Dice Game); ``cards`` (BANG! the card game, base set),
  with one recorded option, ``eight_players`` (8 players with two Renegades: ``cards
  eight_players``).
- ``MODULES`` — the ten expansion modules of the dice game (Old Saloon OS1–OS5, Undead or Alive
  UA1–UA5) with the constraints of ``RULINGS-expansions.md`` §1: the modules each needs and the
  table sizes each allows; ``CHARACTER_NEEDS`` — the character pool rules (§OS4, §UA3).
- ``Ruleset`` — game type, sorted module set, data versions; ``ruleset.text`` is the compact
  form (``dice``, ``dice OS1 OS4``), ``parse_ruleset`` reads it back.
- ``refusal(ruleset, players)`` says, in words, why a combination is not a game
  (``"module UA1 needs UA2"``, ``"the Ghost (OS5) needs 5 or more players"``), or None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

import msgspec


class GameType(StrEnum):
    DICE = "dice"
    """BANG! The Dice Game, with its expansion modules."""
    CARDS = "cards"
    """BANG! the card game (base set, 4th edition): 4 to 7 players, 8 with ``eight_players``."""


class CardOption(StrEnum):
    """The card game's recorded options (its text form lists them after ``cards``)."""

    EIGHT_PLAYERS = "eight_players"
    """8 players with two Renegades (Dodge City's role set, with the base deck)."""


class ModuleId(StrEnum):
    OS1 = "OS1"
    OS2 = "OS2"
    OS3 = "OS3"
    OS4 = "OS4"
    OS5 = "OS5"
    UA1 = "UA1"
    UA2 = "UA2"
    UA3 = "UA3"
    UA4 = "UA4"
    UA5 = "UA5"


OLD_SALOON = "Old Saloon"
UNDEAD_OR_ALIVE = "Undead or Alive"


@dataclass(frozen=True, slots=True)
class Module:
    id: ModuleId
    name: str
    """The official name where known (RULINGS-expansions §1)."""
    short: str
    """How a refusal names it: "the Ghost (OS5)"."""
    expansion: str
    min_players: int = 3
    requires: frozenset[ModuleId] = frozenset()
    data: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """The data tables this module adds, with the version a new game uses."""
    older: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Data table → its earlier versions, still played by the games that recorded them (UA3:
    ``characters-ua3 ua3-1``); a new game gets the version in ``data``."""


def _module(
    id: ModuleId,
    name: str,
    short: str,
    expansion: str,
    *,
    min_players: int = 3,
    requires: Iterable[ModuleId] = (),
    data: Mapping[str, str] | None = None,
    older: Mapping[str, tuple[str, ...]] | None = None,
) -> Module:
    return Module(
        id,
        name,
        short,
        expansion,
        min_players,
        frozenset(requires),
        MappingProxyType(dict(data or {})),
        MappingProxyType(dict(older or {})),
    )


MODULES: Mapping[ModuleId, Module] = MappingProxyType(
    {
        m.id: m
        for m in (
            _module(
                ModuleId.OS1,
                "The Loudmouth and the Coward",
                "the Loudmouth and Coward dice (OS1)",
                OLD_SALOON,
                data={"saloon-dice": "os1-1"},
            ),
            _module(
                ModuleId.OS2,
                "The Arrow of the Indian Chief",
                "the Chief's Arrow (OS2)",
                OLD_SALOON,
            ),
            # Needs a Sheriff, so not at 3 players (ruling).
            _module(
                ModuleId.OS3,
                "Special Roles",
                "the special roles (OS3)",
                OLD_SALOON,
                min_players=4,
                data={"special-roles": "os3-1"},
            ),
            _module(
                ModuleId.OS4,
                "A Posse of New Characters",
                "the Old Saloon characters (OS4)",
                OLD_SALOON,
                data={"characters-os4": "os4-1"},
            ),
            _module(
                ModuleId.OS5,
                "The Ghost",
                "the Ghost (OS5)",
                OLD_SALOON,
                min_players=5,
                data={"ghost-tokens": "os5-1"},
            ),
            _module(
                ModuleId.UA1,
                "Look Me in the Eyes",
                "the duels (UA1)",
                UNDEAD_OR_ALIVE,
                requires=(ModuleId.UA2,),
                data={"duel-dice": "ua1-1", "wound-tokens": "ua1-1"},
            ),
            _module(
                ModuleId.UA2,
                "Two Bullets Are Enough",
                "the Rage cards (UA2)",
                UNDEAD_OR_ALIVE,
                data={"rage-deck": "rage-1"},
            ),
            _module(
                ModuleId.UA3,
                "A New Posse in Town",
                "the Undead or Alive characters (UA3)",
                UNDEAD_OR_ALIVE,
                # ua3-2: Greg Digger's second heal of each beer goes to a player of his choice
                # (greg_heal); ua3-1, both heals to the beer's target, replays the games recorded
                # with it (docs/rulings.md, UA3)
                data={"characters-ua3": "ua3-2"},
                older={"characters-ua3": ("ua3-1",)},
            ),
            _module(
                ModuleId.UA4,
                "Undead or Alive?",
                "the zombie outbreak (UA4)",
                UNDEAD_OR_ALIVE,
                min_players=4,
                data={"boneyard": "boneyard-1"},
            ),
            # Needs a Sheriff, so not at 3 players (ruling).
            _module(ModuleId.UA5, "Legacy", "the legacy series (UA5)", UNDEAD_OR_ALIVE, min_players=4),
        )
    }
)

CHARACTER_NEEDS: Mapping[str, tuple[ModuleId, ModuleId]] = MappingProxyType(
    {
        "jose_delgado": (ModuleId.OS4, ModuleId.OS1),
        "tequila_joe": (ModuleId.OS4, ModuleId.OS1),
        "apache_kid": (ModuleId.OS4, ModuleId.OS2),
        "herb_hunter": (ModuleId.UA3, ModuleId.UA1),
        "sean_mallory": (ModuleId.UA3, ModuleId.UA1),
        "pat_brennan": (ModuleId.UA3, ModuleId.UA2),
        "pixie_pete": (ModuleId.UA3, ModuleId.UA2),
    }
)
"""Pool rules (§OS4, §UA3): character → (the module that brings it, the module it needs).
Without the needed module the character is left out of the pool; the set is not refused."""

BASE_DICE_DATA: Mapping[str, str] = MappingProxyType({"characters": "dice-base-1", "dice": "dice-base-1"})
"""The base game's tables: its 16 characters and its die (faces), version 1."""

CARDS_DATA: Mapping[str, str] = MappingProxyType({"characters": "cards-base-1", "deck": "deck-1"})
"""The card game's tables: its 16 characters and its 80 cards (``rules/cards/deck.py``), version 1."""
CARDS_MIN_PLAYERS, CARDS_MAX_PLAYERS = 4, 7
"""The card game's table sizes without an option (8 needs ``eight_players``)."""

MIN_PLAYERS, MAX_PLAYERS = 3, 8
_PLURAL_SHORTS = ("the special roles", "the duels", "the Rage cards", "the Loudmouth and Coward dice")


class RulesetError(ValueError):
    """A ruleset that is not a game: the message says why, in words a player can act on."""


class Ruleset(msgspec.Struct, frozen=True, kw_only=True):
    """What rules a game is played with. The defaults are the base dice game: every game
    recorded before rulesets were recorded decodes as it."""

    game_type: GameType = GameType.DICE
    modules: tuple[ModuleId, ...] = ()
    """Sorted, no repeats (``ruleset_of`` makes one so)."""
    data: dict[str, str] = msgspec.field(default_factory=lambda: dict(BASE_DICE_DATA))
    """Data table → version: the base game's tables and those of each module."""
    options: tuple[CardOption, ...] | msgspec.UnsetType = msgspec.UNSET
    """The card game's recorded options, sorted (``eight_players``); unset, and left out of the
    stored event, for a game without any (every dice game encodes as before)."""

    @property
    def text(self) -> str:
        """The compact form: ``dice``, ``dice OS1 OS4``, ``cards``, ``cards eight_players``."""
        return " ".join([self.game_type.value, *self.modules, *self.option_ids])

    @property
    def option_ids(self) -> tuple[CardOption, ...]:
        return self.options if isinstance(self.options, tuple) else ()

    def has_option(self, option: CardOption) -> bool:
        return option in self.option_ids

    @property
    def is_base(self) -> bool:
        return self.game_type is GameType.DICE and not self.modules

    def has(self, module: ModuleId) -> bool:
        return module in self.modules

    def excluded_characters(self) -> tuple[str, ...]:
        """The characters this ruleset's modules bring but leave out of the pool (a module they
        need is absent), sorted."""
        return tuple(
            sorted(
                name
                for name, (brought_by, needs) in CHARACTER_NEEDS.items()
                if brought_by in self.modules and needs not in self.modules
            )
        )

    def __str__(self) -> str:
        return self.text


BASE_DICE = Ruleset()


def default_data(game_type: GameType, modules: Iterable[ModuleId]) -> dict[str, str]:
    """The data versions a new game of these modules uses."""
    if game_type is GameType.CARDS:
        return dict(CARDS_DATA)
    data = dict(BASE_DICE_DATA)
    for module in sorted(set(modules)):
        data.update(MODULES[module].data)
    return data


def ruleset_of(modules: Iterable[str] = (), game_type: GameType | str = GameType.DICE) -> Ruleset:
    """The ruleset of these module ids (any order) with the current data versions. Raises
    ``RulesetError`` for an unknown game type or module, or a module named twice."""
    try:
        kind = GameType(game_type)
    except ValueError:
        known = ", ".join(t.value for t in GameType)
        raise RulesetError(f"unknown game type {game_type!r} (known: {known})") from None
    named = list(modules)
    if kind is GameType.CARDS:
        return _cards_ruleset(named)
    ids: list[ModuleId] = []
    for name in named:
        try:
            ids.append(ModuleId(name))
        except ValueError:
            raise RulesetError(f"unknown module {name!r} (known: {', '.join(MODULES)})") from None
    for module in ids:
        if ids.count(module) > 1:
            raise RulesetError(f"module {module} is named twice")
    return Ruleset(game_type=kind, modules=tuple(sorted(ids)), data=default_data(kind, ids))


def _cards_ruleset(options: list[str]) -> Ruleset:
    """The card game with these options (its only words after ``cards``)."""
    chosen: list[CardOption] = []
    for name in options:
        try:
            option = CardOption(name)
        except ValueError:
            known = ", ".join(o.value for o in CardOption)
            raise RulesetError(f"the card game has no module or option {name!r} (options: {known})") from None
        if option in chosen:
            raise RulesetError(f"option {option} is named twice")
        chosen.append(option)
    return Ruleset(
        game_type=GameType.CARDS,
        data=dict(CARDS_DATA),
        options=tuple(sorted(chosen)) if chosen else msgspec.UNSET,
    )


def older_versions(modules: Iterable[ModuleId]) -> dict[str, tuple[str, ...]]:
    """Data table → its earlier versions still played, for these modules' tables."""
    older: dict[str, tuple[str, ...]] = {}
    for module in sorted(set(modules)):
        older.update(MODULES[module].older)
    return older


def parse_ruleset(text: str) -> Ruleset:
    """``Ruleset.text`` read back: the game type, then module ids, separated by spaces."""
    words = text.split()
    if not words:
        raise RulesetError("a ruleset names its game type first, e.g. 'dice' or 'dice OS1 OS2'")
    return ruleset_of(words[1:], words[0])


def refusal(ruleset: Ruleset, players: int) -> str | None:
    """Why ``ruleset`` cannot be played by ``players`` players, or None when it can. The first
    reason in this order: the module set itself (sorted, no repeats, known), what a module
    needs, then table sizes, then data versions."""
    if ruleset.game_type is GameType.CARDS:
        return _cards_refusal(ruleset, players)
    if ruleset.option_ids:
        return "the dice game has no options (only modules)"
    if list(ruleset.modules) != sorted(set(ruleset.modules)):
        return "the modules must be listed once each, in order"
    for module in ruleset.modules:
        for needed in sorted(MODULES[module].requires):
            if needed not in ruleset.modules:
                return f"module {module} needs {needed}"
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return f"BANG! The Dice Game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
    for module in ruleset.modules:
        info = MODULES[module]
        if players < info.min_players:
            verb = "need" if info.short.startswith(_PLURAL_SHORTS) else "needs"
            return f"{info.short} {verb} {info.min_players} or more players"
    expected = default_data(ruleset.game_type, ruleset.modules)
    older = older_versions(ruleset.modules)
    for table, version in sorted(ruleset.data.items()):
        if table not in expected:
            return f"data table {table!r} is not part of the ruleset {ruleset.text}"
        if version != expected[table] and version not in older.get(table, ()):
            known = ", ".join([*older.get(table, ()), expected[table]])
            return f"data table {table!r} has no version {version!r} (known: {known})"
    missing = sorted(set(expected) - set(ruleset.data))
    if missing:
        return f"the ruleset does not say which version of {', '.join(missing)} it uses"
    return None


def _cards_refusal(ruleset: Ruleset, players: int) -> str | None:
    if ruleset.modules:
        return "the card game has no modules (the dice game's OS/UA modules are not for it)"
    options = ruleset.option_ids
    if list(options) != sorted(set(options)):
        return "the options must be listed once each, in order"
    eight = CardOption.EIGHT_PLAYERS in options
    if players == 8 and not eight:
        return (
            "8 players play the card game with two Renegades: name the option "
            "(ruleset 'cards eight_players')"
        )
    if eight and players != 8:
        return f"the option eight_players is for 8 players, not {players}"
    if not (CARDS_MIN_PLAYERS <= players <= CARDS_MAX_PLAYERS or (eight and players == 8)):
        return (
            f"BANG! (the card game) is for {CARDS_MIN_PLAYERS} to {CARDS_MAX_PLAYERS} players "
            f"(8 with eight_players), not {players}"
        )
    for table, version in sorted(ruleset.data.items()):
        if table not in CARDS_DATA:
            return f"data table {table!r} is not part of the ruleset {ruleset.text}"
        if version != CARDS_DATA[table]:
            return f"data table {table!r} has no version {version!r} (known: {CARDS_DATA[table]})"
    missing = sorted(set(CARDS_DATA) - set(ruleset.data))
    if missing:
        return f"the ruleset does not say which version of {', '.join(missing)} it uses"
    return None


def check_ruleset(ruleset: Ruleset, players: int) -> None:
    """Raise ``RulesetError`` (saying why) unless ``players`` can play ``ruleset``."""
    reason = refusal(ruleset, players)
    if reason is not None:
        raise RulesetError(reason)


def unimplemented(ruleset: Ruleset, implemented: Iterable[ModuleId]) -> str | None:
    """Why a server that implements ``implemented`` cannot run ``ruleset``, or None."""
    have = set(implemented)
    for module in ruleset.modules:
        if module not in have:
            return f"module {module} ({MODULES[module].name}) is not implemented by this server yet"
    return None
