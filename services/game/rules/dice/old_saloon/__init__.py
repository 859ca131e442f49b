"""Old Saloon, the dice game's first expansion: one file per module, each registered here."""

from __future__ import annotations

from services.game.rules.dice.modules import register
from services.game.rules.dice.old_saloon.special_roles import OS3

register(OS3)

__all__ = ["OS3"]
