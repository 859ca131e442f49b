"""Audit a UA5 legacy series as a whole: each game's own audit, then every link between games.

For game ``n`` ≥ 2 the series' record must follow from game ``n - 1``'s result, the decisions
and draws recorded before game ``n``, and (online) the series seed: the link names the game
before; game ``n``'s context names the series and that game; the players keep their seats; every
recorded entry is one the legacy plan asked (a draw made by the server must be the one
``legacy-1`` derives from the revealed seed); and game ``n`` started with the seats the plan gives
(Sheriff, characters, the legacy bonus; the other roles once the game is over, re-derived from
the seed online, checked as a deal of the role table at a table). The first problem is named in
plain words; roles are named only for games that are over.
"""

from __future__ import annotations

import hashlib

import msgspec

from event_store import PostgresEventStore
from services.game.application.lifecycle import GameMode
from services.game.application.series import SEED_DRAW, SeriesService, SeriesState
from services.game.application.session import GameSession, GameStatus
from services.game.audit.checks import AuditReport, audit_game
from services.game.audit.words import character_name, role_words
from services.game.fairness.registry import LegacyDrawFunction, legacy_derivation
from services.game.rules.dice import events as ev
from services.game.rules.dice.modules import rules_of
from services.game.rules.dice.undead.legacy import (
    Ask,
    FinishedGame,
    LegacyEntry,
    LegacyError,
    LegacyPlan,
    RolesDrawn,
    entry_text,
)
from services.game.rules.dice.vocabulary import Role


class SeriesAudit(msgspec.Struct, frozen=True, kw_only=True):
    series_id: str
    clean: bool
    verdict: str
    first_divergence: str | None
    games: list[AuditReport]
    links_checked: int
    draws_rederived: int
    """Draws between games re-derived from the revealed series seed (0 while it is secret)."""


async def audit_series(store: PostgresEventStore, series: SeriesService, series_id: str) -> SeriesAudit:
    state = await series.load(series_id)
    reports = [await audit_game(store, link.game_id) for link in state.games]
    problem = next(
        (
            f"game {link.number} ({link.game_id}): {r.first_divergence}"
            for link, r in zip(state.games, reports, strict=True)
            if not r.clean
        ),
        None,
    )
    seed: bytes | None = None
    if problem is None and state.closed is not None and state.closed.seed is not None:
        seed = bytes.fromhex(state.closed.seed)
        if hashlib.sha256(seed).hexdigest() != state.opened.seed_commitment:
            problem = (
                "the revealed series seed does not match the commitment published when the series opened"
            )
    links = draws = 0
    if problem is None:
        for link in state.games[1:]:
            previous = state.games[link.number - 2]
            found, counted = await _link_problem(series, state, link.number, previous.game_id, seed)
            links += 1
            draws += counted
            if found is not None:
                problem = f"before game {link.number} ({link.game_id}): {found}"
                break
    clean = problem is None
    verdict = (
        f"clean: {len(reports)} games audited, {links} links follow from the results, decisions and seed"
        if clean
        else f"not clean: {problem}"
    )
    return SeriesAudit(
        series_id=series_id,
        clean=clean,
        verdict=verdict,
        first_divergence=problem,
        games=reports,
        links_checked=links,
        draws_rederived=draws,
    )


async def _link_problem(
    series: SeriesService, state: SeriesState, number: int, previous_id: str, seed: bytes | None
) -> tuple[str | None, int]:
    link = state.games[number - 1]
    if link.previous_game_id != previous_id:
        return f"the series links game {link.previous_game_id} as the one before, not {previous_id}", 0
    before = await series.games.load(previous_id)
    game = await series.games.load(link.game_id)
    context = game.created.context
    if context.series_id != state.series_id or context.previous_game_id != previous_id:
        return (
            f"game {link.game_id} names series {context.series_id} and previous game "
            f"{context.previous_game_id}, not {state.series_id} and {previous_id}"
        ), 0
    if before.status is not GameStatus.ENDED or before.game is None:
        return f"game {previous_id} is not over, yet the next game was created", 0
    if game.seat_members != before.seat_members:
        return "the players did not keep their seats", 0
    online = state.opened.mode is GameMode.ONLINE
    plan = LegacyPlan(FinishedGame.from_events(before.game.events), rules_of(state.opened.ruleset))
    derive = legacy_derivation(state.opened.legacy or "legacy-1").draw
    counted = 0
    for recorded in state.entries.get(number, []):
        q = plan.asked
        if q is None:
            return f"{entry_text(recorded.entry)} was recorded after the setup was complete", counted
        if online and q.is_draw:
            if recorded.by != SEED_DRAW:
                return (
                    f"{entry_text(recorded.entry)} was entered by {recorded.by}, but online the seed draws",
                    counted,
                )
            if seed is not None:
                wanted = derive(seed, number, q)
                counted += 1
                if wanted != recorded.entry:
                    return (
                        f"the series seed draws {entry_text(wanted)}, but the series recorded "
                        f"{entry_text(recorded.entry)}"
                    ), counted
        elif online and recorded.by == SEED_DRAW:
            return (
                f"{entry_text(recorded.entry)} is a player's decision, yet it is recorded as drawn",
                counted,
            )
        try:
            plan = plan.enter(recorded.entry)
        except LegacyError as error:
            return f"{entry_text(recorded.entry)} was not allowed: {error}", counted
    return _seats_problem(plan, game, online, seed, number, derive), counted


def _seats_problem(
    plan: LegacyPlan,
    game: GameSession,
    online: bool,
    seed: bytes | None,
    number: int,
    derive: LegacyDrawFunction,
) -> str | None:
    q = plan.asked
    if q is None or q.ask is not Ask.ROLES_DRAW:
        return "the next game was created before every decision was recorded"
    if game.game is None:
        return "the next game has no start"
    started = game.game.events[0]
    assert isinstance(started, ev.GameStarted)
    over = game.status is GameStatus.ENDED
    by_seat = {s.player: s for s in started.seats}
    sheriff = plan.sheriff
    assert sheriff is not None
    order = [p for p in plan.from_sheriff() if p != sheriff]
    roles: LegacyEntry
    if online and seed is not None:
        roles = derive(seed, number, q)
    else:  # at a table the roles are the game's, checked as a deal of the table less the Sheriff
        roles = RolesDrawn(player=sheriff, roles=tuple(by_seat[p].role for p in order))
    try:
        plan = plan.enter(roles)
    except LegacyError as error:
        words = "the roles of the next game are not a deal of the role table"
        return f"{words}: {error}" if over else words
    setup = plan.setup
    assert setup is not None
    for wanted in setup.seats:
        got = by_seat.get(wanted.player)
        if got is None:
            return f"seat {wanted.player} is missing from the next game"
        if (got.role is Role.SHERIFF) != (wanted.role is Role.SHERIFF):
            who = "is" if got.role is Role.SHERIFF else "is not"
            return f"{wanted.player} {who} the Sheriff, but the legacy makes {setup.sheriff} the Sheriff"
        if got.character != wanted.character:
            return (
                f"{wanted.player} plays {character_name(got.character)}, but the legacy gives "
                f"{character_name(wanted.character)}"
            )
        if got.legacy_bonus != wanted.legacy_bonus:
            return (
                f"{wanted.player} starts with a legacy bonus of {got.legacy_bonus}, not {wanted.legacy_bonus}"
            )
        if over and got.role is not wanted.role:
            return f"{wanted.player} was {role_words(got.role)}, but the seed deals {role_words(wanted.role)}"
    return None
