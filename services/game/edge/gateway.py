"""The game service as the outside world reaches it: callers, tokens, redaction, live updates.

Every edge of the API (REST controllers in ``services/game/edge/http.py``, GraphQL resolvers in
``services/game/edge/graphql_types.py``) makes exactly one call here, so who may act and what a
caller sees is decided once:

- **who acts**: a ``Principal`` from a bearer token (``services/game/edge/tokens.py``: a game's
  player token, an operator's organiser token, or an account's session or API token) becomes the
  service's ``Actor``: online, a seated player for their seat; at a table, whoever keeps its score
  (a league game: the club's current scorekeeper grant for it, never its creator as such; a
  friendly game: its creator). The service itself checks seats and turns;
- **what may be created**: a game claiming a league, or using an id a league reserved, is
  checked against the league's schedule (``LeagueSchedule``, wired from above: the league
  sits above the game service and is never imported here);
- **what is seen**: every state and event leaving here went through
  ``services.game.edge.visibility.redact_state`` / ``redact_event`` for the caller's ``Viewer``;
- **who hears of it**: each successful append is announced on the Redis fan-out, so watchers
  on every API process read the new events from the store.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from itertools import islice
from typing import Any, Protocol

import msgspec

from event_store import PostgresEventStore, RecordedEvent, StoreUnavailable
from services.accounts.errors import SessionRefused
from services.clubs.errors import ScorekeeperSeated
from services.clubs.roles import Grant, Role
from services.clubs.roles import Principal as AccountPrincipal
from services.game.application.codec import GAME_MAPPER, game_stream, is_valid_game_id
from services.game.application.corrections import take_back_offer
from services.game.application.errors import (
    GameNotFound,
    GameServiceError,
    NotAllowed,
    StaleVersion,
    VersionOutOfRange,
)
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import (
    Actor,
    ActorKind,
    GameService,
    Member,
    NewGame,
    PlayOutcome,
    TableSeat,
    check_new_ruleset,
    derived_game_id,
)
from services.game.application.session import GameSession, GameStatus
from services.game.audit import AuditCache, AuditReport
from services.game.edge.cost import (
    FREE,
    IMPORT_CHUNK_INPUTS,
    IMPORT_WAIT_SECONDS,
    IMPORTS_AT_ONCE,
    REQUESTS_PER_INPUT,
    Charge,
    fold_requests,
    import_requests,
)
from services.game.edge.fanout import GameFanout
from services.game.edge.tokens import Principal, TokenKind, TokenVault, viewer_for
from services.game.edge.visibility import Viewer, own_visible, redact_event, redact_state
from services.game.engines import RULE_ERRORS, stored_type
from services.game.records import (
    DiceSource,
    MalformedRecord,
    RecordMeta,
    RecordOptions,
    record_to_object,
)
from services.game.records.cards.model import CardOptions, CardRecord, DeckSource
from services.game.records.cards.writer import card_record_from_events, card_record_to_object
from services.game.records.dispatch import AnyRecord, replay_any_record
from services.game.records.limits import check_events, check_inputs
from services.game.records.writer import record_from_events
from services.game.rules.cards import commands as card_cmd
from services.game.rules.cards.vocabulary import TABLE as CARD_TABLE
from services.game.rules.dice import Decision, GameCommand
from services.game.rules.ruleset import GameType
from services.runtime.logging import bind_game
from services.runtime.metrics import count_command

EVENTS_PAGE_LIMIT = 1_000
"""The most events one read returns; a client pages on with ``from_version``."""


class AccessDenied(GameServiceError):
    """Base of the edge's own refusals about who is calling."""


class AuthenticationRequired(AccessDenied):
    """No token, or one the vault does not know (or has revoked)."""


class Forbidden(AccessDenied, NotAllowed):
    """A valid token, but not one that may do this."""


class NotYourself(Forbidden):
    """A join naming another member than the caller: everybody joins only as themselves."""


class Accounts(Protocol):
    """Resolves an account's session or API token (``services.clubs.service.ClubService``)."""

    async def principal(self, authorization: str | None) -> AccountPrincipal: ...


class LeagueSchedule(Protocol):
    """The league's schedule, as the game server must respect it
    (``services.league.schedule_guard.ScheduleGuard``)."""

    async def check_new_game(self, game_id: str, spec: NewGame, account: AccountPrincipal | None) -> None:
        """Raise unless a game ``game_id`` like ``spec`` may be created by ``account`` (None: an
        operator's organiser token): a league game only as its league scheduled it, a reserved
        id only for its table."""

    async def club_of(self, game_id: str) -> str | None:
        """The club whose league scheduled ``game_id``; None for a friendly game."""


class ExportRefused(GameServiceError):
    """A record would show what the caller may not see (an ongoing game's hidden roles)."""


class ImportsBusy(GameServiceError):
    """Other imports kept this process's import turn for ``IMPORT_WAIT_SECONDS``: refused, nothing
    stored (503, ``Retry-After``), rather than letting imports crowd out every other request."""

    def __init__(self, waited: float) -> None:
        super().__init__(
            f"other imports are being entered on this server; this one waited {waited:g} s for its "
            "turn and nothing was stored: send it again (same command id) after Retry-After seconds"
        )


class Joined(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    member_id: str
    token: str
    """A player token for this game and member; shown once, kept hashed (the account itself may
    act as well: the token is for a client that should not hold the session)."""
    state: dict[str, Any]


class Created(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    state: dict[str, Any]


class Played(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    duplicate: bool
    """True when this command id was played before: the answer is the first one's."""
    events: list[dict[str, Any]]
    state: dict[str, Any]


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    inputs: int
    state: dict[str, Any]


class Revoked(msgspec.Struct, frozen=True, kw_only=True):
    revoked: int
    """How many tokens this revoked (those revoked before are not counted)."""


class GameGateway:
    def __init__(
        self,
        service: GameService,
        tokens: TokenVault,
        fanout: GameFanout,
        store: PostgresEventStore,
        *,
        accounts: Accounts | None = None,
        schedule: LeagueSchedule | None = None,
    ) -> None:
        self.service = service
        self.tokens = tokens
        self.fanout = fanout
        self.store = store
        self.audits = AuditCache(store)
        self.accounts = accounts
        """Set once the clubs' service is open (the API's lifespans); None: vault tokens only."""
        self.schedule = schedule
        """None: no league to check against, so no game may claim one."""
        self.import_wait_seconds = IMPORT_WAIT_SECONDS
        self._imports = asyncio.Semaphore(IMPORTS_AT_ONCE)
        """Imports replaying and entering their inputs now (``services/game/edge/cost.py``)."""

    # -- callers ---------------------------------------------------------------------------

    async def authenticate(self, authorization: str | None) -> Principal | None:
        """The caller behind an ``Authorization: Bearer …`` header; None for an anonymous one."""
        if authorization is None or not authorization.strip():
            return None
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise AuthenticationRequired("the Authorization header must be 'Bearer <token>'")
        principal = await self.tokens.resolve(token.strip())
        if principal is not None:
            return principal
        if self.accounts is None:
            raise AuthenticationRequired("unknown or revoked token")
        try:
            account = await self.accounts.principal(authorization)
        except SessionRefused as refused:
            raise AuthenticationRequired(str(refused)) from None
        return Principal.of_account(account)

    @staticmethod
    def creator(principal: Principal | None) -> Actor:
        """The Actor creating a game: an organiser token, or an account (recorded as the game's
        ``created_by``, so it keeps the score of a table game it creates)."""
        if principal is None:
            raise AuthenticationRequired("sign in (or use an organiser token) to create a game")
        if principal.kind is TokenKind.PLAYER:
            raise Forbidden("a player token acts in its one game; it creates none")
        return Actor(kind=ActorKind.ORGANISER, id=principal.subject)

    async def actor_in(self, principal: Principal | None, game_id: str) -> Actor:
        """Who ``principal`` acts as in ``game_id``: a player token in its game, an account for
        its own seat online, whoever keeps a table game's score (``_keeps_score``) at a table."""
        if principal is None:
            raise AuthenticationRequired("sign in, or use your player token, to play")
        if principal.kind is TokenKind.PLAYER:
            actor = principal.actor_for(game_id)
            if actor is None:
                raise Forbidden(f"this player token is for another game, not {game_id}")
            return actor
        # a game's mode and creator never change: a session this process folded earlier will do
        session = self.service.cached(game_id) or await self.service.load(game_id)
        if session.mode is GameMode.TABLE:
            if await self._keeps_score(principal, session):
                return Actor(kind=ActorKind.ORGANISER, id=principal.subject)
            if (
                principal.kind is TokenKind.ACCOUNT
                and session.created.ruleset.game_type is GameType.CARDS
                and session.seat_of(principal.subject) is not None
            ):
                # a seated player's own browser at a card table: the service checks each entry
                # concerns him alone (``_authorize_at_the_table``)
                return Actor(kind=ActorKind.PLAYER, id=principal.subject)
            raise Forbidden(
                f"game {game_id} is a table game: only its scorekeeper enters its moves (at a friendly "
                "table whoever created it, signed in; at a league table whoever holds the club's "
                "scorekeeper role for this game now and plays no seat there)"
            )
        if principal.kind is TokenKind.ACCOUNT:
            return Actor(kind=ActorKind.PLAYER, id=principal.subject)  # the service checks the seat
        raise Forbidden(f"game {game_id} is played online: only its seated players make its decisions")

    async def _keeps_score(self, principal: Principal | None, session: GameSession) -> bool:
        """Whether ``principal`` keeps this table game's score: enters its moves, takes them back
        and sees every role and hand (docs/permissions.md, "Game routes").

        - A **league** game (its id reserved by a league's schedule): an account holding, as of
          this request, ``scorekeeper`` for this very game in the league's club (an API token:
          among the grants it carries), and not seated at it. Having created the game gives
          nothing: a revoked scorekeeper, or the creator's token without that grant, is refused.
        - A **friendly** game (no league's): whoever created it, by the very organiser token, or
          by the account's session. An API token speaks for its account only through its club
          grants and its own seats, and a friendly game is no club's, so it keeps none."""
        if principal is None or principal.kind is TokenKind.PLAYER or session.mode is not GameMode.TABLE:
            return False
        game_id, account = session.game_id, principal.account
        created = session.created.created_by == principal.subject
        scoped = account is not None and any(
            g.role is Role.SCOREKEEPER and g.game_id == game_id for g in _grants(account)
        )
        if not created and not scoped:
            return False  # most callers: no database read
        club = None if self.schedule is None else await self.schedule.club_of(game_id)
        if club is None:
            by_session = account is not None and not account.api_token
            return created and (principal.kind is TokenKind.ORGANISER or by_session)
        if account is None or session.seat_of(account.account_id) is not None:
            return False  # a league game's score is kept by a club's grant, never from a seat
        # only a grant for this very game in the league's club: a club-wide scorekeeper role
        # assigns no table, a grant in another club counts for nothing here
        return any(g.role is Role.SCOREKEEPER and g.game_id == game_id for g in account.roles.get(club, ()))

    async def viewer(self, principal: Principal | None, session: GameSession) -> Viewer:
        return viewer_for(principal, session, keeps_score=await self._keeps_score(principal, session))

    async def _check_schedule(
        self, principal: Principal, actor: Actor, spec: NewGame, command_id: str
    ) -> None:
        """The league's integrity rule, before anything is stored (the id the service will use:
        the given one, else the one it derives from the command id)."""
        if self.schedule is None:
            if spec.context.league_id is not None:
                raise Forbidden(
                    "this process checks no league schedule: league games are created through the API"
                )
            return
        game_id = spec.game_id or derived_game_id(actor, command_id)
        await self.schedule.check_new_game(game_id, spec, principal.account)

    # -- revoking tokens (policy in docs/api.md) ---------------------------------------------

    async def revoke_own(self, authorization: str | None) -> Revoked:
        """The caller's own game or organiser token: whoever holds a token may end it."""
        principal = await self.authenticate(authorization)
        if principal is None:
            raise AuthenticationRequired("the token to revoke is the one in the Authorization header")
        if principal.kind is TokenKind.ACCOUNT:
            raise Forbidden(
                "this is an account's token: a session ends at DELETE /sessions/current, an API token "
                "at DELETE /me/tokens/{token_id}"
            )
        _, _, token = (authorization or "").strip().partition(" ")
        return Revoked(revoked=int(await self.tokens.revoke(token.strip())))

    async def revoke_players(
        self, principal: Principal | None, game_id: str, member_id: str | None
    ) -> Revoked:
        """A game's player tokens (one member's, or all): a league game's by an organiser or
        admin of the league's club as of this request (its creator only while it is one), a
        friendly game's by whoever created it (its session or the very organiser token)."""
        actor = self.creator(principal)
        assert principal is not None
        session = await self.service.load(game_id)
        club = None if self.schedule is None else await self.schedule.club_of(game_id)
        account = principal.account
        if club is not None:
            if account is None or not any(account.holds(club, r) for r in (Role.ORGANISER, Role.ADMIN)):
                raise Forbidden(
                    f"game {game_id} is a league game: only an organiser or admin of its club may "
                    "revoke its player tokens"
                )
        elif session.created.created_by != actor.id or (account is not None and account.api_token):
            raise Forbidden(f"only whoever created game {game_id} (signed in) may revoke its player tokens")
        return Revoked(revoked=await self.tokens.revoke_players(game_id, member_id))

    # -- changing games ----------------------------------------------------------------------

    async def create_game(self, principal: Principal | None, spec: NewGame, command_id: str) -> Created:
        """A game, as the caller may see it. Never with other players' tokens: each player acts
        with their own account (or the token their own join returned)."""
        actor = self.creator(principal)
        assert principal is not None
        await self._check_schedule(principal, actor, spec, command_id)
        _refuse_a_seated_creator(principal, spec)
        session = await self.service.create_game(spec, command_id=command_id, actor=actor)
        self.fanout.announce(session.game_id, session.version)
        viewer = await self.viewer(principal, session)
        return Created(game_id=session.game_id, version=session.version, state=redact_state(session, viewer))

    async def join(
        self, principal: Principal | None, game_id: str, member_id: str | None, command_id: str
    ) -> Joined:
        """The caller takes a seat of an online lobby, as themselves and under their display name."""
        if principal is None:
            raise AuthenticationRequired("sign in to join a game: everybody joins as themselves")
        if principal.kind is not TokenKind.ACCOUNT or principal.account is None:
            raise Forbidden("a game is joined by a signed-in account, as itself; a game's token joins none")
        if member_id is not None and member_id != principal.subject:
            raise NotYourself(
                f"you are member {principal.subject}: you join only as yourself, not as {member_id}"
            )
        member = Member(member_id=principal.subject, name=principal.account.display_name)
        # The service refuses a replayed command id (AlreadyJoined / NotAllowed), so a token is
        # only ever issued for a join applied by this very request.
        session = await self.service.join(game_id, member, command_id=command_id)
        self.fanout.announce(game_id, session.version)
        token = await self.tokens.issue_player(game_id, member.member_id)
        viewer = Viewer(member_id=member.member_id)
        return Joined(
            game_id=game_id, member_id=member.member_id, token=token, state=redact_state(session, viewer)
        )

    async def replace_seat(
        self,
        principal: Principal,
        game_id: str,
        seat: str,
        substitute: Member | None,
        *,
        reason: str,
        command_id: str,
    ) -> PlayOutcome:
        """Give a seat to ``substitute`` (None: a bot), as ``principal``, whose right to (its
        current role in the game's club) the caller checked (``LeagueOrganiser.replace_seat``)."""
        actor = Actor(kind=ActorKind.ORGANISER, id=principal.subject)
        outcome = await self.service.replace_seat(
            game_id, seat, substitute, actor=actor, command_id=command_id, reason=reason
        )
        if not outcome.duplicate:
            self.fanout.announce(game_id, outcome.version)
        return outcome

    async def game_type(self, game_id: str) -> GameType:
        """The game's type, which says how its commands read (``GameNotFound`` for no game)."""
        return (await self.service.load(game_id)).created.ruleset.game_type

    async def play(
        self,
        principal: Principal | None,
        game_id: str,
        command: GameCommand,
        command_id: str,
        expected_version: int | None,
    ) -> Played:
        actor = await self.actor_in(principal, game_id)
        kind = type(command).__name__
        with bind_game(game_id, command_id):
            try:
                outcome = await self.service.play(
                    game_id, command, actor=actor, command_id=command_id, expected_version=expected_version
                )
            except (*RULE_ERRORS, GameServiceError) as refusal:
                count_command(kind, "conflict" if isinstance(refusal, StaleVersion) else "rejected")
                raise
            except Exception:
                count_command(kind, "error")
                raise
        count_command(kind, "duplicate" if outcome.duplicate else "ok")
        if not outcome.duplicate:
            self.fanout.announce(game_id, outcome.version)
        # the service folded its own append into its cached session: no need to read it back
        session = self.service.cached(game_id)
        if session is None or session.version < outcome.version:
            session = await self.service.load(game_id)
        viewer = await self.viewer(principal, session)
        first = outcome.version - len(outcome.events) + 1
        return Played(
            game_id=game_id,
            version=outcome.version,
            duplicate=outcome.duplicate,
            events=[_event_view(session, viewer, first + i, e, None) for i, e in enumerate(outcome.events)],
            state=self._state_view(session, viewer),
        )

    async def import_record(
        self,
        principal: Principal | None,
        record: AnyRecord,
        members: list[Member] | None,
        command_id: str,
        game_id: str | None,
        context: GameContext | None = None,
        charge: Charge = FREE,
    ) -> Imported:
        """A whole table game (dice or cards) from its record: created and played input by
        input through the same path as a scorekeeper's live entries. The record is replayed in
        memory first, so an illegal input is refused before anything is stored. A card
        record's first shuffle (``deck``) is entered as the first input.

        Bounded (``services/game/records/limits.py``): its inputs before the replay, the events
        the replay makes after it, both before anything is stored. Its inputs are charged to the
        caller (``services/game/edge/cost.py``): the first chunk before anything is stored (or a
        429), the others as they are entered, waiting for the caller's budget. Its replay and
        entry wait for their turn (``IMPORTS_AT_ONCE`` at a time in this process; after
        ``import_wait_seconds``, ``ImportsBusy``, nothing stored)."""
        actor = self.creator(principal)
        assert principal is not None
        record_seats: tuple[Any, ...] = record.seats  # a dice or a card game's own Seat
        for i, seat in enumerate(record_seats):
            if seat.player != f"p{i + 1}":
                raise MalformedRecord(
                    f"record: `$.seats[{i}].player` is {seat.player!r}; imported games name seats "
                    f"p1…p{len(record.seats)} clockwise"
                )
        if members is not None and len(members) != len(record.seats):
            raise MalformedRecord(f"{len(members)} members given for {len(record.seats)} seats")
        inputs: tuple[Any, ...] = tuple(record.inputs)
        if isinstance(record, CardRecord) and record.deck is not None:
            inputs = (card_cmd.ShuffleDeck(player=CARD_TABLE, order=record.deck), *inputs)
        check_inputs(len(inputs))
        check_new_ruleset(record.ruleset, len(record.seats))  # before a replay by another game's rules
        chunk = IMPORT_CHUNK_INPUTS
        cost = f"this import enters {len(inputs):,} inputs, {REQUESTS_PER_INPUT} requests each"
        await charge(import_requests(min(chunk, len(inputs))), f"{cost}: its first {chunk}")
        try:  # its turn: one import's work at a time in this process, the others wait
            async with asyncio.timeout(self.import_wait_seconds):
                await self._imports.acquire()
        except TimeoutError:
            raise ImportsBusy(self.import_wait_seconds) from None
        try:
            return await self._enter_record(
                principal, actor, record, record_seats, members, inputs, command_id, game_id, context, charge
            )
        finally:
            self._imports.release()

    async def _enter_record(
        self,
        principal: Principal,
        actor: Actor,
        record: AnyRecord,
        record_seats: tuple[Any, ...],
        members: list[Member] | None,
        inputs: tuple[Any, ...],
        command_id: str,
        game_id: str | None,
        context: GameContext | None,
        charge: Charge,
    ) -> Imported:
        """``import_record``'s work, in its turn."""
        chunk = IMPORT_CHUNK_INPUTS
        cost = f"this import enters {len(inputs):,} inputs, {REQUESTS_PER_INPUT} requests each"
        # raises IllegalInput naming the first input the rules refuse; in a thread, so the ~0.1 s
        # a long record takes does not hold up every other request of this process at once
        replayed = await asyncio.to_thread(replay_any_record, record)
        check_events(len(replayed.events))
        ongoing = not replayed.is_over
        people = members or [Member(member_id=s.player, name=s.player) for s in record.seats]
        spec = NewGame(
            mode=GameMode.TABLE,
            player_count=len(record.seats),
            seats=tuple(
                TableSeat(
                    member_id=m.member_id,
                    name=m.name,
                    role=s.role,
                    character=s.character,
                    special=getattr(s, "special", None),
                )
                for m, s in zip(people, record_seats, strict=True)
            ),
            position=record.position,
            game_id=game_id or record.meta.game_id,
            ruleset=record.ruleset,
            context=context or GameContext(),
        )
        await self._check_schedule(principal, actor, spec, command_id)
        if ongoing:  # a finished game's roles are everybody's: its record may be anybody's import
            _refuse_a_seated_creator(principal, spec)
        session = await self.service.create_game(spec, command_id=command_id, actor=actor, inputs=inputs)
        version = session.version
        for n, command in enumerate(inputs):
            if n and n % chunk == 0:  # charged as it goes: waits for the budget, never stops half-way
                await charge.pace(import_requests(min(chunk, len(inputs) - n)), cost)
            outcome = await self.service.play(
                session.game_id, command, actor=actor, command_id=f"{command_id}/input/{n}"
            )
            version = outcome.version
        self.fanout.announce(session.game_id, version)
        session = await self.service.load(session.game_id)
        return Imported(
            game_id=session.game_id,
            version=session.version,
            inputs=len(inputs),
            state=redact_state(session, await self.viewer(principal, session)),
        )

    # -- reading games -------------------------------------------------------------------------

    async def state(self, principal: Principal | None, game_id: str) -> dict[str, Any]:
        session = await self.service.load(game_id)
        return self._state_view(session, await self.viewer(principal, session))

    async def state_at(
        self, principal: Principal | None, game_id: str, version: int, charge: Charge = FREE
    ) -> dict[str, Any]:
        """The game right after event ``version`` — or, when that event is inside one command's
        batch, right after the batch: a command's events land together, so no one ever saw the
        state in between (and the rules only answer "who decides now" at rest). The answer's
        ``version`` says which state it is.

        Folded from the nearest snapshot (``GameService.load_at``); the events it folds are
        charged to the caller first (``services/game/edge/cost.py``).

        Redacted as of then: what was hidden then stays hidden. Visibility only grows as a game
        goes on, so this never shows more than the viewer may see now."""

        async def before_fold(events: int) -> None:
            await charge(fold_requests(events), f"this read folds {events:,} events")

        past = await self.service.load_at(game_id, version, before_fold)
        return redact_state(past, await self.viewer(principal, past))

    async def events(
        self, principal: Principal | None, game_id: str, from_version: int = 1, limit: int = EVENTS_PAGE_LIMIT
    ) -> list[dict[str, Any]]:
        if from_version < 1:
            raise VersionOutOfRange("from_version starts at 1")
        if not 1 <= limit <= EVENTS_PAGE_LIMIT:
            raise VersionOutOfRange(f"limit is 1 to {EVENTS_PAGE_LIMIT}")
        session = await self.service.load(game_id)
        recorded = await self.store.read_stream(game_stream(game_id), from_version=from_version, limit=limit)
        viewer = await self.viewer(principal, session)
        return [_recorded_view(session, viewer, r) for r in recorded if r.version <= session.version]

    async def export_record(self, principal: Principal | None, game_id: str) -> dict[str, Any]:
        """The game's record, when the caller may see all of it (policy in docs/api.md)."""
        session = await self.service.load(game_id)
        if session.game is None:
            raise ExportRefused(f"game {game_id} has not started: there is no record yet")
        viewer = await self.viewer(principal, session)
        visible = redact_state(session, viewer)
        hidden = [p["id"] for p in visible["players"] if p["role"] is None]
        if hidden:
            raise ExportRefused(
                f"game {game_id} is {session.status.value} and {len(hidden)} role(s) are hidden from you; "
                "a record names every role, so it is exported once the game has ended"
            )
        face_down = [
            p["id"] for p in visible["players"] if p.get("rage_count") and p.get("rage_cards") is None
        ]
        face_down += [p["id"] for p in visible["players"] if p.get("hand_count") and p.get("hand") is None]
        if face_down:  # UA2, the card game: a record names every card drawn
            raise ExportRefused(
                f"game {game_id} is {session.status.value} and {len(face_down)} player(s) hold cards "
                "hidden from you; a record names every card drawn, so it is exported once the game has ended"
            )
        online = session.mode is GameMode.ONLINE
        if session.created.ruleset.game_type is GameType.CARDS:
            # roles and hands are not all: the deck's order (the cards still to come) and every
            # past hand are in the record too, and only the table sees them before the end
            if not own_visible(session, viewer, CARD_TABLE):
                raise ExportRefused(
                    f"game {game_id} is {session.status.value} and the deck's order is hidden from you; "
                    "a record names every card dealt and to come, so it is exported once the game has ended"
                )
            return _card_record(session, visible, online)
        record = record_from_events(
            session.game.events,
            options=RecordOptions(
                dice=DiceSource.SEEDED if online else DiceSource.TABLE,
                seed_commitment=visible["seed_commitment"],
                seed=visible["seed"],
                fairness=session.created.derivations,
            ),
            meta=RecordMeta(
                game_id=game_id,
                series_id=session.created.context.series_id,
                previous_game_id=session.created.context.previous_game_id,
                notes=seat_holders(session),
            ),
            ruleset=session.created.ruleset,
        )
        return record_to_object(record)

    async def audit(self, game_id: str) -> AuditReport:
        """Replay the game and compare (services/game/audit/checks.py); its words name only what any
        viewer may see, so the report is not redacted further. One replay per (game, last
        version): asked again before the game moves on, the report is answered from memory."""
        return await self.audits.audit(game_id)

    async def watch(
        self,
        principal: Principal | None,
        game_id: str,
        from_version: int | None = None,
        recheck: Callable[[], Awaitable[Principal | None]] | None = None,
    ) -> AsyncIterator[dict[str, Any]]:
        """The game's events as they are appended, redacted for the caller: from
        ``from_version`` if given (catching up first), else from the next one. Ends after the
        game is over and its last event was sent."""
        async for batch in self.watch_batches(principal, game_id, from_version, recheck):
            for event in batch:
                yield event

    async def watch_batches(
        self,
        principal: Principal | None,
        game_id: str,
        from_version: int | None = None,
        recheck: Callable[[], Awaitable[Principal | None]] | None = None,
    ) -> AsyncIterator[list[dict[str, Any]]]:
        """Like ``watch``, one list per store read: a command's events arrive together, so a
        subscriber pays one message per command instead of one per event.

        A subscriber who keeps a table game's score sees every role and hand, by a grant that
        may be revoked while he watches: before each new batch, ``recheck`` (the caller resolved
        again from its token) must still keep the score, else the subscription ends with
        ``Forbidden`` and nothing more is sent (subscribed again, he gets the view he has now)."""
        if not is_valid_game_id(game_id):
            raise GameNotFound(game_id)
        watch = self.fanout.watch(game_id)  # before reading: an append in between still rings
        try:
            recorded = await self.store.read_stream(game_stream(game_id))
            if not recorded:
                raise GameNotFound(game_id)
            session = GameSession.from_recorded(game_id, recorded)
            viewer = await self.viewer(principal, session)
            backlog = [] if from_version is None else recorded[max(from_version, 1) - 1 :]
            if backlog:
                yield [_recorded_view(session, viewer, r) for r in backlog]
            while session.status in (GameStatus.LOBBY, GameStatus.ONGOING):
                rung = await watch.wait(self.fanout.poll_interval)
                if rung and not watch.has_news(session.version):
                    continue  # an announcement of events this watcher has already read
                try:
                    fresh = await self.store.read_stream(
                        game_stream(game_id), from_version=session.version + 1
                    )
                except StoreUnavailable:
                    continue  # a database stall ends a read, not the subscription: look again later
                if not fresh:
                    continue
                for r in fresh:
                    session.apply_recorded(r)
                if viewer.scorekeeper and recheck is not None:
                    await self._still_keeps_score(await recheck(), session)
                # redacted as of the whole batch: a role revealed in it shows in all of it
                yield [_recorded_view(session, viewer, r) for r in fresh]
        finally:
            self.fanout.unwatch(watch)

    async def _still_keeps_score(self, principal: Principal | None, session: GameSession) -> None:
        if not await self._keeps_score(principal, session):
            raise Forbidden(
                f"you no longer keep the score of game {session.game_id} (your role changed): this "
                "subscription ends; subscribe again to follow it as you may see it now"
            )

    @staticmethod
    def _state_view(session: GameSession, viewer: Viewer) -> dict[str, Any]:
        state = redact_state(session, viewer)
        state["legal_commands"] = _legal_for(session, viewer)
        # what a take-back would take back now: for whoever enters a table game's moves only
        table = viewer.scorekeeper and session.mode is GameMode.TABLE
        # whether this caller enters the table's dice and decisions (its creator or scorekeeper),
        # so a page offers the forms to exactly them; the command route decides all the same
        state["may_enter"] = table
        state["take_back"] = take_back_offer(session) if table else None
        state["deadline"] = _deadline(session)
        return state


def _card_record(session: GameSession, visible: dict[str, Any], online: bool) -> dict[str, Any]:
    """A card game's record (``bang-cards-record``): the setup, every shuffle and every input."""
    assert session.game is not None
    fairness = session.created.derivations
    card_record = card_record_from_events(
        session.game.events,
        options=CardOptions(
            deck=DeckSource.SEEDED if online else DeckSource.TABLE,
            seed_commitment=visible["seed_commitment"],
            seed=visible["seed"],
            fairness=None if fairness is None else msgspec.to_builtins(fairness),
        ),
        meta=RecordMeta(game_id=session.game_id, notes=seat_holders(session)),
    )
    return card_record_to_object(card_record)


def seat_holders(session: GameSession) -> str | None:
    """Who played which seat, in words, for a game whose seats changed hands (``SeatReplaced``):
    the record's ``meta.notes`` says it. None when every seat kept its player."""
    if not session.replacements:
        return None
    seats = sorted({r.player for _, r in session.replacements}, key=lambda s: int(s[1:]))
    parts = []
    for seat in seats:
        held = session.holders(seat)
        spans = [
            f"{'a bot' if member is None else name} from turn {max(turn, 1)}" for member, name, turn in held
        ]
        parts.append(f"seat {seat}: " + ", then ".join(spans))
    return "Who played which seat: " + "; ".join(parts) + "."


def _refuse_a_seated_creator(principal: Principal, spec: NewGame) -> None:
    """A friendly table game is kept by its creator, who sees every role and hand at it: he
    cannot sit at it too (``ScorekeeperSeated``, 422). A league table's keeper is its club's
    scorekeeper grant, which the schedule checks (``LeagueSchedule.check_new_game``)."""
    if spec.mode is not GameMode.TABLE or spec.context.league_id is not None:
        return
    for n, seat in enumerate(spec.seats or (), start=1):
        if principal.kind is TokenKind.ACCOUNT and seat.member_id == principal.subject:
            raise ScorekeeperSeated(
                "seats",
                f"{seat.name} (seat p{n}), who creates it and so would keep its score,",
                None,
                "let somebody who does not play at it create it",
            )


def _grants(account: AccountPrincipal) -> list[Grant]:
    return [g for grants in account.roles.values() for g in grants]


def _legal_for(session: GameSession, viewer: Viewer) -> list[str]:
    """The awaited decision's legal commands (text form), for the one who must decide: the
    awaited player (at a question open to the table, every player: their own commands only),
    the scorekeeper at a table. Dice faces are not listed (6ⁿ of them)."""
    game = session.game
    if game is None or session.status is not GameStatus.ONGOING:
        return []
    asked = session.engine.question(game)
    if asked is None or asked.decision == Decision.ROLL.value:
        return []
    if viewer.scorekeeper:
        return [str(c) for c in islice(game.legal_commands(), LEGAL_LIST_LIMIT)]
    seat = None if viewer.member_id is None else session.seat_of(viewer.member_id)
    question = asked
    # A question open to the table (OS3's role windows) lists every holder's uses: each player
    # sees only their own (whose power acts there is hidden), the awaited one and holders alike.
    if seat is None or (question.player != seat and not (asked is not None and asked.table)):
        return []
    # online, what only the server sends (a window's pass, dice) is no option of a player's
    online = session.mode is GameMode.ONLINE
    engine = session.engine
    legal = (
        c for c in engine.legal_commands(game) if c.player == seat and not (online and engine.server_only(c))
    )
    return [str(c) for c in islice(legal, LEGAL_LIST_LIMIT)]


LEGAL_LIST_LIMIT = 200
"""The most legal commands a state lists: the card game's discards down to the hand limit are
every k of n cards (C(20, 10) = 184,756 of them); past this many, the player names his own,
and the command route checks it all the same."""


def _deadline(session: GameSession) -> str | None:
    """When the awaited decision gets its documented default (ISO 8601, the server's clock), as
    ``GameService.apply_timeout`` decides it: the latest event + the game's limit; None without
    a limit, while the dice are awaited, or at a table's window (the scorekeeper closes it)."""
    game = session.game
    if game is None or session.status is not GameStatus.ONGOING or session.last_event_at is None:
        return None
    question = session.engine.question(game)
    if question is None or question.random:
        return None
    open_to_table = question.table and session.mode is GameMode.ONLINE
    if question.table and not open_to_table:
        return None
    limit = session.created.options.limit_for(open_to_table)
    if limit is None or limit < 1:
        return None
    return (session.last_event_at + timedelta(seconds=limit)).isoformat()


def _event_view(
    session: GameSession, viewer: Viewer, version: int, event: msgspec.Struct, recorded_at: datetime | None
) -> dict[str, Any]:
    data = redact_event(session, viewer, event)
    return {
        "version": version,
        "type": stored_type(event),
        "recorded_at": None if recorded_at is None else recorded_at.isoformat(),
        "data": data,
    }


def _recorded_view(session: GameSession, viewer: Viewer, recorded: RecordedEvent) -> dict[str, Any]:
    return _event_view(
        session, viewer, recorded.version, GAME_MAPPER.to_domain(recorded), recorded.recorded_at
    )
