"""The named points of a turn, in the order RULINGS.md plays them.

Decisions say at which point they are asked (``DecisionSpec.point``) and abilities at which
points they act (``abilities.Ability``): both speak of the turn in these words, so an
expansion's rule names the point it belongs to instead of a line of ``flow.py``.
"""

from __future__ import annotations

from enum import StrEnum


class TurnPoint(StrEnum):
    START_OF_TURN = "start_of_turn"  # before the first roll (Sid Ketchum)
    CHOOSE_DICE = "choose_dice"  # which dice the turn rolls (OS1's Saloon die)
    ROLL = "roll"  # the dice are rolled (faces arrive as data)
    ON_RESOLVE_ARROWS = "on_resolve_arrows"  # each roll's arrows, one token at a time
    AFTER_ROLL = "after_roll"  # each roll's other effects, after its arrows (OS1)
    ON_KEEP = "on_keep"  # reroll or stop: which dice may be rerolled
    AFTER_ROLLING = "after_rolling"  # rolling is over, before the resolution (OS4's Bill Noface)
    ON_RESOLVE_DYNAMITE = "on_resolve_dynamite"
    ON_RESOLVE_SHOTS = "on_resolve_shots"  # targets, then all shots at once
    AFTER_SHOTS = "after_shots"  # once the shots are applied (OS4's Doc Holyday)
    ON_RESOLVE_BEERS = "on_resolve_beers"
    AFTER_BEERS = "after_beers"  # once the beers are poured (UA3's Greg Digger, ua3-2)
    ON_RESOLVE_GATLING = "on_resolve_gatling"
    ON_DAMAGE = "on_damage"  # before a step's losses apply (Bart Cassidy)
    AFTER_DAMAGE = "after_damage"  # after a step's losses (Pedro Ramirez, El Gringo)
    ON_ELIMINATION = "on_elimination"  # after eliminations, before the end check (Vulture Sam)
    END_OF_TURN = "end_of_turn"  # after the resolution (Suzy Lafayette)
    ELIMINATED_TURN = "eliminated_turn"  # the turn of a seat not alive that keeps it (OS5's Ghost)
