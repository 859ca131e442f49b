"""The game service's REST edge: request schemas and thin controllers.

Each handler makes one call to the ``GameGateway`` (``services/game/edge/gateway.py``), which
authorises, calls the game service, redacts and announces. Errors are raised, never turned
into responses here: ``services/api/errors.py`` maps the one error tree to problem details.

Request bodies are msgspec Structs that refuse unknown fields, so a misspelt field is a 400
naming it rather than a silently ignored option, and every field and parameter is bounded by
``services/game/edge/bounds.py`` (a 400 naming the field and the rule; nothing is stored).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.params import JSONBody, Parameter

from services.accounts.http import SECURED
from services.game.application.corrections import TakeBack, parse_take_back
from services.game.application.errors import InvalidGameSpec, InvalidPosition, InvalidRuleset
from services.game.application.lifecycle import GameContext, GameMode, GameOptions, seat_id
from services.game.application.service import Member, NewGame, TableSeat
from services.game.audit import AuditReport
from services.game.edge.bounds import (
    MAX_INT4,
    CommandId,
    DecisionTimeout,
    GameId,
    Identifier,
    Name,
    PlayerCount,
    RoleWindow,
    Round,
    SeatList,
    Table,
    Version,
    command_text,
)
from services.game.edge.chain import CHAIN_PAGE_LIMIT, published_chain
from services.game.edge.cost import Charge
from services.game.edge.gateway import EVENTS_PAGE_LIMIT, Created, GameGateway, Imported, Joined, Played
from services.game.edge.tokens import Principal
from services.game.records.cards.reader import read_card_position
from services.game.records.dispatch import AnyRecord, read_any_record
from services.game.records.errors import MalformedRecord
from services.game.records.limits import check_bytes, record_bytes
from services.game.records.reader import read_position
from services.game.rules.cards import commands as card_cmd
from services.game.rules.cards.errors import MalformedCommand as CardMalformed
from services.game.rules.cards.events import Seat as CardSeat
from services.game.rules.cards.vocabulary import CharacterId as CardCharacter
from services.game.rules.cards.vocabulary import PlayerId as CardPlayerId
from services.game.rules.cards.vocabulary import Role as CardRole
from services.game.rules.dice import GameCommand, MalformedCommand, parse_command
from services.game.rules.dice import commands as cmd
from services.game.rules.dice.characters import CharacterId
from services.game.rules.dice.vocabulary import Role, SpecialRole
from services.game.rules.ruleset import BASE_DICE, GameType, Ruleset, RulesetError, ruleset_of

MemberId = Identifier

TOKEN_REQUIRED = SECURED
TOKEN_OPTIONAL = [{}, *SECURED]
"""OpenAPI ``security`` of a route anybody may read, whose answer depends on the token (what
the caller may see): ``[{}, {BearerAuth: []}]``."""

_COMMAND_TYPES: dict[str, type[cmd.Command]] = {
    c.__name__: c
    for c in GameCommand.__args__  # type: ignore[attr-defined]
}
_CARD_COMMAND_TYPES: dict[str, type[card_cmd.Command]] = {
    c.__name__: c
    for c in card_cmd.GameCommand.__args__  # type: ignore[attr-defined]
}
_PARSERS: dict[GameType, tuple[Any, dict[str, Any], type[Exception]]] = {
    GameType.DICE: (parse_command, _COMMAND_TYPES, MalformedCommand),
    GameType.CARDS: (card_cmd.parse_command, _CARD_COMMAND_TYPES, CardMalformed),
}
"""Each game type's commands: its text parser, its command objects by ``type``, its refusal of
a command that cannot be read."""


class MemberIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    member_id: MemberId
    name: Name

    def to_member(self) -> Member:
        return Member(member_id=self.member_id, name=self.name)


class SeatIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    member_id: MemberId
    name: Name
    role: Role
    character: CharacterId
    special: SpecialRole | None = None
    """With OS3: the seat's special role card, as dealt at the table."""


class ContextIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``GameContext`` as it may come in (the event's own type stays unbounded: see bounds.py)."""

    league_id: Identifier | None = None
    season_id: Identifier | None = None
    tournament_id: Identifier | None = None
    round: Round | None = None
    table: Table | None = None

    def to_context(self) -> GameContext:
        return GameContext(**msgspec.structs.asdict(self))


class OptionsIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``GameOptions`` as it may come in."""

    decision_timeout_seconds: DecisionTimeout | None = None
    role_window_seconds: RoleWindow | None = None

    def to_options(self) -> GameOptions:
        return GameOptions(**msgspec.structs.asdict(self))


ModuleWord = Annotated[str, msgspec.Meta(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]


class RulesetIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A game's ruleset as it may come in: its expansion modules by id (``["OS1", "OS2"]``), any
    order. Whether the rules allow the set at this table size, and whether this server plays
    it yet, is the service's 422 (``invalid-ruleset``, naming why)."""

    game_type: ModuleWord = "dice"
    modules: Annotated[list[ModuleWord], msgspec.Meta(max_length=16)] = []
    options: Annotated[list[ModuleWord], msgspec.Meta(max_length=4)] = []
    """The card game's options (``["eight_players"]``: 8 players with two Renegades)."""

    def to_ruleset(self) -> Ruleset:
        if self.options and self.game_type != GameType.CARDS.value:
            raise InvalidRuleset(f"the {self.game_type} game has no options (only modules)")
        try:
            return ruleset_of([*self.modules, *self.options], self.game_type)
        except RulesetError as error:
            raise InvalidRuleset(str(error)) from None


class CreateGameRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An online game (``members`` known now, the rest join the lobby) or a table game (``seats``
    clockwise with the roles and characters dealt at the table)."""

    command_id: CommandId
    mode: GameMode
    player_count: PlayerCount
    """Bounded here; the rules' 3 to 8 is the service's 422 (``invalid-game``)."""
    members: SeatList[MemberIn] = []
    seats: SeatList[SeatIn] | None = None
    sheriff_member: MemberId | None = None
    game_id: GameId | None = None
    context: ContextIn = ContextIn()
    options: OptionsIn = OptionsIn()
    ruleset: RulesetIn | None = None
    """None: the base game."""
    position: dict[str, Any] | None = None
    """A table game started mid-game ("we are already playing"): the record format's
    ``position`` for the game type (docs/game-records.md), read by the records' own readers, its
    players the seat ids ``p1``, ``p2``, … clockwise. An online game is refused one (the service
    says so)."""

    def to_new_game(self) -> NewGame:
        ruleset = BASE_DICE if self.ruleset is None else self.ruleset.to_ruleset()
        return NewGame(
            mode=self.mode,
            player_count=self.player_count,
            members=tuple(m.to_member() for m in self.members),
            seats=None
            if self.seats is None
            else tuple(
                TableSeat(
                    member_id=s.member_id, name=s.name, role=s.role, character=s.character, special=s.special
                )
                for s in self.seats
            ),
            position=self._position(ruleset),
            sheriff_member=self.sheriff_member,
            context=self.context.to_context(),
            options=self.options.to_options(),
            game_id=self.game_id,
            ruleset=ruleset,
        )

    def _position(self, ruleset: Ruleset) -> object | None:
        """The position in the engine's words, read as a record's ``position`` of this game
        type; one that cannot be read is a 422 ``invalid-position`` naming its JSON path."""
        if self.position is None:
            return None
        sheriff = any(s.role is Role.SHERIFF for s in self.seats or ())
        if self.mode is not GameMode.TABLE or (ruleset.game_type is GameType.CARDS and not sheriff):
            # as given: the service refuses it for what comes first (an online game is dealt by
            # the server; a table's seats without a Sheriff, whose turn a card position starts)
            return self.position
        try:
            if ruleset.game_type is GameType.CARDS:
                seats = tuple(
                    CardSeat(
                        player=CardPlayerId(seat_id(i)),
                        role=CardRole(s.role),
                        character=CardCharacter(s.character),
                    )
                    for i, s in enumerate(self.seats or ())
                )
                return read_card_position(self.position, seats)
            return read_position(self.position)
        except MalformedRecord as error:
            raise InvalidPosition(str(error)) from None
        except ValueError as error:  # a seat the card game has no words for: the service's refusal
            raise InvalidGameSpec(f"the seats do not fit the card game: {error}") from None


class JoinRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The caller joins as themselves (a signed-in account), under their display name."""

    command_id: CommandId
    member_id: MemberId | None = None
    """When given, it must be the caller's own (403 ``not-yourself`` otherwise)."""


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One rules command: its text form (``"p1 reroll 0 2"``) or the command object
    (``{"type": "Reroll", "player": "p1", "dice": [0, 2]}``). At a table, ``"takeback"`` /
    ``{"type": "TakeBack"}`` takes back the latest entry (``application/corrections.py``)."""

    command: str | dict[str, Any]
    """Bounded in ``parsed`` (``command_text``: a constrained union would crash msgspec)."""
    command_id: CommandId
    expected_version: Version | None = None
    """Refuse the command (409) unless the game is still at this version."""

    def parsed(self, game_type: GameType = GameType.DICE) -> GameCommand | TakeBack:
        """The command in the words of the game's type (a dice game's or the card game's)."""
        command_text("command", self.command)
        parse, types, malformed = _PARSERS[game_type]
        take_back = parse_take_back(self.command, malformed)
        if take_back is not None:
            return take_back
        if isinstance(self.command, str):
            return parse(self.command)  # type: ignore[no-any-return]
        kind = self.command.get("type")
        cls = types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise malformed(f"`command.type` must be one of {', '.join(types)}, got {kind!r}")
        unknown = sorted(set(self.command) - {f.name for f in msgspec.structs.fields(cls)} - {"type"})
        if unknown:
            raise malformed(f"unknown field(s) in `command` ({kind}): {', '.join(unknown)}")
        try:
            return msgspec.convert(self.command, cls, strict=True)  # type: ignore[no-any-return]
        except msgspec.ValidationError as error:
            raise malformed(f"`command` ({kind}): {str(error).replace('`$', '`$.command')}") from None


class ImportRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table game's whole record (docs/game-records.md), entered as one request."""

    command_id: CommandId
    record: dict[str, Any]
    """A dice or a card record, told apart by its ``format`` (``read_any_record``,
    services/game/records/dispatch.py): a 422 naming the JSON path."""
    members: SeatList[MemberIn] | None = None
    """Who sat in p1, p2, … (default: members named after the seats)."""
    game_id: GameId | None = None
    """Default: the record's ``meta.game_id``, else derived from the command id."""
    context: ContextIn = ContextIn()
    """A scheduled league table's game: its league, season, tournament, round and table."""

    def to_record(self) -> AnyRecord:
        return read_any_record(self.record)

    def to_members(self) -> list[Member] | None:
        return None if self.members is None else [m.to_member() for m in self.members]


class GameController(Controller):
    path = "/games"
    tags = ["games"]

    @post(
        "/",
        operation_id="createGame",
        status_code=201,
        summary="Create an online or a table game",
        security=TOKEN_REQUIRED,
    )
    async def create_game(
        self, data: JSONBody[CreateGameRequest], gateway: GameGateway, principal: Principal | None
    ) -> Created:
        return await gateway.create_game(principal, data.to_new_game(), data.command_id)

    @post(
        "/{game_id:str}/players",
        operation_id="joinGame",
        status_code=201,
        summary="Join an online lobby",
        security=TOKEN_REQUIRED,
    )
    async def join(
        self, game_id: str, data: JSONBody[JoinRequest], gateway: GameGateway, principal: Principal | None
    ) -> Joined:
        return await gateway.join(principal, game_id, data.member_id, data.command_id)

    @post(
        "/{game_id:str}/commands",
        operation_id="playCommand",
        status_code=200,
        summary="Play one command",
        security=TOKEN_REQUIRED,
    )
    async def play(
        self, game_id: str, data: JSONBody[CommandRequest], gateway: GameGateway, principal: Principal | None
    ) -> Played:
        command = data.parsed(await gateway.game_type(game_id))
        return await gateway.play(principal, game_id, command, data.command_id, data.expected_version)

    @get(
        "/{game_id:str}",
        operation_id="getGame",
        summary="The game's state as the caller may see it",
        security=TOKEN_OPTIONAL,
    )
    async def state(self, game_id: str, gateway: GameGateway, principal: Principal | None) -> dict[str, Any]:
        return await gateway.state(principal, game_id)

    @get(
        "/{game_id:str}/events",
        operation_id="getGameEvents",
        summary="The game's events from a version",
        security=TOKEN_OPTIONAL,
    )
    async def events(
        self,
        game_id: str,
        gateway: GameGateway,
        principal: Principal | None,
        from_version: Annotated[int, Parameter(query="from_version", ge=1, le=MAX_INT4)] = 1,
        limit: Annotated[int, Parameter(ge=1, le=EVENTS_PAGE_LIMIT)] = EVENTS_PAGE_LIMIT,
    ) -> list[dict[str, Any]]:
        return await gateway.events(principal, game_id, from_version, limit)

    @get(
        "/{game_id:str}/versions/{version:int}",
        operation_id="getGameAt",
        summary="The game's state right after event `version` (time travel)",
        security=TOKEN_OPTIONAL,
    )
    async def state_at(
        self,
        game_id: str,
        version: Annotated[int, Parameter(ge=1, le=MAX_INT4)],
        gateway: GameGateway,
        principal: Principal | None,
        charge: Charge,
    ) -> dict[str, Any]:
        return await gateway.state_at(principal, game_id, version, charge)

    @get(
        "/{game_id:str}/record",
        operation_id="exportRecord",
        summary="The game's record (docs/game-records.md)",
        security=TOKEN_OPTIONAL,
    )
    async def export_record(
        self, game_id: str, gateway: GameGateway, principal: Principal | None
    ) -> dict[str, Any]:
        return await gateway.export_record(principal, game_id)

    @get(
        "/{game_id:str}/chain",
        operation_id="getGameChain",
        summary="A finished online game's stored events and hashes, to re-check its hash chain",
    )
    async def chain(
        self,
        game_id: str,
        gateway: GameGateway,
        from_version: Annotated[int, Parameter(query="from_version", ge=1, le=MAX_INT4)] = 1,
        limit: Annotated[int, Parameter(ge=1, le=CHAIN_PAGE_LIMIT)] = CHAIN_PAGE_LIMIT,
    ) -> dict[str, Any]:
        return await published_chain(gateway.service, gateway.store, game_id, from_version, limit)

    @get(
        "/{game_id:str}/audit",
        operation_id="auditGame",
        summary="Recompute the game's outputs from its inputs",
    )
    async def audit(self, game_id: str, gateway: GameGateway) -> AuditReport:
        return await gateway.audit(game_id)


class RecordController(Controller):
    path = "/records"
    tags = ["records"]

    @post(
        "/",
        operation_id="importRecord",
        status_code=201,
        summary="Import a whole table game from its record",
        security=TOKEN_REQUIRED,
    )
    async def import_record(
        self, data: JSONBody[ImportRequest], gateway: GameGateway, principal: Principal | None, charge: Charge
    ) -> Imported:
        check_bytes(record_bytes(data.record))  # 413 naming the bound (records/limits.py)
        return await gateway.import_record(
            principal, data.to_record(), data.to_members(), data.command_id, data.game_id,
            data.context.to_context(), charge,
        )  # fmt: skip
