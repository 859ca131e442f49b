"""The club aggregate (stream ``club-<id>``): founding and its registered players.

``decide`` answers a command with the events it causes (or a typed error, changing nothing);
``evolve`` applies one event to the state; ``fold`` replays a stream.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from services.league.commands import ClubCommand, FoundClub, RegisterPlayer
from services.league.errors import AlreadyExists, UnknownEntity
from services.league.events import ClubFounded, LeagueEvent, PlayerRegistered
from services.league.vocabulary import check_id


@dataclass(slots=True)
class ClubState:
    club_id: str | None = None
    name: str = ""
    members: dict[str, str] = field(default_factory=dict)
    """member id → name, in registration order."""

    @property
    def exists(self) -> bool:
        return self.club_id is not None

    def has_member(self, member_id: str) -> bool:
        return member_id in self.members


def club_stream(club_id: str) -> str:
    return f"club-{club_id}"


def decide(state: ClubState, command: ClubCommand) -> list[LeagueEvent]:
    match command:
        case FoundClub(club_id=club_id, name=name):
            check_id("club id", club_id)
            if state.exists:
                raise AlreadyExists("club", club_id)
            return [ClubFounded(club_id=club_id, name=name)]
        case RegisterPlayer(club_id=club_id, member_id=member_id, name=name):
            check_id("member id", member_id)
            if not state.exists:
                raise UnknownEntity("club", club_id)
            if state.has_member(member_id):
                raise AlreadyExists("player", member_id)
            return [PlayerRegistered(club_id=club_id, member_id=member_id, name=name)]
    raise TypeError(f"not a club command: {command!r}")


def evolve(state: ClubState, event: LeagueEvent) -> ClubState:
    match event:
        case ClubFounded(club_id=club_id, name=name):
            state.club_id, state.name = club_id, name
        case PlayerRegistered(member_id=member_id, name=name):
            state.members[member_id] = name
    return state


def fold(events: Iterable[LeagueEvent]) -> ClubState:
    state = ClubState()
    for event in events:
        evolve(state, event)
    return state
