"""One error tree, one mapping: every refusal becomes an RFC 9457 problem-details response.

The services raise their own errors (``services.game.application.errors``, the engine's ``RuleError``,
``services.game.records.RecordError``, the edge's ``AccessDenied``); litestar raises its own for
malformed requests. ``PROBLEMS`` says, per class (the most specific class in an exception's MRO
wins), which status and problem type it is; ``problem_response`` renders it.

What a problem's ``detail`` may say: the services' messages are written for the player or the
referee and never carry a hidden role or the dice seed (roles are not in any refusal's text;
the seed never leaves the seed vault before the game ends). An unexpected error's text is never
shown: it may say anything, so it is logged and answered with a bare 500.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import asyncpg
import redis.asyncio as aioredis
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR

from event_store import ConcurrencyError, DuplicateEventConflict, StoreUnavailable
from services.accounts.errors import (
    AccountError,
    ApiTokenNotFound,
    InvalidAccountInput,
    InviteClaimsAccount,
    InviteExpired,
    InviteNotFound,
    InviteUsed,
    LoginNameTaken,
    LoginRefused,
    LoginThrottled,
    PasswordChecksBusy,
    SessionRefused,
    SessionRequired,
    WrongPassword,
)
from services.accounts.redaction import redact_invite_paths
from services.api.decoding import EMPTY
from services.clubs.errors import (
    AccountNotFound,
    ClubError,
    ClubInputOutOfBounds,
    ClubNotFound,
    GrantNotHeld,
    InvalidClubInput,
    LastAdmin,
    LoginExists,
    NotAMember,
    RoleNotHeld,
    RoleRequired,
    ScorekeeperSeated,
)
from services.directory.errors import DirectoryError, MemberNotFound, TournamentNotFound
from services.game.application.corrections import TakeBackRefused
from services.game.application.errors import (
    AlreadyJoined,
    CommandIdReused,
    GameFinished,
    GameIdTaken,
    GameNotFound,
    GameNotStarted,
    GameServiceError,
    InvalidGameSpec,
    InvalidPosition,
    InvalidRuleset,
    NotAllowed,
    ReservedCommandId,
    StaleVersion,
)
from services.game.edge.bounds import InvalidArgument, explain
from services.game.edge.chain import ChainNotPublished
from services.game.edge.gateway import (
    AuthenticationRequired,
    ExportRefused,
    Forbidden,
    ImportsBusy,
    NotYourself,
    VersionOutOfRange,
)
from services.game.records import IllegalInput, MalformedRecord, RecordError
from services.game.records.errors import RecordOverBound, RecordTooLarge, RecordTooLong
from services.game.rules import cards as card_rules
from services.game.rules.dice import (
    GameOver,
    IllegalCommand,
    InvalidSetup,
    MalformedCommand,
    NotAwaited,
    RuleError,
)
from services.league.errors import (
    AlreadyExists,
    GameNotScheduled,
    InvalidCommand,
    InvalidTransition,
    LeagueError,
    LeagueNotFound,
    PlayerSeatedTwice,
    RoundAlreadySeated,
    RoundClosedAlready,
    ScheduleMismatch,
    SeasonAlreadyClosed,
    UnknownEntity,
    UnknownPlayer,
)
from services.runtime.idempotency import CommandIdReused as SpentCommandId

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
PROBLEM_BASE = "https://bang-league.dev/problems/"
RETRY_AFTER_SECONDS = 2
"""Every 503's ``Retry-After``: about as long as a request waits for a dependency
(``TimeoutSettings``)."""


@dataclass(frozen=True, slots=True)
class Problem:
    status: int
    slug: str
    title: str
    field: str | None = None
    """The request field at fault, when it is one field."""
    detail: str | None = None
    """Said instead of the error's own text, which is a library's and may say anything."""


PROBLEMS: dict[type[BaseException], Problem] = {
    InvalidArgument: Problem(400, "invalid-request", "The request does not fit the schema"),
    AuthenticationRequired: Problem(401, "unauthenticated", "A valid bearer token is required"),
    NotYourself: Problem(403, "not-yourself", "You join a game only as yourself", "member_id"),
    Forbidden: Problem(403, "forbidden", "This token may not do that"),
    NotAllowed: Problem(403, "forbidden", "Not allowed"),
    GameNotFound: Problem(404, "game-not-found", "No such game"),
    GameFinished: Problem(409, "game-finished", "The game is over"),
    GameOver: Problem(409, "game-finished", "The game is over"),
    GameNotStarted: Problem(409, "game-not-started", "The game has not started"),
    AlreadyJoined: Problem(409, "already-joined", "This join was applied already"),
    NotAwaited: Problem(409, "not-awaited", "Not your decision now", "command"),
    StaleVersion: Problem(409, "stale-version", "The game has moved on", "expected_version"),
    ConcurrencyError: Problem(
        409, "conflict", "Too many concurrent commands; retry with the same command_id"
    ),
    DuplicateEventConflict: Problem(
        409, "command-id-reused", "This command id was used for another command; use a new one"
    ),
    CommandIdReused: Problem(
        409, "command-id-reused", "This command id was used for another command; use a new one", "command_id"
    ),
    SpentCommandId: Problem(
        409, "command-id-reused", "This command id was used for another command; use a new one", "command_id"
    ),
    GameIdTaken: Problem(409, "game-id-taken", "A game with this id exists; choose another", "game_id"),
    ReservedCommandId: Problem(
        422, "command-id-reserved", "This command id is the server's own", "command_id"
    ),
    ExportRefused: Problem(409, "export-refused", "The record would show hidden information"),
    ImportsBusy: Problem(503, "imports-busy", "Other imports are being entered on this server"),
    ChainNotPublished: Problem(409, "game-not-finished", "The chain is published once the game has ended"),
    IllegalCommand: Problem(422, "illegal-command", "The rules forbid this command", "command"),
    TakeBackRefused: Problem(422, "illegal-command", "The rules forbid this command", "command"),
    MalformedCommand: Problem(422, "malformed-command", "The command cannot be read", "command"),
    InvalidSetup: Problem(422, "invalid-setup", "The rules do not allow this setup"),
    RuleError: Problem(422, "rule-error", "The rules refuse this"),
    # the card game's refusals: the same tree, the same answers
    card_rules.GameOver: Problem(409, "game-finished", "The game is over"),
    card_rules.NotAwaited: Problem(409, "not-awaited", "Not your decision now", "command"),
    card_rules.IllegalCommand: Problem(422, "illegal-command", "The rules forbid this command", "command"),
    card_rules.MalformedCommand: Problem(422, "malformed-command", "The command cannot be read", "command"),
    card_rules.InvalidSetup: Problem(422, "invalid-setup", "The rules do not allow this setup"),
    card_rules.RuleError: Problem(422, "rule-error", "The rules refuse this"),
    InvalidRuleset: Problem(422, "invalid-ruleset", "The rules do not allow this ruleset", "ruleset"),
    InvalidPosition: Problem(422, "invalid-position", "The rules do not allow this position", "position"),
    InvalidGameSpec: Problem(422, "invalid-game", "The game cannot be created or joined like this"),
    VersionOutOfRange: Problem(422, "version-out-of-range", "No such version"),
    IllegalInput: Problem(422, "illegal-input", "A record input the rules refuse", "record"),
    MalformedRecord: Problem(422, "malformed-record", "The record cannot be read", "record"),
    RecordTooLarge: Problem(413, "record-too-large", "The record is larger than an import takes", "record"),
    RecordTooLong: Problem(422, "record-too-long", "The record is longer than an import takes", "record"),
    RecordError: Problem(422, "bad-record", "The record is refused", "record"),
    GameServiceError: Problem(422, "refused", "Refused"),
    InvalidAccountInput: Problem(422, "invalid-account-input", "A name or password breaks its rule"),
    LoginNameTaken: Problem(409, "login-taken", "The login name is taken", "login"),
    InviteNotFound: Problem(404, "invite-not-found", "No such invite"),
    InviteUsed: Problem(409, "invite-used", "The invite was used already"),
    InviteExpired: Problem(410, "invite-expired", "The invite has expired"),
    LoginRefused: Problem(401, "login-refused", "Wrong login name or password"),
    WrongPassword: Problem(403, "wrong-password", "The old password is wrong", "old_password"),
    SessionRefused: Problem(401, "unauthenticated", "A valid session token is required"),
    LoginThrottled: Problem(429, "rate-limited", "Too many failed logins; retry after Retry-After seconds"),
    PasswordChecksBusy: Problem(503, "password-checks-busy", "Too many passwords are being checked at once"),
    AccountError: Problem(422, "refused", "Refused"),
    ClubInputOutOfBounds: Problem(400, "invalid-request", "The request does not fit the schema"),
    ScorekeeperSeated: Problem(422, "scorekeeper-seated", "A table's scorekeeper cannot sit at it"),
    InvalidClubInput: Problem(422, "invalid-club-input", "A club's value breaks its rule"),
    ClubNotFound: Problem(404, "club-not-found", "No such club", "club_id"),
    AccountNotFound: Problem(404, "account-not-found", "No such account", "account_id"),
    RoleRequired: Problem(403, "role-required", "You do not hold the role this needs in this club"),
    RoleNotHeld: Problem(404, "role-not-held", "The account does not hold this role here", "role"),
    LastAdmin: Problem(409, "last-admin", "A club keeps at least one admin", "role"),
    LoginExists: Problem(409, "login-exists", "The member has a login already", "member_id"),
    NotAMember: Problem(404, "not-a-member", "No such member in this club", "member_id"),
    ClubError: Problem(422, "refused", "Refused"),
    # accounts and clubs (issue 11): members registered by name, invites, API tokens
    InviteClaimsAccount: Problem(
        409, "invite-claims-account", "The invite is for a member registered by name"
    ),
    SessionRequired: Problem(403, "session-required", "An API token cannot do this; use a session"),
    ApiTokenNotFound: Problem(404, "token-not-found", "No such API token of yours", "token_id"),
    GrantNotHeld: Problem(403, "grant-not-held", "A token carries only roles you hold", "grants"),
    # lists and searches (services/directory)
    LeagueNotFound: Problem(404, "league-not-found", "No such league", "league_id"),
    TournamentNotFound: Problem(404, "tournament-not-found", "No such tournament", "tournament_id"),
    MemberNotFound: Problem(404, "member-not-found", "No such member", "member_id"),
    DirectoryError: Problem(422, "refused", "Refused"),
    # league integrity: a game counts for a league only as its organiser scheduled it
    GameNotScheduled: Problem(409, "not-scheduled", "The league scheduled no such game"),
    ScheduleMismatch: Problem(409, "schedule-mismatch", "The game differs from its schedule"),
    # league management (services/league/organise.py): the league aggregate's refusals
    UnknownPlayer: Problem(404, "unknown-player", "No such member here"),
    UnknownEntity: Problem(404, "unknown-entity", "No such league, season, tournament, round, table or game"),
    AlreadyExists: Problem(409, "already-exists", "This exists already"),
    SeasonAlreadyClosed: Problem(409, "season-closed", "The season is closed"),
    RoundClosedAlready: Problem(409, "round-closed", "The round is closed"),
    RoundAlreadySeated: Problem(409, "round-seated", "The round is seated already"),
    PlayerSeatedTwice: Problem(422, "seated-twice", "A member would sit twice", "tables"),
    InvalidTransition: Problem(409, "invalid-transition", "This does not fit the league's current state"),
    InvalidCommand: Problem(422, "invalid-league-command", "The league command breaks a rule"),
    LeagueError: Problem(422, "refused", "Refused"),
    StoreUnavailable: Problem(
        503, "store-unavailable", "The event store is unavailable; retry the same command"
    ),
    # PostgreSQL or Redis stalled or gone on a request path (the limits: TimeoutSettings)
    **dict.fromkeys(
        (
            TimeoutError,
            ConnectionError,
            asyncpg.PostgresConnectionError,
            asyncpg.exceptions.OperatorInterventionError,  # statement_timeout, shutting down, …
            aioredis.ConnectionError,
            aioredis.TimeoutError,
        ),
        Problem(
            503,
            "unavailable",
            "A dependency is unavailable; retry",
            detail="the database or Redis did not answer in time; retry after Retry-After seconds",
        ),
    ),
}

_HTTP_TITLES = {
    400: ("bad-request", "The request cannot be read"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed"),
    413: ("body-too-large", "The request body is too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    429: ("rate-limited", "Too many requests; retry after the Retry-After header's seconds"),
}


def problem_for(error: BaseException) -> Problem | None:
    for cls in type(error).__mro__:
        problem = PROBLEMS.get(cls)
        if problem is not None:
            return problem
    return None


def problem_body(
    status: int, slug: str, title: str, detail: str, instance: str, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + slug,
        "title": title,
        "status": status,
        "detail": detail,
        "instance": instance,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem_response(request: Request[Any, Any, Any], error: Exception) -> Response[dict[str, Any]]:
    """The one exception handler: domain errors by ``PROBLEMS``, litestar's by status."""
    instance = request.url.path
    headers: dict[str, str] = {}
    problem = problem_for(error)
    if problem is not None:
        extra: dict[str, Any] = {"field": problem.field}
        if isinstance(error, StaleVersion):
            extra.update(expected_version=error.expected, current_version=error.actual)
        if isinstance(error, IllegalInput):
            extra.update(input=error.index)
        if isinstance(error, RecordOverBound):
            extra.update(bound=error.what, limit=error.bound, value=error.value)
        if isinstance(error, InvalidArgument):
            extra.update(field=error.argument)
        if isinstance(error, (InvalidAccountInput, InvalidClubInput, ClubInputOutOfBounds)):
            extra.update(field=error.field, rule=error.rule)
        if isinstance(error, (LoginThrottled, PasswordChecksBusy)):
            headers["Retry-After"] = str(error.retry_after)
        if problem.status == 401:
            headers["WWW-Authenticate"] = 'Bearer realm="bang-league"'
        if problem.status == 503:
            headers.setdefault("Retry-After", str(RETRY_AFTER_SECONDS))
        detail = problem.detail or str(error)
        body = problem_body(problem.status, problem.slug, problem.title, detail, instance, **extra)
    elif isinstance(error, ValidationException):
        body = _validation_problem(error, instance)
    elif isinstance(error, HTTPException) and error.status_code < HTTP_500_INTERNAL_SERVER_ERROR:
        slug, title = _HTTP_TITLES.get(error.status_code, ("client-error", "Client error"))
        body = problem_body(error.status_code, slug, title, str(error.detail), instance)
        headers.update(error.headers or {})
    else:
        log.exception(
            "unexpected error answering %s %s", request.method, redact_invite_paths(instance), exc_info=error
        )
        body = problem_body(
            500,
            "internal",
            "Internal server error",
            "the server failed; nothing is hidden in this message",
            instance,
        )
    if body["status"] < HTTP_500_INTERNAL_SERVER_ERROR:
        log_refusal(request.method, instance, body["status"], body["type"])
    return Response(body, status_code=body["status"], media_type=PROBLEM_JSON, headers=headers)


def log_refusal(method: str, path: str, status: int, problem_type: str) -> None:
    """A refusal is the client's mistake, not the server's: said at INFO, without a traceback and
    without its detail (which may repeat what the client sent, a password or a token included)."""
    slug = problem_type.removeprefix(PROBLEM_BASE)
    log.info("refused %s %s: %s %s", method, redact_invite_paths(path), status, slug)


def _validation_problem(error: ValidationException, instance: str) -> dict[str, Any]:
    """litestar's 400 for a body or parameter that does not fit its schema: name the field."""
    fields: list[dict[str, Any]] = []
    if isinstance(error.extra, list):
        fields = [e for e in error.extra if isinstance(e, dict)]
    elif isinstance(error.extra, dict):
        fields = [error.extra]
    if any(_no_body(f) for f in fields):
        return problem_body(400, "bad-request", "The request cannot be read", EMPTY, instance)
    # a bound's pattern said in words (services/game/edge/bounds.py), not as a regular expression
    fields = [{**f, "message": explain(str(f["message"]))} if f.get("message") else f for f in fields]
    detail = "; ".join(_field_message(f) for f in fields if f.get("message")) or str(error.detail)
    first_key = next((f.get("key") for f in fields if f.get("key")), None)
    return problem_body(
        400, "invalid-request", "The request does not fit the schema", detail, instance,
        field=first_key, errors=fields or None,
    )  # fmt: skip


def _no_body(error: dict[str, Any]) -> bool:
    """litestar's word for a required body that is absent (an empty body gives the handler no
    ``data`` at all, and its signature's ``KeyError`` is all it says: ``'data'``)."""
    return error.get("key") == "data" and error.get("source") == "body" and error.get("message") == "'data'"


def _field_message(error: dict[str, Any]) -> str:
    key, message = error.get("key"), str(error["message"])
    return f"{key}: {message}" if key and str(key) not in message else message


EXCEPTION_HANDLERS: dict[type[Exception] | int, Any] = {Exception: problem_response}
"""One handler for everything: the mapping above is the only place statuses are chosen."""
