"""Every resting point of a card game can be written as a position, and a game started there
goes on exactly as the original (issue 21 item 6).

Random legal games at 4 to 8 players (8 with the option; some shuffled in an unknown order, as
at a table): at random resting points after the deal, ``position_of`` writes the state, a new
game starts from it, and its state is the original's (a canonical snapshot: what the engine
still reads), with the same question and the same legal commands; the original's remaining
inputs then give the very same events. A variant forgets the deck's order below a random
number of its top cards: the table names each card as it is taken (``table top N``, the card
the original took), and the game is the same but for those ``TopCardNamed`` events.
Hypothesis is derandomised in CI (``tests/conftest.py``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.game import Game
from services.game.rules.cards.position import forget_order, position_of
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import TABLE, CardId, Decision, Phase

from .test_properties import random_game

FROM_THE_DECK = (ev.CardDrawn, ev.KitLooked, ev.CardFlipped, ev.StoreCardRevealed)


def canonical(state: GameState) -> GameState:
    """What the engine still reads: the event count and the opener aside, phase 1's progress
    outside phase 1 and the start's checks outside the start (both reset before they are read
    again)."""
    c = state.clone()
    c.version, c.opener = 0, None
    if c.phase is not Phase.DRAW:
        c.draw_step, c.draw_from, c.phase_drawn = 0, None, []
    if c.phase is not Phase.START:
        c.dynamite_checked = c.jail_checked = c.skip_turn = False
    return c


def _taken(events: list[ev.Event]) -> list[CardId]:
    return [
        e.card
        for e in events
        if isinstance(e, FROM_THE_DECK) and not (isinstance(e, ev.CardDrawn) and e.from_discard)
    ]


def _legal(game: Game) -> list[str] | None:
    q = game.awaiting
    if q is None or q.decision is Decision.DISCARD:
        return None  # every way to discard k of n cards: too many to list; the state says it all
    return sorted(str(c) for c in game.legal_commands())


def _played(seed: int, n: int, unknown: bool) -> tuple[Game, list[cmd.Command], list[int]]:
    """A random game, its inputs, and where each input's events begin."""
    log: list[cmd.Command] = []
    game, _ = random_game(seed, n, log, unknown_order=unknown)
    started = game.events[0]
    assert isinstance(started, ev.GameStarted)
    again = Game.start(list(started.seats), eight_players=n == 8)
    offsets = []
    for command in log:
        offsets.append(len(again.events))
        again.play(command)
    assert again.events == game.events
    return game, log, [*offsets, len(game.events)]


def _at(game: Game, log: list[cmd.Command], k: int) -> Game:
    started = game.events[0]
    assert isinstance(started, ev.GameStarted)
    g = Game.start(list(started.seats), eight_players=started.eight_players)
    for command in log[:k]:
        g.play(command)
    return g


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(4, 8),
    unknown=st.booleans(),
    where=st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=3),
    keep=st.integers(0, 3),
)
def test_a_position_written_at_any_resting_point_goes_on_as_the_game(
    seed: int, n: int, unknown: bool, where: list[float], keep: int
) -> None:
    game, log, offsets = _played(seed, n, unknown)
    started = game.events[0]
    assert isinstance(started, ev.GameStarted)
    for k in sorted({int(w * (len(log) - 1)) for w in where}):
        original = _at(game, log, k)
        if not original.state.dealt or not original.state.active:
            continue  # the first shuffle and the deal: a record's `deck`, not a position
        position = position_of(original.state)
        resumed = Game.start(list(started.seats), eight_players=n == 8, position=position)
        assert resumed.events == [
            ev.GameStarted(seats=started.seats, eight_players=n == 8, position=position)
        ]
        assert canonical(resumed.state) == canonical(original.state)
        assert resumed.awaiting == original.awaiting
        assert _legal(resumed) == _legal(original)
        went_on: list[ev.Event] = []
        for command in log[k:]:
            went_on += resumed.play(command)
        assert went_on == game.events[offsets[k] :]
        assert resumed.result == game.result

        # the deck's order forgotten below its top cards: each card named as the original took it
        table = Game.start(
            list(started.seats), eight_players=n == 8, position=forget_order(position, keep=keep)
        )
        assert table.awaiting == original.awaiting
        for j in range(k, len(log)):
            taken = _taken(game.events[offsets[j] : offsets[j + 1]])
            produced = table.play(log[j])
            while (q := table.awaiting) is not None and q.decision is Decision.TOP_CARD:
                done = len(_taken(produced))
                if done >= len(taken):
                    break  # the original was asked too: its own next input names the card
                produced += table.play(cmd.NameTopCard(player=TABLE, card=taken[done]))
            seen = [e for e in produced if not isinstance(e, ev.TopCardNamed)]
            assert seen == [
                e for e in game.events[offsets[j] : offsets[j + 1]] if not isinstance(e, ev.TopCardNamed)
            ]
        assert table.result == game.result


def test_every_resting_point_of_some_games_is_a_position_the_rules_accept() -> None:
    # every point, not a sample: the checks of a position never refuse what the engine reaches
    points = 0
    for seed, n in ((11, 4), (12, 6), (13, 8)):
        game, log, _ = _played(seed, n, seed % 2 == 0)
        started = game.events[0]
        assert isinstance(started, ev.GameStarted)
        g = Game.start(list(started.seats), eight_players=n == 8)
        for command in log:
            g.play(command)
            if g.is_over or not g.state.active:
                continue
            position = position_of(g.state)
            for p in (position, forget_order(position)):
                resumed = Game.start(list(started.seats), eight_players=n == 8, position=p)
                assert len(resumed.events) == 1
            points += 1
    assert points > 300
