"""The 16 characters of the base game, as data.

The turn code never asks "is this Slab the Killer?": it asks the character's traits
("does this character double a shot with a beer?"). An expansion adds characters by adding
records here, and new traits where the base set has no word for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from services.game.rules.dice.vocabulary import Cause, Face


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


STANDARD_REACH: Mapping[Face, frozenset[int]] = MappingProxyType(
    {Face.SHOOT1: frozenset({1}), Face.SHOOT2: frozenset({2})}
)


@dataclass(frozen=True, slots=True)
class Character:
    id: CharacterId
    name: str
    life: int
    rerolls: int = 2
    rerolls_dynamite: bool = False
    gatling_threshold: int = 3
    immune_to: frozenset[Cause] = frozenset()
    max_loss_per_indian_attack: int | None = None
    reach: Mapping[Face, frozenset[int]] = field(default_factory=lambda: STANDARD_REACH)
    swaps_shoot_faces: bool = False
    low_life_self_beer: tuple[int, int] | None = None
    """(life threshold, life per beer) when the beers resolve."""
    heals_at_turn_start: bool = False
    end_of_turn_heal_without_shots: int = 0
    life_per_other_elimination: int = 0
    hit_back_with_arrow: bool = False
    arrow_instead_of_life: bool = False
    discards_arrow_on_loss: bool = False
    removes_arrow_per_gatling_face: bool = False
    doubles_shot_with_beer: bool = False

    @property
    def reacts_to_loss(self) -> bool:
        """Answers a loss of life: discards own arrows (Pedro) or hands the shooter one (El Gringo)."""
        return self.discards_arrow_on_loss or self.hit_back_with_arrow


def _character(id: CharacterId, life: int, **traits: object) -> Character:
    return Character(id=id, name=id.value.replace("_", " ").title(), life=life, **traits)  # type: ignore[arg-type]


CHARACTERS: Mapping[CharacterId, Character] = MappingProxyType(
    {
        c.id: c
        for c in (
            _character(CharacterId.BART_CASSIDY, 8, arrow_instead_of_life=True),
            _character(CharacterId.BLACK_JACK, 8, rerolls_dynamite=True),
            _character(CharacterId.CALAMITY_JANET, 8, swaps_shoot_faces=True),
            _character(CharacterId.EL_GRINGO, 7, hit_back_with_arrow=True),
            _character(CharacterId.JESSE_JONES, 9, low_life_self_beer=(4, 2)),
            _character(CharacterId.JOURDONNAIS, 7, max_loss_per_indian_attack=1),
            _character(CharacterId.KIT_CARLSON, 7, removes_arrow_per_gatling_face=True),
            _character(CharacterId.LUCKY_DUKE, 8, rerolls=3),
            _character(CharacterId.PAUL_REGRET, 9, immune_to=frozenset({Cause.GATLING})),
            _character(CharacterId.PEDRO_RAMIREZ, 8, discards_arrow_on_loss=True),
            _character(
                CharacterId.ROSE_DOOLAN,
                9,
                reach=MappingProxyType({Face.SHOOT1: frozenset({1, 2}), Face.SHOOT2: frozenset({2, 3})}),
            ),
            _character(CharacterId.SID_KETCHUM, 8, heals_at_turn_start=True),
            _character(CharacterId.SLAB_THE_KILLER, 8, doubles_shot_with_beer=True),
            _character(CharacterId.SUZY_LAFAYETTE, 8, end_of_turn_heal_without_shots=2),
            _character(CharacterId.VULTURE_SAM, 9, life_per_other_elimination=2),
            _character(CharacterId.WILLY_THE_KID, 8, gatling_threshold=2),
        )
    }
)


def character(id: CharacterId) -> Character:
    return CHARACTERS[id]
