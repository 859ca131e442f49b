"""Bots: players that answer the engine's questions, to fill test leagues and load the server.

A bot sees a game only as its player may (``view.PlayerView``) and always answers with a legal
command. ``RandomBot`` picks uniformly; ``HeuristicBot(care)`` plays its role, making each
decision carefully with probability ``care`` and at random otherwise.
"""

from services.game.bots.base import Bot
from services.game.bots.heuristic import HeuristicBot
from services.game.bots.random_bot import RandomBot, random_command
from services.game.bots.view import Knowledge, PlayerView

BOTS: dict[str, type[HeuristicBot] | type[RandomBot]] = {"heuristic": HeuristicBot, "random": RandomBot}
"""Bot kinds by the name the CLI and benchmarks use."""

__all__ = ["BOTS", "Bot", "HeuristicBot", "Knowledge", "PlayerView", "RandomBot", "random_command"]
