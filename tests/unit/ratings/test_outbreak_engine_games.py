"""The UA4 contract end to end: Undead or Alive games played by the real dice engine (heuristic
bots, seeded dice, 4 to 8 players) are read by the results decoder, rated and scored without a
refusal, and as docs/rulings.md decided ("how a zombie win is scored and rated")."""

from __future__ import annotations

import msgspec

from services.game.bots.heuristic import HeuristicBot
from services.game.results import OUTBREAK_SIDES, ZOMBIE_WINNERS, Role, Side
from services.game.results.decoder import dice_finish
from services.game.rules.dice import GameEnded
from services.game.rules.ruleset import ruleset_of
from services.game.simulation import deal, game_seeds, play_game
from services.league.facts import member_results
from services.league.points import points_for
from services.league.vocabulary import PointsScheme
from services.ratings.model import RatingBook
from services.ratings.outcome import LeaguePlayerId, from_finish

UA4 = ruleset_of(["UA4"])
GAMES = 60
BONUSES = PointsScheme.with_bonuses()


def test_engine_games_with_and_without_an_outbreak_are_scored_and_rated() -> None:
    book = RatingBook()
    outbreaks = 0
    winners_seen: set[tuple[str, ...]] = set()
    for index in range(GAMES):
        rng, dice = game_seeds(7, index, UA4)
        seats = deal(rng.randint(4, 8), rng, UA4)
        game = play_game(seats, HeuristicBot(0.8), dice, rng, ruleset=UA4)
        [ended] = [e for e in game.events if isinstance(e, GameEnded)]
        finish = dice_finish(ended, msgspec.to_builtins(ended))  # as recorded
        members = {s.seat: f"m{i}" for i, s in enumerate(finish.seats)}
        outcome = from_finish(
            finish, {k: LeaguePlayerId(v) for k, v in members.items()}, f"g{index}", ruleset=UA4.text
        )
        sides = {s.side for s in finish.seats}
        assert outcome.outbreak == isinstance(ended.outbreak_turn, int)
        before = {p: {r: rr.games for r, rr in rec.roles.items()} for p, rec in book.players.items()}
        changes = book.apply(outcome)
        lines = member_results(finish.result(f"g{index}", members))
        if not outcome.outbreak:
            assert not sides & OUTBREAK_SIDES
            assert all(c.role_rated for c in changes)
            continue
        outbreaks += 1
        winners_seen.add(finish.winners)
        assert sides <= OUTBREAK_SIDES and finish.winners in (ZOMBIE_WINNERS, (Side.SURVIVORS.value,))
        # every seat of the winning side won, those out of play included, and nobody else
        for seat in finish.seats:
            assert seat.won == (seat.side in finish.winners)
        # roles untouched: no role game counted for anyone at this table
        assert all(not c.role_rated for c in changes)
        after = {p: {r: rr.games for r, rr in rec.roles.items()} for p, rec in book.players.items()}
        assert {p: after[p] for p in before} == before
        assert [c.faction for c in changes] == [
            Side.ZOMBIES if s.side in (Side.ZOMBIES, Side.ZOMBIE_MASTER) else Side.SURVIVORS
            for s in finish.seats
        ]
        # the Renegade bonus: the Zombie Master's win only, never a plain zombie's
        for line in lines:
            bonus = points_for(line, BONUSES) - BONUSES.win - BONUSES.survivor_bonus * line.alive
            renegade_bonus = line.won and line.role is Role.RENEGADE and line.side == Side.ZOMBIE_MASTER
            assert bonus == (BONUSES.renegade_bonus if renegade_bonus else 0) or not line.won
    # the seeds give both ends after an outbreak, and games without one
    assert 10 <= outbreaks < GAMES
    assert winners_seen == {ZOMBIE_WINNERS, (Side.SURVIVORS.value,)}
