"""Bots for BANG! the card game: ``RandomCardBot`` (each legal command equally likely) and
``HeuristicCardBot`` (plays its role). They see a game only as their seat may
(``view.SeatView``) and answer every seat's question; ``TABLE``'s random inputs come from the
caller's source (``services.game.simulation_cards``)."""

from services.game.bots.cards.base import CardBot
from services.game.bots.cards.heuristic import HeuristicCardBot
from services.game.bots.cards.random_bot import RandomCardBot
from services.game.bots.cards.view import Knowledge, SeatView

CARD_BOTS: dict[str, type[HeuristicCardBot] | type[RandomCardBot]] = {
    "heuristic": HeuristicCardBot,
    "random": RandomCardBot,
}
"""Card bots by the name the CLI and benchmarks use."""

__all__ = ["CARD_BOTS", "CardBot", "HeuristicCardBot", "Knowledge", "RandomCardBot", "SeatView"]
