"""The Old Saloon expansion's modules (RULINGS-expansions §3), one file each, registered with the
engine (``modules.register``) when the dice engine is imported."""

from services.game.rules.dice.modules import register
from services.game.rules.dice.old_saloon.ghost import OS5

register(OS5)

__all__ = ["OS5"]
