"""The 16 characters of the base game, as data plus hooks.

A character is its numbers (life, rerolls, gatling threshold, reach, what it is immune to, its
cap on an Indian attack) and an ``abilities.Ability``: the hooks its text adds at named points
of the turn. The turn code never asks "is this Slab the Killer?" nor reads a flag: it calls the
hook at its point. An expansion adds characters by adding records here (or in its module).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from services.game.rules.dice import abilities as ab
from services.game.rules.dice.abilities import Ability
from services.game.rules.dice.vocabulary import Cause, CharacterId, Face

__all__ = ["CHARACTERS", "STANDARD_REACH", "Character", "CharacterId", "character"]

STANDARD_REACH: Mapping[Face, frozenset[int]] = MappingProxyType(
    {Face.SHOOT1: frozenset({1}), Face.SHOOT2: frozenset({2})}
)


@dataclass(frozen=True, slots=True)
class Character:
    id: CharacterId
    name: str
    life: int
    rerolls: int = 2
    gatling_threshold: int = 3
    immune_to: frozenset[Cause] = frozenset()
    max_loss_per_indian_attack: int | None = None
    reach: Mapping[Face, frozenset[int]] = field(default_factory=lambda: STANDARD_REACH)
    ability: Ability = ab.BASE_RULES
    # What the card says, as readers outside the turn (bots) ask it at almost every decision:
    # derived from the hooks once. The turn code calls the hooks instead.
    rerolls_dynamite: bool = field(init=False, default=False)
    swaps_shoot_faces: bool = field(init=False, default=False)
    doubles_shot_with_beer: bool = field(init=False, default=False)
    removes_arrow_per_gatling_face: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        a = self.ability
        object.__setattr__(self, "rerolls_dynamite", a.on_keep is not None)
        object.__setattr__(self, "swaps_shoot_faces", bool(a.shot_used_as))
        object.__setattr__(self, "doubles_shot_with_beer", a.before_shots is not None)
        object.__setattr__(self, "removes_arrow_per_gatling_face", a.after_gatling is not None)


def _character(id: CharacterId, life: int, **traits: object) -> Character:
    return Character(id=id, name=id.value.replace("_", " ").title(), life=life, **traits)  # type: ignore[arg-type]


CHARACTERS: Mapping[CharacterId, Character] = MappingProxyType(
    {
        c.id: c
        for c in (
            _character(CharacterId.BART_CASSIDY, 8, ability=ab.BART_CASSIDY),
            _character(CharacterId.BLACK_JACK, 8, ability=ab.BLACK_JACK),
            _character(CharacterId.CALAMITY_JANET, 8, ability=ab.CALAMITY_JANET),
            _character(CharacterId.EL_GRINGO, 7, ability=ab.EL_GRINGO),
            _character(CharacterId.JESSE_JONES, 9, ability=ab.JESSE_JONES),
            _character(CharacterId.JOURDONNAIS, 7, max_loss_per_indian_attack=1),
            _character(CharacterId.KIT_CARLSON, 7, ability=ab.KIT_CARLSON),
            _character(CharacterId.LUCKY_DUKE, 8, rerolls=3),
            _character(CharacterId.PAUL_REGRET, 9, immune_to=frozenset({Cause.GATLING})),
            _character(CharacterId.PEDRO_RAMIREZ, 8, ability=ab.PEDRO_RAMIREZ),
            _character(
                CharacterId.ROSE_DOOLAN,
                9,
                reach=MappingProxyType({Face.SHOOT1: frozenset({1, 2}), Face.SHOOT2: frozenset({2, 3})}),
            ),
            _character(CharacterId.SID_KETCHUM, 8, ability=ab.SID_KETCHUM),
            _character(CharacterId.SLAB_THE_KILLER, 8, ability=ab.SLAB_THE_KILLER),
            _character(CharacterId.SUZY_LAFAYETTE, 8, ability=ab.SUZY_LAFAYETTE),
            _character(CharacterId.VULTURE_SAM, 9, ability=ab.VULTURE_SAM),
            _character(CharacterId.WILLY_THE_KID, 8, gatling_threshold=2),
        )
    }
)


def character(id: CharacterId) -> Character:
    return CHARACTERS[id]
