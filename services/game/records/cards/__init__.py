"""Card-game records: a game of BANG! (the card game) as a JSON file, read, replayed and written.

A sibling of the dice game's record (``format: bang-cards-record``, ``game_type: cards``) with
the same conventions: the setup (seats, the 8-player option, the first shuffle's order or a
mid-game position) and every input in order, TABLE's shuffles and random picks included.
``docs/game-records.md``, "The card game", documents it; the card engine knows nothing of it.
"""

from services.game.records.cards.model import (
    CARD_DATA,
    CARDS_FORMAT,
    CARDS_VERSION,
    CardOptions,
    CardRecord,
    DeckSource,
)
from services.game.records.cards.reader import read_card_record
from services.game.records.cards.replay import replay_card_record
from services.game.records.cards.restate import restate_card_record
from services.game.records.cards.summary import summarize_cards
from services.game.records.cards.trace import card_trace_line
from services.game.records.cards.writer import (
    card_inputs_from_events,
    card_record_from_events,
    card_record_to_object,
    write_card_record,
)

__all__ = [
    "CARDS_FORMAT",
    "CARDS_VERSION",
    "CARD_DATA",
    "CardOptions",
    "CardRecord",
    "DeckSource",
    "card_inputs_from_events",
    "card_record_from_events",
    "card_record_to_object",
    "card_trace_line",
    "read_card_record",
    "replay_card_record",
    "restate_card_record",
    "summarize_cards",
    "write_card_record",
]
