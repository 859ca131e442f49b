"""The game service's GraphQL types: queries and the live ``gameEvents`` subscription.

Resolvers are as thin as the REST controllers: one ``GameGateway`` call each, so GraphQL shows
exactly what REST shows (the same redaction for the same caller). The caller comes from the
``Authorization: Bearer …`` header on HTTP, and on a WebSocket from the ``connection_init``
payload (``{"Authorization": "Bearer …"}`` or ``{"token": "…"}``) or the ``token`` argument.
The root schema is composed in ``services/api/schema.py``.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from services.game.audit import AuditReport
from services.game.edge.bounds import GameId, PageLimit, Token, Version, bounded
from services.game.edge.gateway import EVENTS_PAGE_LIMIT, GameGateway
from services.game.edge.tokens import Principal


@strawberry.type(description="Somebody who joined the game (a league member).")
class GameMember:
    member_id: str
    name: str


@strawberry.type(description="A seat as the caller may see it: `role` is null while hidden from them.")
class GamePlayer:
    id: str
    member_id: str | None
    name: str | None
    role: str | None
    character: str
    life: int
    max_life: int
    arrows: int
    alive: bool
    special_role: str | None = strawberry.field(
        default=None, description="OS3: the special role card, null until revealed to the caller."
    )
    ghost: bool = strawberry.field(default=False, description="OS5: this seat is the Ghost.")
    ghost_tokens: list[str] = strawberry.field(
        default_factory=list, description="OS5: faces of the Ghost tokens this player holds."
    )
    rage_count: int | None = strawberry.field(
        default=None, description="UA2: how many face-down Rage cards this player holds (null without UA2)."
    )
    rage_cards: list[str] | None = strawberry.field(
        default=None,
        description="UA2: the face-down Rage cards' ids, to their holder only (null to everyone else).",
    )
    wound_tokens: list[str] | None = strawberry.field(
        default=None, description="UA1: the Duel Wound tokens this player holds, face up (null without UA1)."
    )
    rage_choice: list[str] | None = strawberry.field(
        default=None,
        description="UA3, Pixie Pete: the two Rage cards he is choosing between, to him only (else null).",
    )
    zombie: bool | None = strawberry.field(
        default=None, description="UA4: a plain zombie since the outbreak (null without UA4)."
    )
    zombie_master: bool | None = strawberry.field(
        default=None, description="UA4: the Zombie Master since the outbreak (null without UA4)."
    )
    hand_count: int | None = strawberry.field(
        default=None, description="The card game: how many cards this player holds (null in a dice game)."
    )
    hand: list[str] | None = strawberry.field(
        default=None,
        description="The card game: the hand (`bang:AS`), to its holder only (null to everyone else).",
    )
    hand_ids: list[int] | None = strawberry.field(
        default=None, description="The card game: the hand's card ids, to its holder only."
    )
    in_play: list[str] | None = strawberry.field(
        default=None, description="The card game: the cards in play in front of this player, face up."
    )
    in_play_ids: list[int] | None = strawberry.field(
        default=None, description="The card game: the ids of the cards in play."
    )
    bot: bool = strawberry.field(
        default=False, description="A bot took this seat over (its member id is null, its name `Bot`)."
    )


@strawberry.type(description="The one decision the game waits for.")
class GameAwaiting:
    player: str
    decision: str
    dice: list[int] = strawberry.field(default_factory=list, description="The dice game: the dice concerned.")
    max_count: int = 0
    rolls_left: int = 0
    from_player: str | None = strawberry.field(
        default=None, description="The card game: whose hand a random card comes from, who sees a card."
    )
    count: int | None = strawberry.field(
        default=None, description="The card game: cards to discard, Missed! still needed, life to regain."
    )
    cards: list[int] | None = strawberry.field(
        default=None, description="The card game: a draw!'s flipped cards Lucky Duke chooses between."
    )


@strawberry.type(description="The rules a game is played with: its expansion modules and data versions.")
class GameRuleset:
    modules: list[str] = strawberry.field(description="Expansion module ids, sorted (OS1-OS5, UA1-UA5).")
    text: str = strawberry.field(description="The compact form: game type, then modules (`dice OS1`).")
    data: JSON = strawberry.field(description="Data table -> version, e.g. {characters: dice-base-1}.")


@strawberry.type(description="A game's state, redacted for the caller.")
class Game:
    id: strawberry.ID
    mode: str
    game_type: str = strawberry.field(description="`dice` (BANG! The Dice Game) or `cards` (BANG!).")
    ruleset: GameRuleset
    fairness: str | None = strawberry.field(
        description="Online games: the versions of the derivations from the seed (`deal-1 dice-1`)."
    )
    status: str
    version: int
    player_count: int
    seed_commitment: str | None = strawberry.field(description="sha256 of the dice seed (online games).")
    seed: str | None = strawberry.field(description="The dice seed in hex, once the game has ended.")
    context: JSON
    joined: list[GameMember]
    players: list[GamePlayer]
    arrow_pile: int | None
    active_player: str | None
    turn: int | None
    dice: list[str | None]
    dice_kinds: list[str] = strawberry.field(
        description="Each die's kind (`base`, `loudmouth`, `coward`), in the order of `dice`."
    )
    dice_preset: list[int] = strawberry.field(description="OS5: dice a Ghost token set (never rolled).")
    chief_holder: str | None = strawberry.field(description="OS2: who holds the Chief's Arrow.")
    chief_in_pile: bool = strawberry.field(description="OS2: the Chief's Arrow is in the pile.")
    awaiting: GameAwaiting | None
    result: JSON | None
    legal_commands: list[str] = strawberry.field(
        description="The awaited decision's legal commands (text form), shown only to whoever must decide."
    )
    phase: str | None = strawberry.field(default=None, description="The card game: the turn's phase.")
    deck: int | None = strawberry.field(default=None, description="The card game: cards left in the deck.")
    discard: list[str] | None = strawberry.field(
        default=None, description="The card game: the discard pile, face up, top card last."
    )
    discard_ids: list[int] | None = strawberry.field(
        default=None, description="The card game: the discard pile's card ids, in the order of `discard`."
    )
    general_store: list[str] | None = strawberry.field(
        default=None, description="The card game: the General Store's face-up cards."
    )
    general_store_ids: list[int] | None = strawberry.field(
        default=None,
        description="The card game: the General Store's card ids, in the order of `generalStore`.",
    )
    kit_carlson: JSON | None = strawberry.field(
        default=None, description="The card game: Kit Carlson's look (how many; which, to him only)."
    )
    resolving: JSON | None = strawberry.field(
        default=None, description="The card game: the card being resolved, its player and target."
    )

    @classmethod
    def from_view(cls, state: dict[str, Any]) -> Game:
        awaiting = state.get("awaiting")
        return cls(
            id=strawberry.ID(state["game_id"]),
            mode=state["mode"],
            game_type=state["game_type"],
            ruleset=GameRuleset(**state["ruleset"]),
            fairness=state["fairness"],
            status=state["status"],
            version=state["version"],
            player_count=state["player_count"],
            seed_commitment=state["seed_commitment"],
            seed=state["seed"],
            context=state["context"],
            joined=[GameMember(**j) for j in state["joined"]],
            players=[GamePlayer(**p) for p in state["players"]],
            arrow_pile=state["arrow_pile"],
            active_player=state["active_player"],
            turn=state["turn"],
            dice=state.get("dice", []),
            dice_kinds=state.get("dice_kinds", []),
            dice_preset=state.get("dice_preset", []),
            chief_holder=state.get("chief_holder"),
            chief_in_pile=state.get("chief_in_pile", False),
            awaiting=None if awaiting is None else GameAwaiting(**awaiting),
            result=state["result"],
            legal_commands=state.get("legal_commands", []),
            phase=state.get("phase"),
            deck=state.get("deck"),
            discard=state.get("discard"),
            discard_ids=state.get("discard_ids"),
            general_store=state.get("general_store"),
            general_store_ids=state.get("general_store_ids"),
            kit_carlson=state.get("kit_carlson"),
            resolving=state.get("resolving"),
        )


@strawberry.type(description="One event of a game's stream, redacted for the caller.")
class GameEvent:
    game_id: strawberry.ID
    version: int
    type: str
    recorded_at: datetime | None
    data: JSON

    @classmethod
    def from_view(cls, game_id: str, event: dict[str, Any]) -> GameEvent:
        recorded_at = event["recorded_at"]
        return cls(
            game_id=strawberry.ID(game_id),
            version=event["version"],
            type=event["type"],
            recorded_at=None if recorded_at is None else datetime.fromisoformat(recorded_at),
            data=event["data"],
        )


@strawberry.type(description="One question an audit answers (docs/audit.md).")
class GameAuditCheck:
    name: str
    passed: bool
    detail: str


@strawberry.type(description="The events one store read found (usually one command's), redacted.")
class GameUpdate:
    game_id: strawberry.ID
    version: int
    """The game's version after these events."""
    events: list[GameEvent]


@strawberry.type(description="Whether the game's recorded outputs follow from its recorded inputs.")
class GameAudit:
    game_id: strawberry.ID
    clean: bool
    verdict: str
    first_divergence: str | None
    checks: list[GameAuditCheck]
    events_checked: int
    rolls_checked: int
    ruleset: str = strawberry.field(description="The ruleset replayed with (`dice`, `dice OS1`).")
    derivations: str | None = strawberry.field(
        description="Online games: the seed derivations re-derived with (`deal-1 dice-1`)."
    )

    @classmethod
    def from_report(cls, report: AuditReport) -> GameAudit:
        return cls(
            game_id=strawberry.ID(report.game_id),
            clean=report.clean,
            verdict=report.verdict,
            first_divergence=report.first_divergence,
            checks=[GameAuditCheck(name=c.name, passed=c.passed, detail=c.detail) for c in report.checks],
            events_checked=report.events_checked,
            rolls_checked=report.rolls_checked,
            ruleset=report.ruleset,
            derivations=report.derivations,
        )


def _gateway(info: Info) -> GameGateway:
    gateway: GameGateway = info.context["gateway"]
    return gateway


async def caller(info: Info, token: str | None = None) -> Principal | None:
    """The principal behind this request: the ``token`` argument, else the HTTP header, else
    the WebSocket's connection params."""
    gateway = _gateway(info)
    if token is not None:
        return await gateway.authenticate(f"Bearer {bounded('token', token, Token)}")
    request = info.context.get("request")
    if request is not None:
        return await gateway.authenticate(request.headers.get("authorization"))
    params = info.context.get("connection_params") or {}
    header = params.get("Authorization") or params.get("authorization")
    if header is None and params.get("token"):
        header = f"Bearer {params['token']}"
    return await gateway.authenticate(header if isinstance(header, str) else None)


@strawberry.type
class GameQuery:
    @strawberry.field(description="A game's current state as the caller may see it.")
    async def game(
        self, info: Info, game_id: Annotated[strawberry.ID, strawberry.argument(name="id")]
    ) -> Game:
        game_id = bounded("id", game_id, GameId)
        return Game.from_view(await _gateway(info).state(await caller(info), game_id))

    @strawberry.field(description="A game's events from `fromVersion` on (at most `limit`), redacted.")
    async def game_events(
        self,
        info: Info,
        game_id: Annotated[strawberry.ID, strawberry.argument(name="id")],
        from_version: int = 1,
        limit: int = EVENTS_PAGE_LIMIT,
    ) -> list[GameEvent]:
        game_id = bounded("id", game_id, GameId)
        from_version = bounded("fromVersion", from_version, Version)
        limit = bounded("limit", limit, PageLimit)
        events = await _gateway(info).events(await caller(info), game_id, from_version, limit)
        return [GameEvent.from_view(game_id, e) for e in events]

    @strawberry.field(description="The game as it stood right after event `version` (time travel).")
    async def game_at(
        self, info: Info, game_id: Annotated[strawberry.ID, strawberry.argument(name="id")], version: int
    ) -> Game:
        game_id = bounded("id", game_id, GameId)
        version = bounded("version", version, Version)
        return Game.from_view(await _gateway(info).state_at(await caller(info), game_id, version))

    @strawberry.field(description="Replay the game's inputs and compare every recorded output.")
    async def audit(
        self, info: Info, game_id: Annotated[strawberry.ID, strawberry.argument(name="id")]
    ) -> GameAudit:
        return GameAudit.from_report(await _gateway(info).audit(bounded("id", game_id, GameId)))


@strawberry.type
class GameSubscription:
    @strawberry.subscription(
        description="A game's events as they happen (from `fromVersion` when given, catching up first), "
        "redacted for the subscriber; completes after the game's last event."
    )
    async def game_events(
        self,
        info: Info,
        game_id: Annotated[strawberry.ID, strawberry.argument(name="id")],
        token: str | None = None,
        from_version: int | None = None,
    ) -> AsyncGenerator[GameEvent, None]:
        game_id = bounded("id", game_id, GameId)
        from_version = bounded("fromVersion", from_version, Version)
        principal = await caller(info, token)
        recheck = functools.partial(caller, info, token)  # a scorekeeper's grant may be revoked meanwhile
        async for event in _gateway(info).watch(principal, game_id, from_version, recheck):
            yield GameEvent.from_view(game_id, event)

    @strawberry.subscription(
        description="Like `gameEvents`, but one message per update (a command's events together): "
        "cheaper for the server and the client when every event is wanted."
    )
    async def game_updates(
        self,
        info: Info,
        game_id: Annotated[strawberry.ID, strawberry.argument(name="id")],
        token: str | None = None,
        from_version: int | None = None,
    ) -> AsyncGenerator[GameUpdate, None]:
        game_id = bounded("id", game_id, GameId)
        from_version = bounded("fromVersion", from_version, Version)
        principal = await caller(info, token)
        recheck = functools.partial(caller, info, token)
        async for batch in _gateway(info).watch_batches(principal, game_id, from_version, recheck):
            events = [GameEvent.from_view(game_id, e) for e in batch]
            yield GameUpdate(game_id=game_id, version=events[-1].version, events=events)
