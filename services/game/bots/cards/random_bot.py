"""``RandomCardBot``: each legal command equally likely, without listing phase 3's discards.

Listing every way to discard k of n cards is combinatorial (C(30, 15) once took a run to 18 GB),
so a discard is drawn directly: k cards sampled from the hand, each k-subset equally likely,
and Sid Ketchum's heal chosen in the proportion of its options to the discards'.
"""

from __future__ import annotations

import math
import random

from services.game.bots.cards.base import split_game
from services.game.bots.cards.view import Knowledge, SeatView
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.game import Game
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, CharacterId, Decision

_NO_KNOWLEDGE = Knowledge()


class RandomCardBot:
    __slots__ = ()

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> cmd.Command:
        state, _events = split_game(game)
        return random_command(SeatView(state, question, _NO_KNOWLEDGE), rng)

    def __repr__(self) -> str:
        return "RandomCardBot()"


def random_command(view: SeatView, rng: random.Random) -> cmd.Command:
    q = view.question
    if q.player == TABLE:
        raise ValueError(f"bots do not answer {q.decision.value}: the table's inputs come from its source")
    if q.decision is Decision.DISCARD:
        return random_discard(view, rng)
    return rng.choice(view.options())


def random_discard(view: SeatView, rng: random.Random) -> cmd.Command:
    me, count = view.me, view.question.count
    discards = math.comb(len(me.hand), count)
    heals = 0
    if me.character is CharacterId.SID_KETCHUM and me.life < me.max_life:
        heals = math.comb(len(me.hand), 2)
    if rng.randrange(discards + heals) < heals:
        a, b = rng.sample(me.hand, 2)
        return cmd.UseSidKetchum(player=me.id, cards=(a, b))
    return cmd.Discard(player=me.id, cards=tuple(rng.sample(me.hand, count)))
