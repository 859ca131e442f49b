"""The words of BANG! the card game: players, roles, sides, characters, card names, suits, phases.

Everything else in the card engine speaks in these types, never in bare strings or ints.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType

PlayerId = NewType("PlayerId", str)
"""A seat's player, e.g. ``"p1"``. Stable for the whole game."""

TABLE = PlayerId("table")
"""Who supplies the random inputs (a shuffle's order, a card taken at random from a hand): the
server's seeded generator online, the scorekeeper at a physical table. Never a seat."""

CardId = NewType("CardId", int)
"""One of the 80 physical cards, 1..80 in ``deck.DECK`` order."""


class Role(StrEnum):
    SHERIFF = "sheriff"
    DEPUTY = "deputy"
    OUTLAW = "outlaw"
    RENEGADE = "renegade"


class Side(StrEnum):
    LAW = "law"  # the Sheriff and his Deputies
    OUTLAWS = "outlaws"
    RENEGADE = "renegade"


SIDE_OF_ROLE: dict[Role, Side] = {
    Role.SHERIFF: Side.LAW,
    Role.DEPUTY: Side.LAW,
    Role.OUTLAW: Side.OUTLAWS,
    Role.RENEGADE: Side.RENEGADE,
}


class CharacterId(StrEnum):
    BART_CASSIDY = "bart_cassidy"
    BLACK_JACK = "black_jack"
    CALAMITY_JANET = "calamity_janet"
    EL_GRINGO = "el_gringo"
    JESSE_JONES = "jesse_jones"
    JOURDONNAIS = "jourdonnais"
    KIT_CARLSON = "kit_carlson"
    LUCKY_DUKE = "lucky_duke"
    PAUL_REGRET = "paul_regret"
    PEDRO_RAMIREZ = "pedro_ramirez"
    ROSE_DOOLAN = "rose_doolan"
    SID_KETCHUM = "sid_ketchum"
    SLAB_THE_KILLER = "slab_the_killer"
    SUZY_LAFAYETTE = "suzy_lafayette"
    VULTURE_SAM = "vulture_sam"
    WILLY_THE_KID = "willy_the_kid"


BULLETS: dict[CharacterId, int] = {c: 4 for c in CharacterId} | {
    CharacterId.EL_GRINGO: 3,
    CharacterId.PAUL_REGRET: 3,
}
"""Starting (and maximum) life of each character; the Sheriff adds 1."""


class CardName(StrEnum):
    BANG = "bang"
    MISSED = "missed"
    BEER = "beer"
    SALOON = "saloon"
    STAGECOACH = "stagecoach"
    WELLS_FARGO = "wells_fargo"
    GENERAL_STORE = "general_store"
    PANIC = "panic"
    CAT_BALOU = "cat_balou"
    GATLING = "gatling"
    INDIANS = "indians"
    DUEL = "duel"
    BARREL = "barrel"
    SCOPE = "scope"
    MUSTANG = "mustang"
    JAIL = "jail"
    DYNAMITE = "dynamite"
    VOLCANIC = "volcanic"
    SCHOFIELD = "schofield"
    REMINGTON = "remington"
    REV_CARABINE = "rev_carabine"
    WINCHESTER = "winchester"


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


class Phase(StrEnum):
    SETUP = "setup"  # the first shuffle and the deal
    START = "start"  # Dynamite, then Jail
    DRAW = "draw"  # phase 1
    PLAY = "play"  # phase 2
    DISCARD = "discard"  # phase 3
    OVER = "over"


class CheckReason(StrEnum):
    """Why a draw! is made."""

    DYNAMITE = "dynamite"
    JAIL = "jail"
    BARREL = "barrel"
    JOURDONNAIS = "jourdonnais"


class DrawReason(StrEnum):
    """Why cards are taken from the deck into a hand."""

    DEAL = "deal"
    PHASE = "phase"  # phase 1
    BLACK_JACK = "black_jack"
    KIT_CARLSON = "kit_carlson"
    STAGECOACH = "stagecoach"
    WELLS_FARGO = "wells_fargo"
    REWARD = "reward"  # an Outlaw eliminated: 3 cards
    BART_CASSIDY = "bart_cassidy"
    SUZY_LAFAYETTE = "suzy_lafayette"


class Cause(StrEnum):
    """How a player was eliminated (besides the responsible player, if any)."""

    CARD = "card"  # a card played by another player
    DYNAMITE = "dynamite"
    SELF = "self"  # his own Duel


class Decision(StrEnum):
    """What the one awaited player must decide."""

    SHUFFLE = "shuffle"  # TABLE: the order of a new deck
    RANDOM_CARD = "random_card"  # TABLE: which card of a hand is taken at random
    TOP_CARD = "top_card"  # TABLE: the next card of a deck shuffled in an unknown order
    DRAW_SOURCE = "draw_source"  # Jesse Jones, Pedro Ramirez: where the first card comes from
    KIT_RETURN = "kit_return"  # Kit Carlson: which of the three goes back
    DRAW_RESULT = "draw_result"  # Lucky Duke: which of the two flipped cards counts
    PLAY = "play"  # phase 2
    DISCARD = "discard"  # phase 3: down to the hand limit
    RESPOND_SHOT = "respond_shot"  # a BANG! effect aimed at you
    RESPOND_INDIANS = "respond_indians"
    RESPOND_DUEL = "respond_duel"
    DYING = "dying"
    STORE_PICK = "store_pick"  # General Store
    DISCARD_ORDER = "discard_order"  # an eliminated player's cards, when Pedro Ramirez lives


class Window(StrEnum):
    """The kind of response a resolution asks of its current target."""

    SHOT = "shot"
    INDIANS = "indians"
    DUEL = "duel"
