"""The integrity rule: a game counts for a league only if that league scheduled it for that
round's table, with those members in those seats (docs/league.md, "Integrity").

``check_new_game`` is pure: given the reservation of the game's id (or None), the game asked for
and what the caller may do in the reservation's club, it returns or raises, naming every
difference. The game server calls it on every creation (REST, GraphQL, record import), so no
path creates a league game the schedule does not describe.

What must match a reservation:

- the context: league, season, tournament, round and table, all of them;
- the mode (online or table), and the game type the league plays (dice or cards);
- online: the members in the seating's order, and the rotation's Sheriff;
- table: the same members (in the order they sat at the physical table) and the rotation's
  Sheriff holding the Sheriff's card; a table game the server deals names them as an online
  game does (the seating's order, the rotation's Sheriff) and the deal seats them;
- the ruleset, when the schedule named one;
- who: an online game is created by an organiser or admin of the league's club; a table game
  by one of them, a referee of the club, or whoever holds the club's ``scorekeeper`` role for
  that very game now (the grant decides, not the schedule's naming: a revoked scorekeeper
  creates nothing);
- nobody seated at a table game keeps its score: a seat's member holding the club's
  ``scorekeeper`` role for that game is refused (``ScorekeeperSeated``, 422).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.clubs.errors import RoleRequired, ScorekeeperSeated
from services.game.application.lifecycle import GameMode
from services.game.application.service import NewGame
from services.league.errors import GameNotScheduled, ScheduleMismatch
from services.league.reservations import Reservation

SHERIFF_CARD = "sheriff"


@dataclass(frozen=True, slots=True)
class Creator:
    """Who is creating the game, as far as the rule cares."""

    account_id: str | None
    """None: an operator's organiser token, which has no account and no club."""
    organises: bool
    """Holds ``organiser`` or ``admin`` in the reservation's club."""
    keeps_score: bool = False
    """Holds ``scorekeeper`` for this very game in the reservation's club (as of this request)."""
    referees: bool = False
    """Holds ``referee`` in the reservation's club: starts a table game as its scorekeeper may."""


def check_new_game(
    reservation: Reservation | None,
    spec: NewGame,
    creator: Creator,
    scorekeepers: frozenset[str] = frozenset(),
) -> None:
    """``scorekeepers``: the accounts holding ``scorekeeper`` for this game in its club."""
    context = spec.context
    if reservation is None:
        if context.league_id is not None:
            where = _context_words(spec)
            raise GameNotScheduled(
                f"{where} scheduled no game{'' if spec.game_id is None else f' {spec.game_id!r}'}: a league "
                "game is created for a table its organiser scheduled (POST /leagues/{id}/games)"
            )
        return
    if context.league_id is None:
        raise GameNotScheduled(
            f"game id {reservation.game_id!r} is reserved for {reservation.where()}; only that table's "
            "game may use it"
        )
    if reservation.result_sheet:
        raise ScheduleMismatch(
            f"game {reservation.game_id!r} ({reservation.where()}) was played on cardboard: its result "
            "sheet is recorded, so no game is created for it"
        )
    at_table = creator.keeps_score or creator.referees
    if not creator.organises and not (reservation.mode == GameMode.TABLE and at_table):
        needed = (
            ("organiser", "admin")
            if reservation.mode == GameMode.ONLINE
            else ("organiser", "admin", "referee", "scorekeeper")
        )
        raise RoleRequired(reservation.club_id, needed)
    differences = _context_differences(reservation, spec) + _seat_differences(reservation, spec)
    if differences:
        raise ScheduleMismatch(
            f"game {reservation.game_id!r} does not match its schedule ({reservation.where()}): "
            + "; ".join(differences)
        )
    if reservation.mode == GameMode.TABLE:
        for n, seat in enumerate(spec.seats or (), start=1):
            if seat.member_id in scorekeepers:
                raise ScorekeeperSeated("seats", f"{seat.name} (seat p{n})", reservation.game_id)
        for member in spec.members if spec.dealt_by_server else ():
            if member.member_id in scorekeepers:
                raise ScorekeeperSeated("members", member.name, reservation.game_id)


def _context_words(spec: NewGame) -> str:
    c = spec.context
    parts = [f"league {c.league_id!r}"]
    if c.tournament_id is not None:
        parts.append(f"tournament {c.tournament_id!r}")
    if c.round is not None:
        parts.append(f"round {c.round}")
    if c.table is not None:
        parts.append(f"table {c.table}")
    return ", ".join(parts)


def _context_differences(reservation: Reservation, spec: NewGame) -> list[str]:
    c = spec.context
    wanted: list[tuple[str, object, object]] = [
        ("league", c.league_id, reservation.league_id),
        ("season", c.season_id, reservation.season_id),
        ("tournament", c.tournament_id, reservation.tournament_id),
        ("round", c.round, reservation.round),
        ("table", c.table, reservation.table),
        ("mode", str(spec.mode), reservation.mode),
        ("game type", str(spec.ruleset.game_type), reservation.game_type),
    ]
    if reservation.ruleset is not None:
        wanted.append(("ruleset", spec.ruleset.text, reservation.ruleset))
    return [
        f"{name} is {given!r}, scheduled {expected!r}"
        for name, given, expected in wanted
        if given != expected
    ]


def _seat_differences(reservation: Reservation, spec: NewGame) -> list[str]:
    expected = reservation.members
    if spec.player_count != len(expected):
        return [f"{spec.player_count} players, scheduled {len(expected)} ({', '.join(expected)})"]
    if spec.mode is GameMode.ONLINE or spec.dealt_by_server:
        # online, or a table game the server deals: the seating's members in its order, the
        # rotation's Sheriff named (the deal then seats them)
        given = tuple(m.member_id for m in spec.members)
        problems = []
        if given != expected:
            problems.append(
                f"members are {', '.join(given) or 'none'}, scheduled {', '.join(expected)} in that order"
            )
        if spec.sheriff_member != reservation.sheriff:
            problems.append(
                f"the Sheriff is {spec.sheriff_member!r}, the rotation's is {reservation.sheriff!r}"
            )
        return problems
    seats = spec.seats or ()
    given_members = [s.member_id for s in seats]
    problems = []
    if sorted(given_members) != sorted(expected):
        extra = sorted(set(given_members) - set(expected))
        missing = sorted(set(expected) - set(given_members))
        words = []
        if extra:
            words.append(f"not seated at this table: {', '.join(extra)}")
        if missing:
            words.append(f"missing: {', '.join(missing)}")
        if len(set(given_members)) != len(given_members):
            words.append("a member holds two seats")
        problems.append("the seats' members differ from the schedule (" + "; ".join(words) + ")")
    sheriffs = [s.member_id for s in seats if s.role == SHERIFF_CARD]
    if reservation.sheriff is not None and sheriffs != [reservation.sheriff]:
        problems.append(
            f"the Sheriff's card is held by {', '.join(sheriffs) or 'nobody'}, the rotation's Sheriff is "
            f"{reservation.sheriff!r}"
        )
    return problems
