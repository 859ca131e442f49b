"""The clubs' refusals; ``services/api/errors.py`` maps each to its status.

A refusal names the club the caller asked about and the role they lack, never anything of a
club the caller is not in (who its members are, which roles they hold).
"""

from __future__ import annotations


class ClubError(Exception):
    """Every refusal of the clubs component."""


class ClubInputOutOfBounds(ClubError, ValueError):
    """An id or a name outside what any request needs (400; nothing is read)."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"`{field}`: {rule}")
        self.field = field
        self.rule = rule


class InvalidClubInput(ClubError, ValueError):
    """A value that fits the schema but breaks a rule (422; nothing is stored)."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"`{field}`: {rule}")
        self.field = field
        self.rule = rule


class ScorekeeperSeated(InvalidClubInput):
    """A table's scorekeeper would sit at it: whoever keeps a table game's score sees every role
    and hand there, so nobody seated at a table keeps its score (422; nothing is stored).
    Raised wherever a scorekeeper is named for a table: the league's schedule, a league table
    game's creation, a ``scorekeeper`` role granted for a game."""

    def __init__(
        self, field: str, who: str, game_id: str | None, advice: str = "name somebody who does not play at it"
    ) -> None:
        table = "this table game" if game_id is None else f"the table of game {game_id!r}"
        super().__init__(
            field,
            f"{who} sits at {table}, so cannot keep its score: a table's scorekeeper sees every role "
            f"and hand there; {advice}",
        )
        self.game_id = game_id


class ClubNotFound(ClubError):
    def __init__(self, club_id: str) -> None:
        super().__init__(f"no club has the id {club_id!r}")
        self.field = "club_id"


class AccountNotFound(ClubError):
    def __init__(self, account_id: str) -> None:
        super().__init__(f"no account has the id {account_id!r}")
        self.field = "account_id"


class RoleRequired(ClubError):
    """The caller holds none of the roles this needs in this club (403)."""

    def __init__(self, club_id: str, roles: tuple[str, ...]) -> None:
        if roles:
            message = f"this needs the role {' or '.join(roles)} in club {club_id!r}, which you do not hold"
        else:
            message = f"this is for members of club {club_id!r}, and you are not one"
        super().__init__(message)
        self.club_id = club_id
        self.roles = roles


class RoleNotHeld(ClubError):
    def __init__(self, club_id: str, account_id: str, role: str) -> None:
        super().__init__(f"account {account_id!r} does not hold the role {role} in club {club_id!r}")
        self.field = "role"


class LastAdmin(ClubError):
    """Removing it would leave the club with nobody who can grant roles (409)."""

    def __init__(self, club_id: str) -> None:
        super().__init__(
            f"club {club_id!r} would have no admin left; grant admin to someone else first"
        )
        self.field = "role"


class GrantNotHeld(ClubError):
    """An API token may carry only roles its account holds now (403)."""

    def __init__(self, club_id: str, role: str, game_id: str | None) -> None:
        scope = "" if game_id is None else f" for game {game_id!r}"
        super().__init__(
            f"you do not hold the role {role}{scope} in club {club_id!r}; an API token carries only "
            "roles you hold"
        )
        self.field = "grants"



class LoginExists(ClubError):
    """The member has set up a login already: a login link is for a member who has none (409)."""

    def __init__(self, display_name: str) -> None:
        super().__init__(
            f"{display_name} has a login already: they sign in with it (a login link is only for a "
            "member registered by name who has not set one up)"
        )
        self.field = "member_id"


class NotAMember(ClubError):
    """The account is not a member of this club (404; says nothing of the account elsewhere)."""

    def __init__(self, club_id: str, account_id: str) -> None:
        super().__init__(f"club {club_id!r} has no member {account_id!r}")
        self.field = "member_id"
