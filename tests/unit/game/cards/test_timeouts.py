"""The default played for a player whose time is up: always legal, a window's Pass is marked."""

from __future__ import annotations

import random

from services.game.rules.cards import commands as cmd
from services.game.rules.cards.decide import awaiting
from services.game.rules.cards.events import Passed
from services.game.rules.cards.game import Game
from services.game.rules.cards.setup import ROLES_BY_PLAYER_COUNT
from services.game.rules.cards.timeouts import timeout_command
from services.game.rules.cards.vocabulary import TABLE, CharacterId, Decision

from .rig import DEFAULT_SEATS, P, play, rigged


def test_a_timed_out_shot_is_a_pass_recorded_as_a_timeout() -> None:
    game, n = rigged(DEFAULT_SEATS, {0: ["bang"]})
    play(game, 0, n["bang"], 1)
    default = timeout_command(game.state)
    assert default == cmd.Pass(player=P[1], timeout=True)
    assert str(default) == "p2 pass timeout" and cmd.parse_command("p2 pass timeout") == default
    events = game.play(default)
    assert Passed(player=P[1], timeout=True) in events


def test_every_awaited_player_has_a_legal_default_and_the_table_none() -> None:
    from services.game.rules.cards.events import Seat

    seen: set[Decision] = set()
    for seed in range(20):
        rng = random.Random(seed)
        n = 4 + seed % 4
        roles = list(ROLES_BY_PLAYER_COUNT[n])
        rng.shuffle(roles)
        chars = rng.sample(list(CharacterId), n)
        game = Game.start([Seat(player=P[i], role=roles[i], character=chars[i]) for i in range(n)])
        while not game.is_over:
            q = awaiting(game.state)
            assert q is not None
            default = timeout_command(game.state)
            if q.player == TABLE:
                assert default is None
                order = list(q.cards) if q.decision is Decision.SHUFFLE else []
                rng.shuffle(order)
                command: cmd.Command = (
                    cmd.ShuffleDeck(player=TABLE, order=tuple(order))
                    if q.decision is Decision.SHUFFLE
                    else rng.choice(list(game.legal_commands()))
                )
            else:
                assert default is not None and default in game.legal_commands(), (q, default)
                seen.add(q.decision)
                command = default if rng.random() < 0.3 else rng.choice(list(game.legal_commands()))
            game.play(command)
    assert {Decision.PLAY, Decision.DISCARD, Decision.RESPOND_SHOT, Decision.DYING} <= seen
