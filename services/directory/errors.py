"""The directory's refusals; ``services/api/errors.py`` maps each to its status. Bounds and
roles are refused with the clubs' own errors (``ClubInputOutOfBounds`` 400 naming the field,
``RoleRequired`` 403 naming the club), so a list answers in the same words as the club routes."""

from __future__ import annotations


class DirectoryError(Exception):
    """Every refusal of the directory."""


class TournamentNotFound(DirectoryError):
    def __init__(self, league_id: str, tournament_id: str) -> None:
        super().__init__(f"league {league_id!r} has no tournament {tournament_id!r}")
        self.field = "tournament_id"


class MemberNotFound(DirectoryError):
    def __init__(self, member_id: str) -> None:
        super().__init__(f"nobody has the member id {member_id!r}")
        self.field = "member_id"
