"""The words of BANG! The Dice Game: players, faces, roles, sides, causes.

Everything else in the engine speaks in these types, never in bare strings or ints.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType

PlayerId = NewType("PlayerId", str)
"""A seat's player, e.g. ``"p1"``. Stable for the whole game."""

DieIndex = int
"""Position of a die in the active player's hand, 0..4 for the base game."""


class Face(StrEnum):
    ARROW = "arrow"
    DYNAMITE = "dynamite"
    SHOOT1 = "shoot1"
    SHOOT2 = "shoot2"
    BEER = "beer"
    GATLING = "gatling"
    # Old Saloon (OS1): the Loudmouth and Coward dice
    BROKEN_ARROW = "broken_arrow"
    BULLET = "bullet"
    SHOOT1X2 = "shoot1x2"
    SHOOT2X2 = "shoot2x2"
    BEERX2 = "beerx2"
    GATLINGX2 = "gatlingx2"
    # Undead or Alive (UA1): the Duel dice
    WHISKEY = "whiskey"
    DUEL = "duel"


ARROW, DYNAMITE, SHOOT1, SHOOT2, BEER, GATLING = (
    Face.ARROW,
    Face.DYNAMITE,
    Face.SHOOT1,
    Face.SHOOT2,
    Face.BEER,
    Face.GATLING,
)
"""The faces by plain name, for the loops over dice that run at every step: on Python 3.11
reading ``Face.BEER`` goes through the enum class's ``__getattr__`` and costs several times
as much as reading a module constant."""

SHOOT_FACES: frozenset[Face] = frozenset({SHOOT1, SHOOT2})
BROKEN_ARROW, BULLET = Face.BROKEN_ARROW, Face.BULLET
ANY_SHOOT_FACES: frozenset[Face] = frozenset({SHOOT1, SHOOT2, Face.SHOOT1X2, Face.SHOOT2X2})
ANY_BEER_FACES: frozenset[Face] = frozenset({BEER, Face.BEERX2})
DOUBLE_FACES: frozenset[Face] = frozenset({Face.SHOOT1X2, Face.SHOOT2X2, Face.BEERX2, Face.GATLINGX2})
BASE_FACES: frozenset[Face] = frozenset({ARROW, DYNAMITE, SHOOT1, SHOOT2, BEER, GATLING})
"""The faces of a base die; every other face belongs to an expansion's die."""


class CharacterId(StrEnum):
    """Every character of the dice game: the base game's 16 (their rules:
    ``characters.CHARACTERS``), then each module's (their rules: the module's file)."""

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
    # Old Saloon, OS4 (old_saloon/characters.py)
    APACHE_KID = "apache_kid"
    BILL_NOFACE = "bill_noface"
    DOC_HOLYDAY = "doc_holyday"
    ELENA_FUENTE = "elena_fuente"
    JOSE_DELGADO = "jose_delgado"
    MOLLY_STARK = "molly_stark"
    TEQUILA_JOE = "tequila_joe"
    VERA_CUSTER = "vera_custer"
    # Undead or Alive, UA3 (undead/characters.py)
    BELLE_STAR = "belle_star"
    CHUCK_WENGAM = "chuck_wengam"
    GREG_DIGGER = "greg_digger"
    HERB_HUNTER = "herb_hunter"
    PAT_BRENNAN = "pat_brennan"
    PIXIE_PETE = "pixie_pete"
    SAM_THE_HEALER = "sam_the_healer"
    SEAN_MALLORY = "sean_mallory"


class Role(StrEnum):
    SHERIFF = "sheriff"
    DEPUTY = "deputy"
    OUTLAW = "outlaw"
    RENEGADE = "renegade"


class SpecialRole(StrEnum):
    """Old Saloon's special role cards (OS3, RULINGS-expansions §OS3), by the seed's names. With
    OS3 every seat holds one; its base role (``BASE_ROLE_OF``) decides sides and the end."""

    L_OURS = "l_ours"  # Sheriff: +3 life instead of +2 (passive)
    LE_BIEN = "le_bien"  # Deputy: becomes the Sheriff
    LE_DOC = "le_doc"  # Deputy: sets one die of any roll
    LE_JUGE = "le_juge"  # Deputy: cancels another role's use
    LE_JOUEUR = "le_joueur"  # Outlaw: forces a reroll of all dice
    LE_MAUVAIS = "le_mauvais"  # Outlaw: cancels a gain of life
    LE_VILAIN = "le_vilain"  # Outlaw: swaps two players' arrows
    MAIN_DROITE = "main_droite"  # Renegade: an extra turn
    MAIN_GAUCHE = "main_gauche"  # Renegade: saves a player from elimination


class Side(StrEnum):
    """Who wins together. Three-player games have one side per player (their role)."""

    LAW = "law"
    OUTLAWS = "outlaws"
    RENEGADE = "renegade"
    # three-player game: each role is its own side
    DEPUTY = "deputy"
    OUTLAW = "outlaw"
    # UA4 after an outbreak (docs/rulings.md, "how a zombie win is scored and rated"): every
    # seat's side at the end; the zombies' win names ZOMBIES, their Master shares it
    ZOMBIES = "zombies"
    ZOMBIE_MASTER = "zombie_master"
    SURVIVORS = "survivors"


BASE_ROLE_OF: dict[SpecialRole, Role] = {
    SpecialRole.L_OURS: Role.SHERIFF,
    SpecialRole.LE_BIEN: Role.DEPUTY,
    SpecialRole.LE_DOC: Role.DEPUTY,
    SpecialRole.LE_JUGE: Role.DEPUTY,
    SpecialRole.LE_JOUEUR: Role.OUTLAW,
    SpecialRole.LE_MAUVAIS: Role.OUTLAW,
    SpecialRole.LE_VILAIN: Role.OUTLAW,
    SpecialRole.MAIN_DROITE: Role.RENEGADE,
    SpecialRole.MAIN_GAUCHE: Role.RENEGADE,
}


class Cause(StrEnum):
    """Why a player lost life. Shots and the gatling have a player as source; the rest none."""

    SHOOT1 = "shoot1"
    SHOOT2 = "shoot2"
    GATLING = "gatling"
    INDIAN_ATTACK = "indian_attack"
    DYNAMITE = "dynamite"
    BULLET = "bullet"  # OS1's Loudmouth die: the roller loses 1, no source
    DUEL = "duel"  # UA1: the loser of a duel loses 1, the other duelist its source
    PRICE = "price"  # UA3's Chuck Wengam pays 1 life to set a die, no source


class GainCause(StrEnum):
    BEER = "beer"
    TURN_START_HEAL = "turn_start_heal"  # Sid Ketchum
    END_OF_TURN_HEAL = "end_of_turn_heal"  # Suzy Lafayette
    ELIMINATION_REWARD = "elimination_reward"  # Vulture Sam
    THREE_SHOTS_HEAL = "three_shots_heal"  # OS4's Doc Holyday
    WHISKEY = "whiskey"  # UA1: the active player's whiskey
    SHOT_HEAL = "shot_heal"  # UA3's Sam the Healer: one heal per shoot1 he used


class ArrowReason(StrEnum):
    """Why an arrow token moved from the pile to a player, or back."""

    ROLL = "roll"
    INSTEAD_OF_LIFE = "instead_of_life"  # Bart Cassidy
    HIT_BACK = "hit_back"  # El Gringo makes the shooter take one
    GATLING = "gatling"  # the shooter returns all
    DISCARD_ON_LOSS = "discard_on_loss"  # Pedro Ramirez
    REMOVED_BY_GATLING_FACE = "removed_by_gatling_face"  # Kit Carlson
    BROKEN_ARROW = "broken_arrow"  # OS1: a broken_arrow face makes a player return one
    RAGE = "rage"  # UA2: an arrow symbol of a Rage card revealed at the start of the turn


class Phase(StrEnum):
    ROLLING = "rolling"
    RESOLVING = "resolving"
    OVER = "over"


class RollingEnd(StrEnum):
    """Why the dice became final."""

    STOPPED = "stopped"
    NO_REROLLS_LEFT = "no_rerolls_left"
    THREE_DYNAMITE = "three_dynamite"
