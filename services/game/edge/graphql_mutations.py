"""The game service's GraphQL mutations: ``createGame``, REST's ``POST /games`` on the other
channel.

The input has REST's fields (``CreateGameRequest`` in ``http.py``, camel-cased) and is checked
by decoding it into that very request: the same bounds, the same unknown-module and ruleset
refusals, and one ``GameGateway.create_game`` call, authorised as REST is (a signed-in
account, or an operator's organiser token; a league game only as its league scheduled it). A
refusal is a GraphQL error carrying REST's problem details (``services/api/graphql_problems.py``):
an input out of bounds names its field.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypeVar

import msgspec
import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from services.game.edge.bounds import InvalidArgument, explain
from services.game.edge.graphql_types import Game, _gateway, caller
from services.game.edge.http import CreateGameRequest


@strawberry.input(description="A league member taking a seat of an online game.")
class MemberInput:
    member_id: str
    name: str


@strawberry.input(description="A table game's seat, clockwise, as dealt at the table.")
class SeatInput:
    member_id: str
    name: str
    role: str = strawberry.field(description="`sheriff`, `deputy`, `outlaw` or `renegade`.")
    character: str = strawberry.field(description="A character of the game's pool, e.g. `bart_cassidy`.")
    special: str | None = strawberry.field(
        default=None, description="With OS3: the seat's special role card, e.g. `le_doc`."
    )


@strawberry.input(description="Where the game belongs in a league, if anywhere.")
class ContextInput:
    league_id: str | None = None
    season_id: str | None = None
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None


@strawberry.input(description="Game options.")
class OptionsInput:
    decision_timeout_seconds: int | None = strawberry.field(
        default=None, description="After this long without an event, the awaited decision gets its default."
    )
    role_window_seconds: int | None = strawberry.field(
        default=None,
        description="Online, with OS3: how long every role window stays open (the same at each; default 3).",
    )


@strawberry.input(description="The rules to play: a game type and its expansion modules.")
class RulesetInput:
    game_type: str = "dice"
    modules: list[str] = strawberry.field(
        default_factory=list, description="Module ids in any order (`OS1`…`OS5`, `UA1`…`UA5`)."
    )
    options: list[str] = strawberry.field(
        default_factory=list,
        description="The card game's options (`eight_players`: 8 players with two Renegades).",
    )


@strawberry.input(description="An online game (`members`, the rest join later) or a table game (`seats`).")
class CreateGameInput:
    command_id: str = strawberry.field(description="Idempotency key: a retry answers with the same game.")
    mode: str = strawberry.field(description="`online` or `table`.")
    player_count: int
    members: list[MemberInput] = strawberry.field(default_factory=list)
    seats: list[SeatInput] | None = None
    sheriff_member: str | None = None
    game_id: str | None = None
    context: ContextInput | None = None
    options: OptionsInput | None = None
    ruleset: RulesetInput | None = strawberry.field(default=None, description="Null: the base game.")
    position: JSON | None = strawberry.field(
        default=None,
        description="A table game started where it stands: the record format's `position` of the game "
        "type (docs/game-records.md), its players `p1`, `p2`, … in seat order, as `POST /games` takes it.",
    )


@strawberry.type(
    description="A created game, as its creator may see it (never with players' tokens: each player "
    "acts with their own account)."
)
class CreatedGame:
    game_id: strawberry.ID
    version: int
    game: Game


def create_request(given: CreateGameInput) -> CreateGameRequest:
    """REST's request from the GraphQL input; ``InvalidArgument`` naming the field at fault."""
    return rest_request(dataclasses.asdict(given), CreateGameRequest)


R = TypeVar("R")


def rest_request(given: dict[str, Any], request: type[R]) -> R:
    """REST's ``request`` from a GraphQL input's fields (snake-cased, as ``dataclasses.asdict``
    gives them), with REST's bounds; ``InvalidArgument`` naming the input field at fault."""
    try:
        return msgspec.convert(_given(given), request, strict=True)
    except msgspec.ValidationError as error:
        message = str(error)
        at = _AT.search(message)
        field = "input" if at is None else "input" + _camel(at.group(1))
        raise InvalidArgument(field, explain(_AT.sub("", message))) from None


_AT = re.compile(r" - at `\$([^`]*)`$")


def _given(data: Any) -> Any:
    """The fields given: a null stands for a field left out, as REST's default."""
    if isinstance(data, dict):
        return {k: _given(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_given(v) for v in data]
    return data


def _camel(path: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path)


@strawberry.type
class GameMutation:
    @strawberry.mutation(
        description="Create an online or a table game, as `POST /games` does: a signed-in account (or an "
        "operator's organiser token, friendly games only); a league game only as its league scheduled it; "
        "the ruleset refused naming why (`module UA1 needs UA2`)."
    )
    async def create_game(self, info: Info, input: CreateGameInput) -> CreatedGame:
        request = create_request(input)
        principal = await caller(info)
        created = await _gateway(info).create_game(principal, request.to_new_game(), request.command_id)
        return CreatedGame(
            game_id=strawberry.ID(created.game_id),
            version=created.version,
            game=Game.from_view(created.state),
        )
