"""Undead or Alive, the dice game's second expansion: one file per module (RULINGS-expansions
§4). Importing this package registers the modules it has with the engine (``modules.register``);
the others stay refused by name (``modules.rules_for``)."""

from services.game.rules.dice.modules import register
from services.game.rules.dice.undead.characters import UA3
from services.game.rules.dice.undead.duels import UA1, DuelDecision
from services.game.rules.dice.undead.legacy import UA5
from services.game.rules.dice.undead.rage import UA2, RageDecision
from services.game.rules.dice.undead.zombies import UA4, ZombieDecision

for _module in (UA1, UA2, UA3, UA4, UA5):
    register(_module)

__all__ = ["UA1", "UA2", "UA3", "UA4", "UA5", "DuelDecision", "RageDecision", "ZombieDecision"]
