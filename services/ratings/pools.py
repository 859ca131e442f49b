"""Which pools a finished game moves: the rule that keeps a rating from being fabricated.

A rating moves only for a game whose result nobody can make up alone (docs/ratings.md, "What is
rated: pools"). Like Lichess, which never rates an imported game, the ratings keep two kinds of
pool apart:

* ``global``: online games played on this server, where the server dealt the roles and rolled
  (or shuffled) from the seed it committed to, and every seat was taken by its own account: a
  distinct member who joined the game themselves (their ``PlayerJoined`` was appended by their
  own account; the service then lets only that account decide for the seat). A seat filled by
  an organiser at creation (a bot round, a player token handed out) is not its own account's.
* ``club:<club_id>``: that club's league games (online, at a table, or a result sheet), entered
  under its league's schedule (``GameScheduled``) and, at a table, created by the official the
  schedule names (the scheduled scorekeeper or the organiser who scheduled it). A league
  belongs to the club that founded it, so a club moves no pool but its own.

An imported record (``POST /records``, ``bang-league import``) is replayable and auditable but
never rated, in any pool, and so is a friendly table game. The facts are the game's own recorded
events and the league's, kept per generation by the consumer, so a rebuild decides the same.
This module is the rule alone: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

GLOBAL = "global"
CLUB_PREFIX = "club:"
ONLINE = "online"
TABLE = "table"


@dataclass(frozen=True, slots=True)
class Schedule:
    """The league's ``GameScheduled`` of a game."""

    mode: str | None
    scorekeeper: str | None
    scheduled_by: str | None


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the events recorded of a game, as far as its pools go."""

    mode: str | None
    """``online`` or ``table`` (its ``GameCreated``); None when its creation was not seen."""
    members: tuple[str, ...]
    """Who sits in seat ``p1``, ``p2``… (``SeatsDealt``)."""
    joined_by_self: frozenset[str]
    """The members whose ``PlayerJoined`` their own account appended."""
    imported: bool
    """Its inputs were entered as a record's import (``<creation command id>/input/<n>``)."""
    league_id: str | None
    created_by: str | None
    club_id: str | None
    """The club that founded ``league_id`` (``LeagueFounded``)."""
    schedule: Schedule | None
    """``league_id``'s schedule of this game, if it scheduled it."""


@dataclass(frozen=True, slots=True)
class Decision:
    pools: tuple[str, ...]
    reason: str
    """Why it moves no pool (plain words, stored as the game's ``unrated``); empty when it does."""


def club_pool(club_id: str) -> str:
    return f"{CLUB_PREFIX}{club_id}"


def decide(facts: GameFacts) -> Decision:
    """The pools ``facts``' game is rated in, or why none."""
    if facts.imported:
        return Decision((), "an imported record: replayable, never rated")
    pools: list[str] = []
    reasons: list[str] = []
    global_reason = _global_refusal(facts)
    if global_reason is None:
        pools.append(GLOBAL)
    else:
        reasons.append(global_reason)
    if facts.league_id is None:
        if facts.mode == TABLE:
            return Decision((), "a friendly table game: not rated")
    else:
        club_reason = _club_refusal(facts)
        if club_reason is None:
            assert facts.club_id is not None
            pools.append(club_pool(facts.club_id))
        else:
            reasons.append(club_reason)
    if pools:
        return Decision(tuple(pools), "")
    return Decision((), "; ".join(reasons))


def _global_refusal(facts: GameFacts) -> str | None:
    if facts.mode != ONLINE:
        return "not an online game of this server"
    if not facts.members or len(set(facts.members)) != len(facts.members):
        return "not every seat is a distinct player"
    if not set(facts.members) <= facts.joined_by_self:
        return "not every seat was taken by its own account"
    return None


def _club_refusal(facts: GameFacts) -> str | None:
    if facts.club_id is None:
        return f"league {facts.league_id} is not known to belong to a club"
    schedule = facts.schedule
    if schedule is None:
        return f"league {facts.league_id} did not schedule it"
    if schedule.mode is not None and schedule.mode != facts.mode:
        return f"league {facts.league_id} scheduled it as a {schedule.mode} game"
    if facts.mode == TABLE:
        officials = {schedule.scorekeeper, schedule.scheduled_by} - {None}
        if facts.created_by not in officials:
            return "it was not entered by the scorekeeper its league named"
    return None


def decide_sheet(club_id: str | None, league_id: str) -> Decision:
    """A league's result sheet (recorded by the league's officials after its own checks) moves
    its league's club pool, and nothing else."""
    if club_id is None:
        return Decision((), f"league {league_id} is not known to belong to a club")
    return Decision((club_pool(club_id),), "")
