"""Old Saloon, the dice game's first expansion: five modules, one file each (RULINGS-expansions
§3). Importing this package registers them with the engine (``modules.register``)."""

from services.game.rules.dice.modules import register
from services.game.rules.dice.old_saloon.characters import OS4, PosseDecision
from services.game.rules.dice.old_saloon.chief_arrow import OS2, ChiefDecision
from services.game.rules.dice.old_saloon.ghost import OS5, GhostDecision
from services.game.rules.dice.old_saloon.saloon_dice import OS1, SaloonDecision
from services.game.rules.dice.old_saloon.special_roles import OS3

for _module in (OS1, OS2, OS3, OS4, OS5):
    register(_module)

__all__ = [
    "OS1",
    "OS2",
    "OS3",
    "OS4",
    "OS5",
    "ChiefDecision",
    "GhostDecision",
    "PosseDecision",
    "SaloonDecision",
]
